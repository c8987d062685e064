/** One mail as the service composes it: both bodies and the links it carries. */
export interface OutgoingMail {
  /** The one recipient: an address of the contract's rule (ADR 0031), never a list or a name. */
  to: string;
  subject: string;
  /**
   * The subject as logs and the mail record keep it, when the subject carries a secret (a
   * confirmation code): never the secret itself (ASVS 16.2.5).
   */
  recordedSubject?: string;
  text: string;
  html: string;
  /** The action links inside the mail, for the dev outbox and the console. */
  links: string[];
  /** Files sent with the mail (a purchase's receipt, ADR 0058), made when the mail is sent. */
  attachments?: MailAttachment[];
}

/** A file attached to a mail. */
export interface MailAttachment {
  /** The name the recipient sees; plain ASCII (letters, digits, `._-`). */
  fileName: string;
  contentType: string;
  content: Buffer;
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
