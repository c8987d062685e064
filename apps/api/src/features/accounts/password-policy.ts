import { dictionary } from '@zxcvbn-ts/language-common';
import { Fault } from '../../lib/fault';
import type { BreachedPasswords } from './breached-passwords';

/**
 * ASVS 6.2.4: a chosen password is refused when it is one of the most common ones. The list
 * is zxcvbn-ts's common-password dictionary (~49,000 entries), kept up by that project.
 */
let common: Set<string> | undefined;

export function isCommonPassword(password: string): boolean {
  common ??= new Set(dictionary['passwords-common'].map((p) => p.toLowerCase()));
  return common.has(password.toLowerCase());
}

/**
 * The rules a new password must meet beyond its length (sign-up, reset, change and a first
 * password): not a common one ("New password is too weak.", the spec's message), then not one
 * of the breached-password list (ASVS 6.2.12, ADR 0042), with a message that says why.
 */
export async function assertPasswordAcceptable(password: string, breached: BreachedPasswords): Promise<void> {
  if (isCommonPassword(password)) throw new Fault('UserPasswordChangeNewPasswordInvalidTooWeak');
  if (await breached.has(password)) throw new Fault('UserPasswordBreached');
}
