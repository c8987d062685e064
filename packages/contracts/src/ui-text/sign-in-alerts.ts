import { PASSWORD_RESET_LINK_VALIDITY_HOURS } from '../constants';

// The page a new-device mail's "This wasn't me" link opens (ADR 0041): apart from core.ts so
// that only that page loads them (ADR 0020).

export const signInReportText = {
  working: 'Securing your account…',
  doneIntro: 'Thank you for telling us. Your account is safe again:',
  signedOut: 'Every device signed in to your account has been signed out.',
  passwordStopped: `Your password no longer works. We have emailed you a link to choose a new one; it is valid for ${PASSWORD_RESET_LINK_VALIDITY_HOURS} ${PASSWORD_RESET_LINK_VALIDITY_HOURS === 1 ? 'hour' : 'hours'}.`,
  emailFrozen: (until: string) => `Your email address cannot be changed until ${until}.`,
  checkFactors:
    'Once you are signed in again, check the passkeys and two-step verification on your profile and remove any you do not recognize.',
  linkInvalid:
    'This link is invalid, has expired or has already been used. If a sign-in still looks unfamiliar, reset your password.',
  resetPassword: 'Reset password',
} as const;
