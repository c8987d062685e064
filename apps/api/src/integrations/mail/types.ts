/** One mail as the service composes it: both bodies and the links it carries. */
export interface OutgoingMail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action links inside the mail, for the dev outbox and the console. */
  links: string[];
}

/** Where mails go: SMTP in production, the outbox table otherwise. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}
