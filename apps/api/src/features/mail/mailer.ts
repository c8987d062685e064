import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { MailTransport, OutgoingMail } from '../../integrations/mail/types';
import type { Clock } from '../../lib/clock';

export interface Mailer {
  /**
   * `about.userId`: the account the mail is about, kept with it in the outbox (ADR 0038: the data
   * export lists the account's mails by it, whatever address they went to).
   */
  send(mail: OutgoingMail, about?: { userId: string }): Promise<void>;
}

/**
 * With SMTP configured, mails go out through it and are never stored (their links carry
 * live tokens). Without it, the outbox table keeps them for the dev mailbox and the links
 * are printed to the console, so that a person trying the system can follow them.
 */
export function createMailer(options: {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  transport: MailTransport | undefined;
  /** Where the dev outbox prints each mail's links (the console by default). */
  announce?: (line: string) => void;
}): Mailer {
  const { db, clock, log, transport, announce = console.log } = options;
  return {
    async send(mail, about) {
      if (transport) {
        try {
          await transport.send(mail);
          log.info({ subject: mail.subject }, 'mail sent');
        } catch (error) {
          // The action that caused the mail stands; the customer can ask for the mail again.
          log.error({ err: error, subject: mail.subject }, 'mail delivery failed');
        }
        return;
      }
      await db.insert(mailOutbox).values({
        to: mail.to,
        userId: about?.userId ?? null,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        links: mail.links,
        createdAt: clock.now(),
      });
      announce(`[dev mailbox] to ${mail.to}: ${mail.subject}${mail.links.map((l) => `\n  ${l}`).join('')}`);
    },
  };
}
