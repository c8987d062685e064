import { createTransport } from 'nodemailer';
import type { MailTransport } from './types';

/**
 * Sends mails over SMTP with nodemailer. The URL carries everything nodemailer takes:
 * `smtp://user:pass@host:587` (STARTTLS when the server offers it), `smtps://…:465` (TLS),
 * and query options such as `?pool=true` or `?requireTLS=true`.
 */
export function createSmtpTransport(smtpUrl: string, from: string): MailTransport & { close(): void } {
  const transporter = createTransport(smtpUrl);
  return {
    async send(mail) {
      await transporter.sendMail({ from, to: mail.to, subject: mail.subject, text: mail.text, html: mail.html });
    },
    close() {
      transporter.close();
    },
  };
}
