import { bigint, boolean, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';

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
