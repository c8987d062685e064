import { bigint, bigserial, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

/**
 * The back office's own accounts (ADR 0044), apart from the customers': invited by an admin,
 * active once a password and an authenticator app are set, never deleted (the audit trail
 * names them), disabled instead.
 */
export const operators = pgTable(
  'operators',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Lower-cased and trimmed. */
    email: text('email').notNull(),
    name: text('name').notNull(),
    /** Sorted role names (support, finance, admin). */
    roles: text('roles').array().notNull(),
    passwordHash: text('password_hash'),
    /** The authenticator secret, sealed like a customer's (ADR 0037); set when the invitation is accepted. */
    sealedTotpSecret: text('sealed_totp_secret'),
    /** The last time step a code was accepted for: a code is never accepted twice. */
    totpLastStep: bigint('totp_last_step', { mode: 'number' }),
    /** The SHA-256 of the invitation link's token, until the invitation is confirmed. */
    invitationHash: text('invitation_hash'),
    invitationExpiresAt: ts('invitation_expires_at'),
    invitedBy: uuid('invited_by'),
    createdAt: createdAt(),
    activatedAt: ts('activated_at'),
    disabledAt: ts('disabled_at'),
    lastSignInAt: ts('last_sign_in_at'),
  },
  (t) => [uniqueIndex('operators_email_key').on(t.email), uniqueIndex('operators_invitation_key').on(t.invitationHash)],
);

/**
 * An operator's credentials in use: a console session (cookie; idle and absolute timeouts), a
 * sign-in waiting for its authenticator code, or a personal API token (the CLI; scoped and
 * expiring). Only the SHA-256 of each secret is kept.
 */
export const operatorCredentials = pgTable(
  'operator_credentials',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    operatorId: uuid('operator_id')
      .notNull()
      .references(() => operators.id),
    kind: text('kind', { enum: ['session', 'challenge', 'api-token'] }).notNull(),
    secretHash: text('secret_hash').notNull(),
    /** An API token's name, chosen by its operator. */
    name: text('name'),
    /** An API token's scope: 'read' or 'write'; sessions act with the operator's roles. */
    scope: text('scope', { enum: ['read', 'write'] })
      .notNull()
      .default('write'),
    createdAt: createdAt(),
    lastSeenAt: ts('last_seen_at').notNull().defaultNow(),
    expiresAt: ts('expires_at').notNull(),
    revokedAt: ts('revoked_at'),
    ip: text('ip'),
    userAgent: text('user_agent'),
  },
  (t) => [
    uniqueIndex('operator_credentials_secret_key').on(t.secretHash),
    index('operator_credentials_operator_idx').on(t.operatorId, t.kind),
  ],
);

/**
 * The audit trail (ADR 0045): append-only (a trigger refuses UPDATE and DELETE), every entry
 * chained to the one before by an HMAC over its content and the previous entry's hash, so an
 * edited, deleted or reordered entry breaks the chain from that entry on.
 */
export const auditEntries = pgTable(
  'audit_entries',
  {
    seq: bigserial('seq', { mode: 'number' }).primaryKey(),
    at: ts('at').notNull(),
    operatorId: uuid('operator_id').references(() => operators.id),
    /** The operator's address at the time (the bootstrap token: null). */
    operatorEmail: text('operator_email'),
    roles: text('roles').array().notNull(),
    action: text('action').notNull(),
    outcome: text('outcome', { enum: ['done', 'denied'] }).notNull(),
    targetType: text('target_type'),
    targetId: text('target_id'),
    /** The customer concerned, for the customer page's entries (kept if the account goes). */
    customerId: uuid('customer_id'),
    customerEmail: text('customer_email'),
    before: jsonb('before'),
    after: jsonb('after'),
    reason: text('reason'),
    requestId: text('request_id'),
    ip: text('ip'),
    prevHash: text('prev_hash').notNull(),
    hash: text('hash').notNull(),
  },
  (t) => [
    index('audit_entries_operator_idx').on(t.operatorId, t.seq),
    index('audit_entries_customer_idx').on(t.customerId, t.seq),
    index('audit_entries_action_idx').on(t.action, t.seq),
    index('audit_entries_at_idx').on(t.at),
  ],
);
