import { and, eq, isNotNull, isNull, lt, or, type SQLWrapper } from 'drizzle-orm';
import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { sessions, users } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

/**
 * An authenticator app's shared secret (ADR 0037): sealed with the service's data key, pending
 * until the first code confirms it. One per account; a new setup replaces a pending one.
 */
export const totpFactors = pgTable('totp_factors', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  sealedSecret: text('sealed_secret').notNull(),
  createdAt: createdAt(),
  confirmedAt: ts('confirmed_at'),
  /** The last time step a code was accepted for: a code is never accepted twice (replay). */
  lastUsedStep: bigint('last_used_step', { mode: 'number' }),
});

/** The account's authenticator, turned on (confirmed by a first code): the one rule for "has TOTP". */
export const totpEnabledFor = (userId: string | SQLWrapper) =>
  and(eq(totpFactors.userId, userId), isNotNull(totpFactors.confirmedAt));

/** A code's time step may be accepted only past the last accepted one: a code is never used twice. */
export const totpStepIsNew = (step: number) => or(isNull(totpFactors.lastUsedStep), lt(totpFactors.lastUsedStep, step));

/** Single-use recovery codes, stored as their SHA-256 (they are random, 120 bits each). */
export const recoveryCodes = pgTable(
  'recovery_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    codeHash: text('code_hash').notNull(),
    createdAt: createdAt(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('recovery_codes_user_hash_key').on(t.userId, t.codeHash)],
);

/**
 * A sign-in that passed its first factor and waits for the second: single-use, short-lived,
 * stored as the SHA-256 of the challenge the client holds.
 */
export const signInChallenges = pgTable(
  'sign_in_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    challengeHash: text('challenge_hash').notNull(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keepMeSignedIn: boolean('keep_me_signed_in').notNull(),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [
    uniqueIndex('sign_in_challenges_hash_key').on(t.challengeHash),
    index('sign_in_challenges_user_idx').on(t.userId),
  ],
);

/**
 * A passkey (WebAuthn credential, ADR 0039): its public key and the authenticator's state. The
 * signature counter refuses a cloned authenticator; the backup flags tell a synced passkey.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The credential id, base64url, as the authenticator gives it back in every assertion. */
    credentialId: text('credential_id').notNull(),
    /** The COSE public key, base64url. */
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports').array().notNull().default([]),
    aaguid: text('aaguid').notNull(),
    /** 'singleDevice' or 'multiDevice' (backup eligible). */
    deviceType: text('device_type').notNull(),
    backedUp: boolean('backed_up').notNull(),
    name: text('name').notNull(),
    createdAt: createdAt(),
    lastUsedAt: ts('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_id_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

/**
 * A WebAuthn ceremony under way: the SHA-256 of its challenge, single-use, 5 minutes. A
 * registration belongs to the signed-in customer; a sign-in is anonymous, or bound to the
 * account of a sign-in waiting for its second factor (`signInChallengeId`).
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    challengeHash: text('challenge_hash').notNull(),
    /** 'register' or 'login'. */
    purpose: text('purpose').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'cascade' }),
    signInChallengeId: uuid('sign_in_challenge_id').references(() => signInChallenges.id, { onDelete: 'cascade' }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [
    uniqueIndex('passkey_challenges_hash_key').on(t.challengeHash),
    index('passkey_challenges_expiry_idx').on(t.expiresAt),
  ],
);

/**
 * A code mailed to prove presence in one session (ADR 0040), for accounts without a password:
 * stored as its SHA-256, short-lived, and burnt after a few wrong tries.
 */
export const stepUpCodes = pgTable('step_up_codes', {
  sessionId: uuid('session_id')
    .primaryKey()
    .references(() => sessions.id, { onDelete: 'cascade' }),
  userId: uuid('user_id')
    .notNull()
    .references(() => users.id, { onDelete: 'cascade' }),
  codeHash: text('code_hash').notNull(),
  createdAt: createdAt(),
  expiresAt: ts('expires_at').notNull(),
  attempts: integer('attempts').notNull().default(0),
});
