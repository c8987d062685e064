import { z } from 'zod';
import { loginResultSchema } from './accounts';
import { callBody, emptyBody } from './common';

/**
 * Second factors (ADR 0037): an authenticator app (TOTP, RFC 6238) with single-use recovery
 * codes. The numbers below are the ones authenticator apps expect; changing them breaks every
 * enrolled app.
 */
export const TOTP_PERIOD_SECONDS = 30;
export const TOTP_DIGITS = 6;
/** Codes one step before or after the current one are accepted (clock drift of a phone). */
export const TOTP_TOLERANCE_STEPS = 1;
/** The issuer an authenticator app shows beside the account. */
export const TOTP_ISSUER = 'My SoundID';
export const RECOVERY_CODE_COUNT = 10;
/** Characters of base32 in a recovery code (120 bits), shown in groups of six. */
export const RECOVERY_CODE_LENGTH = 24;
/** A sign-in waiting for its second factor is abandoned after this long. */
export const SIGN_IN_CHALLENGE_MINUTES = 5;

/** Six digits; spaces a customer types from the app's "123 456" display are dropped. */
export const totpCodeSchema = z
  .string()
  .max(20)
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(new RegExp(`^\\d{${TOTP_DIGITS}}$`)));

/**
 * A recovery code as shown (`abcdef-ghijkl-mnopqr-stuvwx`, 24 characters of base32): case,
 * spaces and dashes do not matter.
 */
export const recoveryCodeSchema = z
  .string()
  .max(60)
  .transform((code) => code.toLowerCase().replace(/[\s-]+/g, ''))
  .pipe(z.string().regex(new RegExp(`^[a-z2-7]{${RECOVERY_CODE_LENGTH}}$`)));

/** What a second-factor prompt accepts: a current TOTP code or an unused recovery code. */
export const secondFactorCodeSchema = z.union([totpCodeSchema, recoveryCodeSchema]);

/** The opaque challenge of a sign-in waiting for its second factor; only its hash is looked up. */
export const signInChallengeSchema = z.string().min(1).max(200);

export const secondFactorCalls = {
  /** Starts (or restarts) a setup: a new secret, pending until ConfirmTotpSetup. */
  BeginTotpSetup: emptyBody,
  /** The first code from the app turns TOTP on and answers the recovery codes, once. */
  ConfirmTotpSetup: callBody({ code: totpCodeSchema }),
  /** Turns TOTP off (and drops the recovery codes) with a current code or a recovery code. */
  DisableTotp: callBody({ code: secondFactorCodeSchema }),
  /** New recovery codes replace the old ones; a current code or a recovery code proves presence. */
  RegenerateRecoveryCodes: callBody({ code: secondFactorCodeSchema }),
  /** Whether TOTP is on, and how many recovery codes are left (the profile). */
  GetSecondFactors: emptyBody,
  /** Completes a sign-in that answered SecondFactorRequired: answers as LoginByEmail does. */
  LoginSecondFactor: callBody({
    challenge: signInChallengeSchema,
    code: secondFactorCodeSchema,
    getProfile: z.boolean().optional(),
  }),
} as const;

export const secondFactorResults = {
  LoginSecondFactor: loginResultSchema,
  BeginTotpSetup: z.object({ Secret: z.string(), OtpauthUrl: z.string() }),
  ConfirmTotpSetup: z.object({ RecoveryCodes: z.array(z.string()) }),
  DisableTotp: z.object({}),
  RegenerateRecoveryCodes: z.object({ RecoveryCodes: z.array(z.string()) }),
  GetSecondFactors: z.object({ TotpEnabled: z.boolean(), RecoveryCodesLeft: z.number().int() }),
} as const;

export type SecondFactorCall = keyof typeof secondFactorCalls;
