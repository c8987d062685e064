/** One mail as the service composes it: both bodies and the links it carries. */
export interface OutgoingMail {
  /** The one recipient: an address of the contract's rule (ADR 0031), never a list or a name. */
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The action links inside the mail, for the dev outbox and the console. */
  links: string[];
}

/** An address as nodemailer takes it without parsing: display name and mailbox apart. */
export interface MailAddress {
  name: string;
  address: string;
}

/** Where mails go: SMTP in production, the outbox table otherwise. */
export interface MailTransport {
  send(mail: OutgoingMail): Promise<void>;
}
