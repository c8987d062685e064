import { z } from 'zod';
import { loginResultSchema } from './accounts';
import { callBody, emptyBody } from './common';
import { signInChallengeSchema } from './second-factor';

/**
 * Passkeys (WebAuthn, ADR 0039): discoverable credentials that sign in without an e-mail and,
 * verified by the device (PIN, fingerprint, face), count as both factors.
 */
/** A registration or sign-in ceremony's challenge is abandoned after this long. */
export const PASSKEY_CHALLENGE_MINUTES = 5;
/** The passkeys one account may hold. */
export const PASSKEY_MAX_PER_ACCOUNT = 20;
export const PASSKEY_NAME_MAX_LENGTH = 64;

/** A passkey's name as the customer types it: trimmed, not empty. */
export const passkeyNameSchema = z.string().trim().min(1).max(PASSKEY_NAME_MAX_LENGTH);

/**
 * A browser's WebAuthn answer (the JSON of @simplewebauthn/browser): bounded here, checked by
 * the service's verifier. Fields are base64url strings.
 */
const b64 = z.string().max(16_384);
const clientExtensions = z.record(z.string(), z.unknown());
export const passkeyRegistrationResponseSchema = z.object({
  id: z.string().max(1_400),
  rawId: z.string().max(1_400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64,
    attestationObject: b64,
    authenticatorData: b64.optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64.optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: clientExtensions,
});
export const passkeyAuthenticationResponseSchema = z.object({
  id: z.string().max(1_400),
  rawId: z.string().max(1_400),
  type: z.literal('public-key'),
  response: z.object({
    clientDataJSON: b64,
    authenticatorData: b64,
    signature: b64,
    userHandle: z.string().max(200).optional(),
  }),
  authenticatorAttachment: z.enum(['platform', 'cross-platform']).optional(),
  clientExtensionResults: clientExtensions,
});

/** A passkey row's id (not the credential id: that never leaves the service after registration). */
const passkeyIdSchema = z.uuid();

export const passkeyCalls = {
  /** The signed-in customer's passkeys, newest first. */
  ListPasskeys: emptyBody,
  /** Options for navigator.credentials.create (a discoverable credential, user verification required). */
  BeginPasskeyRegistration: emptyBody,
  /** The authenticator's answer: the passkey, named `name` or after the authenticator. */
  FinishPasskeyRegistration: callBody({
    response: passkeyRegistrationResponseSchema,
    name: passkeyNameSchema.optional(),
  }),
  RenamePasskey: callBody({ id: passkeyIdSchema, name: passkeyNameSchema }),
  RemovePasskey: callBody({ id: passkeyIdSchema }),
  /**
   * Anonymous: options for navigator.credentials.get and the id of the stored challenge. With
   * `signInChallenge` (a SecondFactorRequired answer's Challenge) only that account's passkeys
   * are offered, and the passkey completes that sign-in.
   */
  BeginPasskeyLogin: callBody({ signInChallenge: signInChallengeSchema.optional() }),
  /** Signs in as LoginByEmail does (Token for API clients, the session cookie for browsers). */
  FinishPasskeyLogin: callBody({
    challengeId: z.uuid(),
    response: passkeyAuthenticationResponseSchema,
    keepMeSignedIn: z.boolean().optional(),
    getProfile: z.boolean().optional(),
  }),
} as const;

export const passkeySchema = z.object({
  Id: z.string(),
  Name: z.string(),
  CreatedAt: z.string(),
  LastUsedAt: z.string().nullable(),
  /** Synced by its provider (iCloud Keychain, Google Password Manager, …): survives a lost device. */
  BackedUp: z.boolean(),
});
export type Passkey = z.infer<typeof passkeySchema>;

export const passkeyResults = {
  ListPasskeys: z.object({ Passkeys: z.array(passkeySchema) }),
  BeginPasskeyRegistration: z.object({ Options: z.record(z.string(), z.unknown()) }),
  FinishPasskeyRegistration: z.object({ Passkey: passkeySchema }),
  RenamePasskey: z.object({ Passkey: passkeySchema }),
  RemovePasskey: z.object({}),
  BeginPasskeyLogin: z.object({ ChallengeId: z.string(), Options: z.record(z.string(), z.unknown()) }),
  FinishPasskeyLogin: loginResultSchema,
} as const;

export type PasskeyCall = keyof typeof passkeyCalls;
