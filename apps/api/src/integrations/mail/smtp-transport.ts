import { isValidEmail } from '@soundid/contracts';
import { createTransport } from 'nodemailer';
import addressparser from 'nodemailer/lib/addressparser';
import type { MailAddress, MailTransport } from './types';

/**
 * Whether nodemailer reads `address` back as exactly this one address: the contract's rule
 * (one RFC 5321 mailbox, ADR 0031) and the mailer's own parser agree. Addresses are handed to
 * nodemailer as objects, never as strings for it to parse; this check refuses what an older
 * rule let into the database (a list, a display name) before it could reach an envelope.
 */
export function isSingleMailbox(address: string): boolean {
  if (!isValidEmail(address) || address !== address.trim()) return false;
  const parsed = addressparser(address, { flatten: true });
  return parsed.length === 1 && parsed[0]?.address === address && parsed[0]?.name === '';
}

/** The sender of MAIL_FROM ("Name <address>" or an address), read once: exactly one mailbox. */
export function parseSender(from: string): MailAddress {
  const parsed = addressparser(from, { flatten: true });
  const [sender] = parsed;
  if (parsed.length !== 1 || !sender || !isSingleMailbox(sender.address)) {
    throw new Error(`MAIL_FROM must name exactly one sender address, e.g. "My SoundID <no-reply@example.com>"`);
  }
  return { name: sender.name, address: sender.address };
}

/**
 * Sends mails over SMTP with nodemailer. The URL carries everything nodemailer takes:
 * `smtp://user:pass@host:587` (STARTTLS when the server offers it), `smtps://…:465` (TLS),
 * and query options such as `?pool=true` or `?requireTLS=true`. Every mail has one recipient,
 * given to nodemailer as a structured address, from which it takes the To header and the envelope.
 */
export function createSmtpTransport(smtpUrl: string, from: string): MailTransport & { close(): void } {
  const sender = parseSender(from);
  const transporter = createTransport(smtpUrl);
  return {
    async send(mail) {
      if (!isSingleMailbox(mail.to)) throw new Error('refused to send: the recipient is not one mailbox');
      // Objects, so nodemailer parses nothing: the envelope is made of these same two.
      const recipient: MailAddress = { name: '', address: mail.to };
      await transporter.sendMail({
        from: sender,
        to: [recipient],
        subject: mail.subject,
        text: mail.text,
        html: mail.html,
        ...(mail.attachments?.length && {
          attachments: mail.attachments.map((file) => ({
            filename: file.fileName,
            contentType: file.contentType,
            content: file.content,
          })),
        }),
      });
    },
    close() {
      transporter.close();
    },
  };
}
