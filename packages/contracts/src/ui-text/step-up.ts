import type { StepUpMethod } from '../calls/step-up';

/** The step-up dialog (ADR 0040): a proof of presence asked for in place, then the action goes on. */
export const stepUpText = {
  heading: 'Confirm it’s you',
  intro: 'For your security, please confirm it’s you. Then we will finish what you started.',
  passwordLabel: 'Password',
  codeLabel: 'Code from your authenticator app',
  emailCodeLabel: 'Code from the email',
  usePasskey: 'Use a passkey',
  passkeyCancelled: 'The passkey was not used. Please try again, or confirm another way.',
  sendCode: 'Email me a code',
  sendAgain: 'Send a new code',
  codeSent: (email: string) => `We sent a 6-digit code to ${email}. It works for 10 minutes.`,
  confirm: 'Confirm',
  otherWays: 'Or confirm another way:',
  noWay: 'There is no way to confirm it’s you on this account. Please sign out and sign in again.',
  methodNames: {
    Password: 'Password',
    Totp: 'Authenticator app',
    Passkey: 'Passkey',
    EmailCode: 'Code by email',
  } satisfies Record<StepUpMethod, string>,
} as const;
