import { ACCOUNT_EVENT_KINDS, type AccountEventKind } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { bigint, bigserial, check, index, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * My activity (docs/decisions/0055-my-activity.md): one row per thing that happened to the
 * account, appended in the transaction of the change it describes. Most rows are written by
 * triggers on the tables that hold the change (migration 0023_account_events: sessions, users,
 * totp_factors, passkeys, devices, license_keys, token_lots, token_withdrawals, audit_entries);
 * a change that leaves no row with its time (a removal) is written by its feature
 * (features/activity/events.ts). Rows are never updated (a trigger refuses it); they go with the
 * account.
 */
export const accountEvents = pgTable(
  'account_events',
  {
    /** Sequential: orders the entries of one instant, and is the entry's public id. */
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The change's own time (the row's clock-set column), so the timeline follows the service's clock. */
    at: ts('at').notNull(),
    kind: text('kind').$type<AccountEventKind>().notNull(),
    /** The product concerned (a licence, a device's activation), by its code. */
    productCode: text('product_code'),
    /** A device's name (devices), or null. */
    device: text('device'),
    /** A session's User-Agent, worded as a device when read. */
    userAgent: text('user_agent'),
    ip: text('ip'),
    /** What the kind keeps: the new address, a deactivation cause, an amount, a passkey's name, support's action. */
    detail: text('detail'),
    /** A not_me_reported's entry: each entry is reported once (the unique index). */
    reportedEventId: bigint('reported_event_id', { mode: 'number' }),
  },
  (t) => [
    index('account_events_user_idx').on(t.userId, t.at.desc(), t.id.desc()),
    uniqueIndex('account_events_reported_key').on(t.reportedEventId),
    check('account_events_kind', sql.raw(`kind in (${ACCOUNT_EVENT_KINDS.map((kind) => `'${kind}'`).join(', ')})`)),
  ],
);
export type AccountEventRow = typeof accountEvents.$inferSelect;
