import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow();
const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const users = pgTable(
  'users',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased and trimmed: one account per address. */
    email: text('email').notNull(),
    emailVerifiedAt: ts('email_verified_at'),
    /** Null for accounts created through a social provider until a password is set. */
    passwordHash: text('password_hash'),
    addressLine1: text('address_line1').notNull().default(''),
    city: text('city').notNull().default(''),
    state: text('state').notNull().default(''),
    postalCode: text('postal_code').notNull().default(''),
    country: text('country').notNull().default(''),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    /**
     * Until when ChangeEmail and VerifyEmailChange are refused: set when the customer reports a
     * sign-in as not theirs (ADR 0041).
     */
    emailChangeFrozenUntil: ts('email_change_frozen_until'),
    /**
     * Until when StartLicenceTransfer and AcceptLicenceTransfer answer AccountFrozen: set with
     * emailChangeFrozenUntil by every "This wasn't me" (docs/decisions/0055-my-activity.md).
     */
    licenceTransfersFrozenUntil: ts('licence_transfers_frozen_until'),
  },
  (t) => [
    uniqueIndex('users_email_key').on(t.email),
    /**
     * The operators' search by e-mail prefix (docs/api.md, Operators): `email LIKE 'q%'` ordered
     * by the same operator class, whatever the database's collation.
     */
    index('users_email_prefix_idx').on(t.email.op('text_pattern_ops')),
  ],
);

/** A signed-in session; the JWT names it by id so that it can be revoked. */
export const sessions = pgTable(
  'sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    keepMeSignedIn: boolean('keep_me_signed_in').notNull(),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    userAgent: text('user_agent'),
    ip: text('ip'),
    /**
     * The last proof of presence in this session (ADR 0040): the sign-in itself, or a StepUp.
     * Null for a session handed over by a desktop app's link, which proved nothing in this browser.
     */
    provenAt: ts('proven_at'),
  },
  (t) => [index('sessions_user_idx').on(t.userId)],
);

/**
 * A browser or desktop app that has signed in to the account (ADR 0041). `deviceHash` is the
 * SHA-256 of the account id with the browser's device cookie, or with an app's user-agent
 * family and network: the same browser has unrelated hashes on two accounts, and the cookie
 * itself is never stored. A sign-in from a hash not yet here mails the customer.
 */
export const seenDevices = pgTable(
  'seen_devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    deviceHash: text('device_hash').notNull(),
    /** 'browser' (a device cookie) or 'app' (user-agent family and network). */
    kind: text('kind').$type<'browser' | 'app'>().notNull(),
    /** "Chrome on Windows", "SoundID Reference on macOS": from the User-Agent or Software header. */
    label: text('label').notNull(),
    firstSeenAt: ts('first_seen_at').notNull(),
    lastSeenAt: ts('last_seen_at').notNull(),
    lastIp: text('last_ip'),
    /** Sign-ins from this device; 1 in the statement that first saw it. */
    signIns: integer('sign_ins').notNull().default(1),
  },
  (t) => [uniqueIndex('seen_devices_user_device_key').on(t.userId, t.deviceHash)],
);

export const ACTION_TOKEN_KINDS = [
  'verify_email',
  'email_change',
  'password_reset',
  'account_deletion',
  'app_login',
  'web_login',
  'sign_in_report',
] as const;
export type ActionTokenKind = (typeof ACTION_TOKEN_KINDS)[number];

/** Single-use tokens sent in mails and deeplinks; only their SHA-256 is stored. */
export const actionTokens = pgTable(
  'action_tokens',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull(),
    kind: text('kind').$type<ActionTokenKind>().notNull(),
    /** Kept after the account is deleted, so that a second click says "already deleted". */
    userId: uuid('user_id'),
    /** The new address of an e-mail change. */
    newEmail: text('new_email'),
    /** The device a sign-in report ("This wasn't me") is about (ADR 0041). */
    seenDeviceId: uuid('seen_device_id').references(() => seenDevices.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
    expiresAt: ts('expires_at').notNull(),
    usedAt: ts('used_at'),
  },
  (t) => [uniqueIndex('action_tokens_hash_key').on(t.tokenHash), index('action_tokens_user_idx').on(t.userId, t.kind)],
);

/** A provider identity linked to an account: matched by provider and subject, not e-mail alone. */
export const socialAccounts = pgTable(
  'social_accounts',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    provider: text('provider').notNull(),
    subject: text('subject').notNull(),
    email: text('email'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('social_accounts_provider_subject_key').on(t.provider, t.subject),
    index('social_accounts_user_idx').on(t.userId),
  ],
);

/**
 * Attempt counters shared by every replica (sign-in lockout, e-mail change limit).
 * One row per (scope, key); the window restarts when it has passed.
 */
export const attemptCounters = pgTable(
  'attempt_counters',
  {
    scope: text('scope').notNull(),
    key: text('key').notNull(),
    count: integer('count').notNull().default(0),
    windowStartedAt: ts('window_started_at').notNull(),
    lockedUntil: ts('locked_until'),
  },
  (t) => [uniqueIndex('attempt_counters_pk').on(t.scope, t.key)],
);

/** A file of a mail in the dev outbox. */
export interface DevMailAttachment {
  fileName: string;
  contentType: string;
  contentBase64: string;
}

/**
 * The dev outbox: every mail in full (bodies, links) when no SMTP server is configured, for the
 * dev mailbox. With SMTP nothing is written here; the record of each mail is `mail_log`.
 */

export const mailOutbox = pgTable(
  'mail_outbox',
  {
    /** Sequential, so that the mailbox lists newest first even when the clock stands still. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to_address').notNull(),
    /**
     * The account the mail is about, whatever its address then (ADR 0038: the data export lists
     * a customer's mails by it, also those to an address changed since); null for a mail about no
     * account (a storefront licence mailed to an address without one). No reference: the receipt
     * of a deletion is about an account already gone.
     */
    userId: uuid('user_id'),
    subject: text('subject').notNull(),
    text: text('text_body').notNull(),
    html: text('html_body').notNull(),
    links: jsonb('links').$type<string[]>().notNull().default(sql`'[]'::jsonb`),
    /** The files sent with the mail (a receipt, ADR 0058), as the dev mailbox serves them. */
    attachments: jsonb('attachments').$type<DevMailAttachment[]>().notNull().default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    sentAt: ts('sent_at'),
  },
  (t) => [index('mail_outbox_to_idx').on(t.to, t.id), index('mail_outbox_user_idx').on(t.userId, t.id)],
);

/** What became of a mail: the transport took it (SMTP, or the dev outbox), or refused it. */
export const MAIL_OUTCOMES = ['sent', 'failed'] as const;
export type MailOutcome = (typeof MAIL_OUTCOMES)[number];

/**
 * The record of every mail the service sends, in production too (ADR 0038, revision "a record of
 * every mail"): to whom, about which account, the subject, when, and the outcome. Never the
 * bodies or the links (the links carry live single-use tokens): there is no column for them.
 * Kept MAIL_LOG_RETENTION_DAYS days (mail-log.ts deletes older rows).
 */
export const mailLog = pgTable(
  'mail_log',
  {
    /** Sequential: the export lists the mails in the order they were sent. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    to: text('to_address').notNull(),
    /** The account the mail is about, as `mail_outbox.user_id` (no reference: see there). */
    userId: uuid('user_id'),
    subject: text('subject').notNull(),
    outcome: text('outcome').$type<MailOutcome>().notNull(),
    /** A short reason the transport gave (an SMTP reply, an error code); null when sent. */
    failure: text('failure'),
    /** When the mail was composed and handed to the transport. */
    createdAt: createdAt(),
    /** When the transport took it; null when it failed. */
    sentAt: ts('sent_at'),
  },
  (t) => [
    index('mail_log_user_idx').on(t.userId, t.id),
    index('mail_log_to_idx').on(t.to, t.id),
    index('mail_log_created_idx').on(t.createdAt),
    check('mail_log_outcome', sql`${t.outcome} in ('sent', 'failed')`),
    check(
      'mail_log_outcome_fields',
      sql`(${t.outcome} = 'sent' and ${t.sentAt} is not null and ${t.failure} is null) or (${t.outcome} = 'failed' and ${t.sentAt} is null and ${t.failure} is not null)`,
    ),
    check('mail_log_failure_short', sql`char_length(${t.failure}) <= 200`),
  ],
);
