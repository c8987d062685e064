import type { FastifyBaseLogger } from 'fastify';
import type { Database } from '../../db/client';
import { mailOutbox } from '../../db/schema';
import type { MailTransport, OutgoingMail } from '../../integrations/mail/types';
import type { Clock } from '../../lib/clock';
import { failureReason, type MailLog } from './mail-log';

export interface Mailer {
  /**
   * `about.userId`: the account the mail is about, kept with its record (ADR 0038: the data
   * export lists the account's mails by it, whatever address they went to).
   */
  send(mail: OutgoingMail, about?: { userId: string }, delivery?: MailDelivery): Promise<void>;
}

/**
 * What a failed SMTP delivery does once it is recorded. `record` (the default): the action that
 * caused the mail stands and the customer can ask again. `throw`: a queued mail's job fails, so
 * the job queue tries it again (docs/decisions/0051-job-queue.md, retries with backoff).
 */
export interface MailDelivery {
  onFailure: 'record' | 'throw';
}

/**
 * Every mail gets a record in `mail_log` (recipient, account, subject, times, sent or failed with
 * a short reason), never its bodies or links (ADR 0038's revision "a record of every mail"). With
 * SMTP configured, mails go out through it and nothing more is kept (their links carry live
 * tokens). Without it, the outbox table keeps them in full for the dev mailbox and the links are
 * printed to the console, so that a person trying the system can follow them.
 */
export function createMailer(options: {
  db: Database;
  clock: Clock;
  log: FastifyBaseLogger;
  transport: MailTransport | undefined;
  mailLog: MailLog;
  /** Where the dev outbox prints each mail's links (the console by default). */
  announce?: (line: string) => void;
}): Mailer {
  const { db, clock, log, transport, mailLog, announce = console.log } = options;
  return {
    async send(mail, about, delivery) {
      const userId = about?.userId ?? null;
      const createdAt = clock.now();
      const subject = mail.recordedSubject ?? mail.subject;
      if (transport) {
        let outcome: { sentAt: Date } | { failure: string };
        try {
          await transport.send(mail);
          outcome = { sentAt: clock.now() };
          log.info({ subject }, 'mail sent');
        } catch (error) {
          // The action that caused the mail stands; the customer can ask for the mail again.
          outcome = { failure: failureReason(error) };
          log.error({ err: error, subject }, 'mail delivery failed');
        }
        try {
          await mailLog.record({
            to: mail.to,
            userId,
            subject,
            outcome: 'sentAt' in outcome ? 'sent' : 'failed',
            failure: 'failure' in outcome ? outcome.failure : null,
            createdAt,
            sentAt: 'sentAt' in outcome ? outcome.sentAt : null,
          });
        } catch (error) {
          // The mail went (or failed) already: the action stands without its record.
          log.error({ err: error, subject }, 'mail record not written');
        }
        if ('failure' in outcome && delivery?.onFailure === 'throw') {
          throw new Error(`Mail delivery failed: ${outcome.failure}`);
        }
        return;
      }
      // The dev outbox keeps the mail in full for the dev mailbox; its record is as with SMTP.
      await db.insert(mailOutbox).values({
        to: mail.to,
        userId,
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        links: mail.links,
        attachments: (mail.attachments ?? []).map((file) => ({
          fileName: file.fileName,
          contentType: file.contentType,
          contentBase64: file.content.toString('base64'),
        })),
        createdAt,
      });
      await mailLog.record({
        to: mail.to,
        userId,
        subject,
        outcome: 'sent',
        failure: null,
        createdAt,
        sentAt: createdAt,
      });
      announce(`[dev mailbox] to ${mail.to}: ${mail.subject}${mail.links.map((l) => `\n  ${l}`).join('')}`);
    },
  };
}
