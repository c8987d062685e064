import { z } from 'zod';
import { actionTokenSchema, callBody } from './common';

/**
 * New-device alerts (ADR 0041): a sign-in from a browser or desktop app the account has not seen
 * mails the customer, with a "This wasn't me" link that ends every session, starts a password
 * reset and freezes e-mail changes. Its constants are in constants.ts.
 */

export const signInAlertCalls = {
  /**
   * "This wasn't me": the link's token of a new-device mail. Ends every session, forgets the
   * reported device, stops the password, mails a reset link and freezes e-mail changes.
   */
  ReportSignIn: callBody({ token: actionTokenSchema }),
} as const;

export const signInAlertResults = {
  /** `EmailChangesFrozenUntil`: epoch ms. */
  ReportSignIn: z.object({ EmailChangesFrozenUntil: z.number() }),
} as const;
