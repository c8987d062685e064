import { EMAIL_LOCAL_PART_MAX_LENGTH, EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { messages } from './messages';

// The e-mail and password rules without zod, for the screens that load without it (/login,
// ADR 0020). The zod schemas of validators.ts are built from the same pattern, limits and
// messages, and validators.test.ts checks that both give the same answers.

/**
 * One RFC 5321 mailbox and nothing else (docs/decisions/0031-sign-up-and-mail-limits.md): a
 * dot-atom local part of letters, digits and the RFC 5322 atext marks except `%` and `!`
 * (source routes some relays still follow); a domain of at least two letter-digit-hyphen labels
 * of at most 63 characters, the last one starting with a letter. No quotes, spaces, commas,
 * angle brackets or line breaks: the mailer reads the address back as this one address, never
 * as a list or a display name. The local part's limit is checked apart (localPartFits): the
 * pattern has no lookahead, so that JSON Schema tools can generate from it.
 */
export const EMAIL_PATTERN =
  /^[A-Za-z0-9#$&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9#$&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;

/** Whether the part before the @ fits RFC 5321's 64 characters. */
export function localPartFits(email: string): boolean {
  return email.indexOf('@') <= EMAIL_LOCAL_PART_MAX_LENGTH;
}

/** The spec's message for an unusable e-mail address (checked trimmed), or undefined. */
export function emailProblem(value: string): string | undefined {
  const email = value.trim();
  const fits =
    email.length >= 1 && email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email) && localPartFits(email);
  return fits ? undefined : messages.emailFormat;
}

/** The spec's message for a password of the wrong length, or undefined. */
export function passwordProblem(value: string): string | undefined {
  if (value.length < PASSWORD_MIN_LENGTH) return messages.passwordTooShort;
  if (value.length > PASSWORD_MAX_LENGTH) return messages.passwordTooLong;
  return undefined;
}

export function isValidEmail(value: string): boolean {
  return emailProblem(value) === undefined;
}

export function isValidPassword(value: string): boolean {
  return passwordProblem(value) === undefined;
}
