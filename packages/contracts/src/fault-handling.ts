// The generic fault handling of docs/requirements.md §8 as the SPA needs it on its first load:
// the lookup by name in the fault table, the lists, the help links. Only types from errors.ts: a
// value import would bring the whole catalogue back onto /login (e2e/bundle-budget.spec.ts).
import type { FaultName } from './errors';
import { faultTable, type TableFaultName } from './fault-table';

/** Faults after which the SPA silently drops the session (docs/requirements.md §8). */
export const SESSION_CLEARING_FAULTS: readonly FaultName[] = [
  'UserAuthenticationFailed',
  'SecurityAuthTokenExpired',
  'SecurityAuthTokenNotPassed',
  'SecurityAuthTokenInvalid',
];

/** Faults the screens handle themselves: no global banner. */
export const LOCALLY_HANDLED_FAULTS: readonly FaultName[] = [
  'UserPasswordChangeOldPasswordInvalid',
  'ReauthenticationPasswordInvalid',
  'StepUpRequired',
  'ActionTokenExpired',
  'ActionTokenAlreadyUsed',
  'UserNotFound',
  'AttemptOverLimitLogin',
  'AttemptOverLimitChangeEmail',
  'KeyOwnedByAnotherUser',
  'UpgradeCodeIncompatibility',
];

/**
 * The generic handler's lookup (docs/requirements.md §8): a message by fault name, else the
 * server's user text, else the name, else 'Unknown'. A screen naming a fault without a server
 * answer passes the name alone, which must be one of the table's.
 */
export function faultMessage(name: TableFaultName): string;
export function faultMessage(name: string | undefined, userText: string | undefined): string;
export function faultMessage(name: string | undefined, userText?: string): string {
  if (name && Object.hasOwn(faultTable, name)) return faultTable[name as TableFaultName].message;
  return userText || name || faultTable.Unknown.message;
}

// ── Account review (docs/requirements.md §8): faults whose message links to a help article ──
/**
 * The spec's table gives KeyRevokeOverLimit a "Learn more" link to a support article: the same
 * link in the error banner and under the devices panel's deactivation error.
 */
export const FAULT_HELP_LINKS: Partial<Record<FaultName, string>> = {
  KeyRevokeOverLimit: 'https://support.sonarworks.com/hc/en-us/articles/license-deactivation-limit',
};
