import { TOKEN_NOTICE_KINDS, type TokenNoticeKind } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { boolean, check, index, integer, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';
import { tokenLots, tokenSpends } from './voice-ai-schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * The customer's choice of voice AI token mails (docs/decisions/0057-token-notices.md). No row:
 * both kinds on, the default threshold (LOW_BALANCE_DEFAULT_THRESHOLD).
 */
export const notificationPreferences = pgTable(
  'notification_preferences',
  {
    userId: uuid('user_id')
      .primaryKey()
      .references(() => users.id, { onDelete: 'cascade' }),
    expiryNotices: boolean('expiry_notices').notNull(),
    lowBalanceNotices: boolean('low_balance_notices').notNull(),
    /** Tokens: a spend from at least this to below it is announced. */
    lowBalanceThreshold: integer('low_balance_threshold').notNull(),
    updatedAt: ts('updated_at').notNull(),
  },
  (t) => [check('notification_preferences_threshold_positive', sql`${t.lowBalanceThreshold} > 0`)],
);

/**
 * One row per notice due: an expiry notice per (lot, kind), a low-balance notice per spend that
 * crossed the threshold. The unique keys make each happen once whichever replica's sweep or
 * spend gets there first; the mail is queued in the transaction that inserted the row, and only
 * for a row inserted (`mailed`: false when the customer had turned that kind off).
 */
export const tokenNotices = pgTable(
  'token_notices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind').$type<TokenNoticeKind>().notNull(),
    /** The lot an expiry notice is about. */
    lotId: uuid('lot_id').references(() => tokenLots.id, { onDelete: 'cascade' }),
    /** The spend that took the balance below the threshold (a low-balance notice). */
    spendId: uuid('spend_id').references(() => tokenSpends.id, { onDelete: 'cascade' }),
    /** The lot's tokens left (expiry), or the balance after the spend (low balance), when it was due. */
    tokens: integer('tokens').notNull(),
    /** The lot's expiry (an expiry notice). */
    expiresAt: ts('expires_at'),
    /** The threshold crossed (a low-balance notice). */
    threshold: integer('threshold'),
    /** Whether a mail was queued: false when the customer had turned the kind off. */
    mailed: boolean('mailed').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('token_notices_lot_kind_key').on(t.lotId, t.kind),
    uniqueIndex('token_notices_spend_key').on(t.spendId),
    index('token_notices_user_idx').on(t.userId, t.createdAt),
    check(
      'token_notices_kind',
      sql`${t.kind} in (${sql.raw(TOKEN_NOTICE_KINDS.map((k) => `'${k}'`).join(', '))}) and (${t.lotId} is not null) = (${t.kind} <> 'low-balance') and (${t.spendId} is not null) = (${t.kind} = 'low-balance')`,
    ),
  ],
);
