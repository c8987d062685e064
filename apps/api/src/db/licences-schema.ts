import type { LicenceTransferState } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { check, index, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';

/**
 * Licences, keys, devices, upgrade codes and campaign serials (ADR 0006). The product
 * catalogue is code (features/licences/catalogue.ts); rows name products by their code.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });
const createdAt = () => ts('created_at').notNull().defaultNow();

export type KeySource = 'issued' | 'upgrade' | 'purchase';

/**
 * An activation key. Unowned until a customer registers it; deleting the customer or
 * removing the licence releases it (user_id back to null) so that it can be registered again.
 */
export const licenseKeys = pgTable(
  'license_keys',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** 24 upper-case alphanumerics, no hyphens (normalizeLicenseKey). */
    key: text('key').notNull(),
    productCode: text('product_code').notNull(),
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    registeredAt: ts('registered_at'),
    /** Set once the key was traded in with an upgrade code (IsUsedForUpgrade). */
    usedForUpgradeAt: ts('used_for_upgrade_at'),
    /** 'issued' by an operator or the seed, 'upgrade' when an upgrade code created it, 'purchase' by a storefront order. */
    source: text('source').$type<KeySource>().notNull().default('issued'),
    /** Set when the purchase of the key was refunded: unowned for good, never registered again. */
    revokedAt: ts('revoked_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('license_keys_key_key').on(t.key),
    index('license_keys_user_idx').on(t.userId, t.productCode),
    /** The operators' search by a key's last group (its last six characters), owned keys only. */
    index('license_keys_ending_idx').on(sql`right(${t.key}, 6)`, t.userId).where(sql`${t.userId} is not null`),
    check('license_keys_key_shape', sql`${t.key} ~ '^[A-Z0-9]{24}$'`),
  ],
);

/**
 * A customer's licence of one product: the seat pool that devices activate against, and the
 * product's trial. Seats come from the customer's keys of the product, or from a live trial.
 * Activations lock this row (SELECT … FOR UPDATE) before counting, so a burst cannot overbook.
 */
export const licences = pgTable(
  'licences',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    productCode: text('product_code').notNull(),
    trialStartedAt: ts('trial_started_at'),
    trialEndsAt: ts('trial_ends_at'),
    /** 'trial' (the product's free trial) or 'campaign' (a claimed serial). */
    trialSource: text('trial_source').$type<'trial' | 'campaign'>(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('licences_user_product_key').on(t.userId, t.productCode)],
);

/**
 * Why an activation ended: by the customer (devices panel), by the app, because the customer
 * removed a key and the seats left could not hold it ('key-removed'), or by the service for a
 * reason of its own ('licence-removed', e.g. a licence revoked). All but the last are counted
 * deactivations (ADR 0030).
 */
/** 'support': ended by an operator (ADR 0044), outside the customer's allowance. */
/** 'lost': reported lost or stolen by the customer (ADR 0050), outside the allowance. */
/** 'idle': released after the product's idle days unseen (ADR 0052), outside the allowance. */
/** 'offline': the app removed its offline licence file and proved it with an .swdeactivate file (ADR 0053), outside the allowance. */
/** 'transferred': the owner passed the key on and the seats left could not hold these (ADR 0054), outside the allowance. */
export const DEACTIVATION_CAUSES = [
  'customer',
  'app',
  'key-removed',
  'licence-removed',
  'support',
  'lost',
  'idle',
  'offline',
  'transferred',
] as const;
export type DeactivationCause = (typeof DEACTIVATION_CAUSES)[number];
export const COUNTED_DEACTIVATION_CAUSES = ['customer', 'app', 'key-removed'] as const satisfies DeactivationCause[];
export type CountedDeactivationCause = (typeof COUNTED_DEACTIVATION_CAUSES)[number];
/** A key's history also records the activations that ended with their customer's account. */
export type KeyDeactivationCause = CountedDeactivationCause | 'account-deleted';

/**
 * One activation of a machine. Deactivation keeps the row (deactivated_at, cause); the counted
 * ones are also charged to the licence's keys (key_deactivations). One active row per machine.
 */
export const devices = pgTable(
  'devices',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    licenceId: uuid('licence_id')
      .notNull()
      .references(() => licences.id, { onDelete: 'cascade' }),
    /** Denormalised owner: every query is scoped by it (ASVS 8.2.2). */
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    machineId: text('machine_id').notNull(),
    name: text('name').notNull(),
    /** 'online' (ActivateDevice) or 'offline' (a signed licence file). */
    method: text('method').$type<'online' | 'offline'>().notNull().default('online'),
    activatedAt: ts('activated_at').notNull(),
    deactivatedAt: ts('deactivated_at'),
    deactivationCause: text('deactivation_cause').$type<DeactivationCause>(),
    /** Set when support gave the allowance back (AdminResetDeactivations): kept, no longer counted. */
    forgivenAt: ts('forgiven_at'),
    /**
     * When the app last activated or checked the licence on it, to DEVICE_SEEN_PRECISION_MINUTES,
     * with what it said of itself (docs/decisions/0049-devices-seen.md). Null until then.
     */
    lastSeenAt: ts('last_seen_at'),
    appVersion: text('app_version'),
    os: text('os'),
  },
  (t) => [
    uniqueIndex('devices_active_machine_key').on(t.licenceId, t.machineId).where(sql`${t.deactivatedAt} is null`),
    index('devices_licence_idx').on(t.licenceId, t.activatedAt),
    index('devices_user_idx').on(t.userId),
    /** The operators' search by device name (any case) and by machine id, customer by customer. */
    index('devices_name_search_idx').on(sql`lower(${t.name})`, t.userId),
    index('devices_machine_search_idx').on(t.machineId, t.userId),
    /** The idle-seat sweep reads only the seats due (docs/decisions/0052-idle-seats.md). */
    index('devices_idle_idx').on(t.lastSeenAt, t.id).where(sql`${t.deactivatedAt} is null and ${t.method} = 'online'`),
  ],
);

/**
 * A machine reported lost or stolen (docs/decisions/0050-lost-or-stolen.md): its activation ended
 * ('lost', not counted) and the machine is refused for the licence while the report stands.
 * Support's undo sets undone_at; a report counts toward LOST_REPORTS_PER_LICENCE until undone.
 */
export const lostMachines = pgTable(
  'lost_machines',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    licenceId: uuid('licence_id')
      .notNull()
      .references(() => licences.id, { onDelete: 'cascade' }),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The activation the report ended. */
    deviceId: uuid('device_id').notNull(),
    machineId: text('machine_id').notNull(),
    reason: text('reason').$type<'lost' | 'stolen'>().notNull(),
    note: text('note'),
    reportedAt: ts('reported_at').notNull(),
    undoneAt: ts('undone_at'),
  },
  (t) => [
    uniqueIndex('lost_machines_standing_key').on(t.licenceId, t.machineId).where(sql`${t.undoneAt} is null`),
    index('lost_machines_licence_idx').on(t.licenceId, t.reportedAt),
    uniqueIndex('lost_machines_device_key').on(t.deviceId),
  ],
);
export type LostMachineRow = typeof lostMachines.$inferSelect;

/**
 * The deactivation history of a key (ADR 0030): one row per counted deactivation made while the
 * key was in a customer's licence. It belongs to the key, so it outlives the key's removal, its
 * registration by another customer and the deletion of the account: a licence's used allowance
 * is the largest of its own count and its keys' counts in the window.
 */
export const keyDeactivations = pgTable(
  'key_deactivations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    /** The device whose activation ended; no reference, so the charge outlives the device row. */
    deviceId: uuid('device_id').notNull(),
    deactivatedAt: ts('deactivated_at').notNull(),
    cause: text('cause').$type<KeyDeactivationCause>().notNull(),
    /** Set when support gave the allowance back (AdminResetDeactivations): kept, no longer counted. */
    forgivenAt: ts('forgiven_at'),
  },
  (t) => [
    uniqueIndex('key_deactivations_key_device_key').on(t.keyId, t.deviceId),
    index('key_deactivations_key_idx').on(t.keyId, t.deactivatedAt),
  ],
);

/**
 * An offer to pass a key on (docs/decisions/0054-licence-transfer.md): from its owner to an
 * e-mail address, by a mailed link whose token is kept only as its hash. One pending offer per
 * key (the partial unique index); accept and cancel lock this row first, so exactly one wins. A
 * pending offer past expires_at is expired: read so, and written so when the key is offered again.
 */
export const licenceTransfers = pgTable(
  'licence_transfers',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    keyId: uuid('key_id')
      .notNull()
      .references(() => licenseKeys.id, { onDelete: 'cascade' }),
    fromUserId: uuid('from_user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** Normalised (trimmed, lower case), as users.email. */
    toEmail: text('to_email').notNull(),
    /** The account that accepted it. */
    toUserId: uuid('to_user_id').references(() => users.id, { onDelete: 'set null' }),
    tokenHash: text('token_hash').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    state: text('state').$type<LicenceTransferState>().notNull().default('pending'),
    /** When it was accepted, cancelled or written expired. */
    resolvedAt: ts('resolved_at'),
  },
  (t) => [
    uniqueIndex('licence_transfers_token_key').on(t.tokenHash),
    uniqueIndex('licence_transfers_pending_key').on(t.keyId).where(sql`${t.state} = 'pending'`),
    index('licence_transfers_key_idx').on(t.keyId, t.resolvedAt),
    index('licence_transfers_from_idx').on(t.fromUserId),
    index('licence_transfers_to_idx').on(t.toUserId),
    /** The open offers to an address (GetIncomingLicenceTransfers, on every Licenses & Devices visit). */
    index('licence_transfers_to_email_idx').on(t.toEmail, t.createdAt).where(sql`${t.state} = 'pending'`),
    check('licence_transfers_state', sql`${t.state} in ('pending', 'accepted', 'cancelled', 'expired')`),
  ],
);
export type LicenceTransferRow = typeof licenceTransfers.$inferSelect;

/** An upgrade code: used once, on a key of one of its source products, for its target product. */
export const upgradeCodes = pgTable(
  'upgrade_codes',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** Trimmed and upper-cased; matched case-insensitively. */
    code: text('code').notNull(),
    targetProductCode: text('target_product_code').notNull(),
    /** The products whose keys this code may upgrade. */
    fromProductCodes: jsonb('from_product_codes').$type<string[]>().notNull(),
    usedAt: ts('used_at'),
    usedByUserId: uuid('used_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    usedOnKeyId: uuid('used_on_key_id').references(() => licenseKeys.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('upgrade_codes_code_key').on(t.code)],
);

/** A monitor serial of a campaign (ADAM Audio 60-day trial): each claims once, ever. */
export const campaignSerials = pgTable(
  'campaign_serials',
  {
    /** Trimmed and upper-cased. */
    serial: text('serial').primaryKey(),
    campaign: text('campaign').notNull(),
    claimedAt: ts('claimed_at'),
    claimedByUserId: uuid('claimed_by_user_id').references(() => users.id, { onDelete: 'set null' }),
    createdAt: createdAt(),
  },
  (t) => [index('campaign_serials_user_idx').on(t.claimedByUserId)],
);

export type LicenseKeyRow = typeof licenseKeys.$inferSelect;
export type LicenceRow = typeof licences.$inferSelect;
export type DeviceRow = typeof devices.$inferSelect;
export type KeyDeactivationRow = typeof keyDeactivations.$inferSelect;
export type UpgradeCodeRow = typeof upgradeCodes.$inferSelect;
