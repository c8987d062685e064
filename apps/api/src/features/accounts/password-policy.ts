import { dictionary } from '@zxcvbn-ts/language-common';
import { Fault } from '../../lib/fault';

/**
 * ASVS 6.2.4: a chosen password is refused when it is one of the most common ones. The list
 * is zxcvbn-ts's common-password dictionary (~49,000 entries), kept up by that project.
 */
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

/** Throws the catalogue's "New password is too weak." for a common password. */
export function assertPasswordNotCommon(password: string): void {
  if (isCommonPassword(password)) throw new Fault('UserPasswordChangeNewPasswordInvalidTooWeak');
}
