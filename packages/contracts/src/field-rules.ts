import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants';
import { messages } from './messages';

// The e-mail and password rules without zod, for the screens that load without it (/login,
// ADR 0020). The zod schemas of validators.ts are built from the same pattern, limits and
// messages, and validators.test.ts checks that both give the same answers.

/** A pragmatic standard address shape: local@domain.tld, no spaces, one @. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;

/** The spec's message for an unusable e-mail address (checked trimmed), or undefined. */
export function emailProblem(value: string): string | undefined {
  const email = value.trim();
  const fits = email.length >= 1 && email.length <= EMAIL_MAX_LENGTH && EMAIL_PATTERN.test(email);
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
