import type { AccountEventKind } from '../calls/activity';
import { ACCOUNT_FREEZE_HOURS } from '../constants';

// My activity on the profile (docs/decisions/0055-my-activity.md): the panel's words and each
// entry's, apart from core.ts so that only the profile loads them (ADR 0020). The service words
// the entries (GetMyActivity's Text) with accountEventText.

export const activityText = {
  heading: 'My activity',
  intro: 'Sign-ins and changes to your account, newest first. If something here was not you, tell us.',
  loading: 'Loading your activity',
  empty: 'Nothing here yet.',
  notMe: "This wasn't me",
  /** The confirm step, with the entry's own words. */
  confirmQuestion: (entry: string) => `Report “${entry}” as not yours?`,
  confirmWhat: `We will sign out every device (this one too), email you a link to choose a new password, and pause email changes and passing licenses on for ${ACCOUNT_FREEZE_HOURS} hours.`,
  confirm: "Yes, it wasn't me",
  /** Said on the sign-in page after a report. */
  reported: 'You have been signed out everywhere. Check your email for a link to choose a new password.',
  from: (where: string) => `from ${where}`,
} as const;

/** Why a device's activation ended, after "… deactivated on <device>". */
const deactivationCause: Record<string, string> = {
  customer: '',
  app: ' by the app',
  'key-removed': ' because a license key was removed',
  'licence-removed': ' because the license ended',
  support: ' by SoundID support',
  offline: ' with an offline deactivation file',
  transferred: ' because the license was passed on',
};

/** Support's actions (the audit trail's call names) in the customer's words. */
const supportActions: Record<string, string> = {
  AdminDeactivateDevice: 'deactivated a device',
  AdminEndCustomerSessions: 'signed you out everywhere',
  AdminGrantTokens: 'added voice AI tokens',
  AdminMoveLicence: 'moved a license key',
  AdminRefundPayment: 'refunded a payment',
  AdminRefundStorefrontOrder: 'refunded a store order',
  AdminResendVerification: 'sent a new verification email',
  AdminResetDeactivations: 'gave a license its deactivations back',
  AdminUndoLostReport: 'let a device reported lost use its license again',
  AdminUnlockSignIn: 'unlocked sign-in',
  AdminWithdrawTokens: 'took voice AI tokens back',
};

const tokens = (detail: string | null | undefined) =>
  `${detail ?? ''} voice AI ${detail === '1' ? 'token' : 'tokens'}`.trim();

/**
 * An entry of My activity in words. `product` is the product's display name, `device` the
 * browser, app or machine, `detail` what the kind keeps (an address, a cause, an amount, an action).
 */
export function accountEventText(
  kind: AccountEventKind,
  { product, device, detail }: { product?: string | undefined; device?: string | undefined; detail?: string | null },
): string {
  const on = device ? ` on ${device}` : '';
  const licence = product ?? 'SoundID';
  switch (kind) {
    case 'signed_in':
      return device ? `Signed in from ${device}` : 'Signed in';
    case 'session_ended':
      return device ? `Signed out on ${device}` : 'Signed out';
    case 'password_changed':
      return 'Password changed';
    case 'email_changed':
      return detail ? `Email address changed to ${detail}` : 'Email address changed';
    case 'two_step_on':
      return 'Two-step verification turned on';
    case 'two_step_off':
      return 'Two-step verification turned off';
    case 'passkey_added':
      return detail ? `Passkey “${detail}” added` : 'Passkey added';
    case 'passkey_removed':
      return detail ? `Passkey “${detail}” removed` : 'Passkey removed';
    case 'device_activated':
      return `${licence} activated${on}`;
    case 'device_deactivated':
      return `${licence} deactivated${on}${deactivationCause[detail ?? ''] ?? ''}`;
    case 'device_idle_released':
      return `${licence} released${on}: the device was not used for a long time`;
    case 'device_lost':
      return `${device ?? 'A device'} reported lost or stolen (${licence})`;
    case 'licence_registered':
      return `${licence} license registered`;
    case 'licence_removed':
      return detail === 'refunded'
        ? `${licence} license removed: its purchase was refunded`
        : `${licence} license removed`;
    case 'licence_upgraded':
      return `${licence} license upgraded`;
    case 'licence_passed_on':
      return `${licence} license passed on to another account`;
    case 'licence_received':
      return `${licence} license received from another account`;
    case 'tokens_purchased':
      return `${tokens(detail)} bought`;
    case 'tokens_granted':
      return `${tokens(detail)} added`;
    case 'tokens_refunded':
      return `Voice AI token purchase refunded (${tokens(detail)} taken back)`;
    case 'tokens_withdrawn':
      return `${tokens(detail)} taken back by SoundID`;
    case 'support_action':
      return `SoundID support ${supportActions[detail ?? ''] ?? 'made a change to your account'}`;
    case 'not_me_reported':
      return 'You reported an entry as not yours: every device was signed out and a password reset was emailed';
  }
}
