import type { TokenLotCause } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import {
  bigserial,
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
import { users } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A lot of tokens: what one purchase, grant or trial credited. Spending takes from the
 * earliest purchased live lots first; a lot past its expiry is never spent.
 */
export const tokenLots = pgTable(
  'token_lots',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    amount: integer('amount').notNull(),
    remaining: integer('remaining').notNull(),
    /** Tokens taken back by a refund of the payment (ADR 0032); amount = spent + withdrawn + remaining. */
    withdrawn: integer('withdrawn').notNull().default(0),
    /**
     * Tokens taken back by finance (AdminWithdrawTokens, token_withdrawals), not by a refund:
     * amount = spent + withdrawn + financeWithdrawn + remaining.
     */
    financeWithdrawn: integer('finance_withdrawn').notNull().default(0),
    /** When a refund of the payment was first applied; null: never refunded. */
    refundedAt: ts('refunded_at'),
    cause: text('cause').$type<TokenLotCause>().notNull(),
    /** What credited it (payment id, operator grant key): a lot per source, once. */
    sourceRef: text('source_ref').notNull(),
    purchasedAt: ts('purchased_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    /** Credit order: breaks ties between lots purchased in the same millisecond (FIFO). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('token_lots_source_key').on(t.sourceRef),
    index('token_lots_spendable_idx').on(t.userId, t.purchasedAt, t.seq).where(sql`${t.remaining} > 0`),
    index('token_lots_history_idx').on(t.userId, t.purchasedAt, t.seq),
    // The expiry notices' sweep (ADR 0057): lots with tokens left, by expiry (keyset pages).
    index('token_lots_expiry_idx').on(t.expiresAt, t.id).where(sql`${t.remaining} > 0`),
    check('token_lots_remaining_range', sql`${t.remaining} >= 0 and ${t.remaining} <= ${t.amount}`),
    check('token_lots_amount_positive', sql`${t.amount} > 0`),
    check(
      'token_lots_withdrawn_range',
      sql`${t.withdrawn} >= 0 and ${t.financeWithdrawn} >= 0 and ${t.remaining} + ${t.withdrawn} + ${t.financeWithdrawn} <= ${t.amount}`,
    ),
  ],
);

/**
 * Tokens that finance took back from a customer (AdminWithdrawTokens): not a processing request,
 * so never in the usage history; the lots it took from show it (token_lots.finance_withdrawn).
 * The reference makes it happen once, like a grant's.
 */
export const tokenWithdrawals = pgTable(
  'token_withdrawals',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The operator's reference (a ticket), or a random one: a reference withdraws once. */
    reference: text('reference').notNull(),
    amount: integer('amount').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    /** The lots it took from, earliest purchased first, and how much from each. */
    takenFrom: jsonb('taken_from').$type<{ lotId: string; tokens: number }[]>().notNull(),
    withdrawnAt: ts('withdrawn_at').notNull(),
  },
  (t) => [
    uniqueIndex('token_withdrawals_reference_key').on(t.reference),
    index('token_withdrawals_user_idx').on(t.userId, t.withdrawnAt),
    check('token_withdrawals_amount_positive', sql`${t.amount} > 0 and ${t.balanceAfter} >= 0`),
  ],
);

/** One processing request of an app; the request id makes a retry spend nothing more. */
export const tokenSpends = pgTable(
  'token_spends',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    requestId: text('request_id').notNull(),
    /** Thousandths of a second, as the app reported them. */
    millis: integer('millis').notNull(),
    tokens: integer('tokens').notNull(),
    balanceAfter: integer('balance_after').notNull(),
    spentAt: ts('spent_at').notNull(),
    /** Spend order: the usage history keeps the order of jobs made in the same millisecond (ADR 0056). */
    seq: bigserial('seq', { mode: 'number' }).notNull(),
  },
  (t) => [
    uniqueIndex('token_spends_request_key').on(t.userId, t.requestId),
    /** The usage history's pages, one row per job, newest first; the runway's recent spending. */
    index('token_spends_user_idx').on(t.userId, t.spentAt, t.seq),
  ],
);

/** Which lots paid for a spend, and how much each. */
export const tokenSpendAllocations = pgTable(
  'token_spend_allocations',
  {
    /** Sequential: the usage history keeps the order of spends made in the same millisecond. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    spendId: uuid('spend_id')
      .notNull()
      .references(() => tokenSpends.id, { onDelete: 'cascade' }),
    lotId: uuid('lot_id')
      .notNull()
      .references(() => tokenLots.id, { onDelete: 'cascade' }),
    userId: uuid('user_id').notNull(),
    tokens: integer('tokens').notNull(),
    spentAt: ts('spent_at').notNull(),
  },
  (t) => [
    index('token_spend_allocations_user_idx').on(t.userId, t.spentAt),
    index('token_spend_allocations_spend_idx').on(t.spendId),
  ],
);
