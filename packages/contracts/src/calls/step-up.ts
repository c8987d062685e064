import { z } from 'zod';
import { emptyBody } from './common';
import { passkeyAuthenticationResponseSchema } from './passkeys';
import { totpCodeSchema } from './second-factor';

/**
 * Step-up (ADR 0040): what matters (an e-mail change, a password set without an old one, the
 * account's deletion, second-factor changes, ending the other sessions) needs a proof of presence
 * no older than this. A sign-in with a password, a passkey or a second factor is one; so is a
 * StepUp call. ASVS 6.1.1 / 7.5.1 (re-authentication before sensitive changes).
 */
export const STEP_UP_WINDOW_MINUTES = 10;
/** A code mailed to prove presence (accounts without a password) lives this long. */
export const STEP_UP_CODE_MINUTES = 10;
export const STEP_UP_CODE_DIGITS = 6;
/** Wrong tries a mailed code survives; the next try needs a new code. */
export const STEP_UP_CODE_ATTEMPTS = 5;

/**
 * The ways to prove presence: the password, a code from the authenticator app, a passkey, or
 * for an account without a password a code mailed to its address.
 */
export const STEP_UP_METHODS = ['Password', 'Totp', 'Passkey', 'EmailCode'] as const;
export type StepUpMethod = (typeof STEP_UP_METHODS)[number];

/** A mailed step-up code: six digits, spaces dropped. */
export const stepUpEmailCodeSchema = z
  .string()
  .max(20)
  .transform((code) => code.replace(/\s+/g, ''))
  .pipe(z.string().regex(new RegExp(`^\\d{${STEP_UP_CODE_DIGITS}}$`)));

/** One proof, named by its method. */
export const stepUpProofSchema = z.discriminatedUnion('method', [
  z.strictObject({
    method: z.literal('Password'),
    password: z.string().min(1).max(1024),
    silent: z.boolean().optional(),
  }),
  z.strictObject({ method: z.literal('Totp'), code: totpCodeSchema, silent: z.boolean().optional() }),
  z.strictObject({
    method: z.literal('Passkey'),
    challengeId: z.uuid(),
    response: passkeyAuthenticationResponseSchema,
    silent: z.boolean().optional(),
  }),
  z.strictObject({ method: z.literal('EmailCode'), code: stepUpEmailCodeSchema, silent: z.boolean().optional() }),
]);
export type StepUpProof = z.infer<typeof stepUpProofSchema>;

/** A proof of a kind the account does not have (the SPA offers only the account's Methods). */
export const STEP_UP_METHOD_UNAVAILABLE = "This way of confirming it's you is not set up for your account.";

export const stepUpCalls = {
  /** The ways this account can prove presence, and until when the current proof holds. */
  GetStepUpMethods: emptyBody,
  /** Options for navigator.credentials.get with this account's passkeys only. */
  BeginStepUpPasskey: emptyBody,
  /** Mails a code to an account without a password (counted as any mail to its mailbox). */
  SendStepUpCode: emptyBody,
  /** Proves presence for this session: what needs step-up works for STEP_UP_WINDOW_MINUTES. */
  StepUp: stepUpProofSchema,
} as const;

const provenUntil = z.string().nullable();

export const stepUpResults = {
  GetStepUpMethods: z.object({ Methods: z.array(z.enum(STEP_UP_METHODS)), ProvenUntil: provenUntil }),
  BeginStepUpPasskey: z.object({ ChallengeId: z.string(), Options: z.record(z.string(), z.unknown()) }),
  SendStepUpCode: z.object({}),
  StepUp: z.object({ ProvenUntil: z.string() }),
} as const;

export type StepUpCall = keyof typeof stepUpCalls;
