import { DEVICE_DEACTIVATION_WINDOW_DAYS } from '@soundid/contracts';
import { and, asc, count, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import type { Queryable, Transaction } from '../../db/client';
import {
  COUNTED_DEACTIVATION_CAUSES,
  type CountedDeactivationCause,
  type DeactivationCause,
  type DeviceRow,
  devices,
  keyDeactivations,
  type LicenceRow,
  type LicenseKeyRow,
  licenseKeys as licenceKeysTable,
  licences,
} from '../../db/licences-schema';
import { addDays } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { allowanceStanding } from './allowance-standing';

/** The queries of the licences feature; every one that reads a customer's rows takes the owner. */

/**
 * A key row, locked when asked. The lock is FOR NO KEY UPDATE: enough to serialise changes of
 * its owner, and it lets a deactivation that holds a licence lock charge the key
 * (key_deactivations references it, which takes FOR KEY SHARE) without a deadlock.
 */
export async function findKeyByValue(db: Queryable, key: string, lock = false): Promise<LicenseKeyRow | undefined> {
  const query = db.select().from(licenceKeysTable).where(eq(licenceKeysTable.key, key)).limit(1);
  const [row] = lock ? await query.for('no key update') : await query;
  return row;
}

/** The customer's key by id, locked like findKeyByValue. */
export async function lockOwnedKey(tx: Transaction, userId: string, keyId: string): Promise<LicenseKeyRow | undefined> {
  const [row] = await tx
    .select()
    .from(licenceKeysTable)
    .where(and(eq(licenceKeysTable.id, keyId), eq(licenceKeysTable.userId, userId)))
    .for('no key update');
  return row;
}

export async function findOwnedKey(db: Queryable, userId: string, keyId: string): Promise<LicenseKeyRow | undefined> {
  const [row] = await db
    .select()
    .from(licenceKeysTable)
    .where(and(eq(licenceKeysTable.id, keyId), eq(licenceKeysTable.userId, userId)))
    .limit(1);
  return row;
}

/**
 * The reads of a customer's whole holdings, with the owner as a placeholder (`userId`): run
 * once each, or prepared once by the licence list (one named statement per query).
 */
const ownerParam = sql.placeholder('userId');

export const keysOfUserQuery = (db: Queryable) =>
  db
    .select()
    .from(licenceKeysTable)
    .where(eq(licenceKeysTable.userId, ownerParam))
    .orderBy(asc(licenceKeysTable.registeredAt), asc(licenceKeysTable.key));

export const licencesOfUserQuery = (db: Queryable) => db.select().from(licences).where(eq(licences.userId, ownerParam));

export const activeDevicesOfUserQuery = (db: Queryable) =>
  db
    .select()
    .from(devices)
    .where(and(eq(devices.userId, ownerParam), isNull(devices.deactivatedAt)))
    .orderBy(asc(devices.activatedAt), asc(devices.id));

export async function keysOfUser(db: Queryable, userId: string): Promise<LicenseKeyRow[]> {
  return keysOfUserQuery(db).execute({ userId });
}

export async function countKeys(db: Queryable, userId: string, productCode: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(licenceKeysTable)
    .where(and(eq(licenceKeysTable.userId, userId), eq(licenceKeysTable.productCode, productCode)));
  return row?.n ?? 0;
}

export async function findLicence(
  db: Queryable,
  userId: string,
  productCode: string,
  lock = false,
): Promise<LicenceRow | undefined> {
  const query = db
    .select()
    .from(licences)
    .where(and(eq(licences.userId, userId), eq(licences.productCode, productCode)))
    .limit(1);
  const [row] = lock ? await query.for('update') : await query;
  return row;
}

export async function lockLicenceById(tx: Transaction, userId: string, id: string): Promise<LicenceRow | undefined> {
  const [row] = await tx
    .select()
    .from(licences)
    .where(and(eq(licences.id, id), eq(licences.userId, userId)))
    .for('update');
  return row;
}

/**
 * The customer's licence of a product, created on first need, and locked: every change to its
 * seats or devices runs after this, one at a time per licence (ASVS 2.3.4).
 */
export async function lockOrCreateLicence(tx: Transaction, userId: string, productCode: string): Promise<LicenceRow> {
  await tx.insert(licences).values({ userId, productCode }).onConflictDoNothing();
  const row = await findLicence(tx, userId, productCode, true);
  if (!row) throw new Error(`licence of ${productCode} vanished`);
  return row;
}

export async function activeDevicesOfLicence(db: Queryable, licenceId: string): Promise<DeviceRow[]> {
  return db
    .select()
    .from(devices)
    .where(and(eq(devices.licenceId, licenceId), isNull(devices.deactivatedAt)))
    .orderBy(asc(devices.activatedAt), asc(devices.id));
}

export async function findActiveDevice(
  db: Queryable,
  userId: string,
  deviceId: string,
): Promise<DeviceRow | undefined> {
  const [row] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.id, deviceId), eq(devices.userId, userId), isNull(devices.deactivatedAt)))
    .limit(1);
  return row;
}

/**
 * A customer's active device and its licence, the licence row locked (every seat change locks it
 * first, ASVS 2.3.4); the device is read again under the lock, as a concurrent change may have
 * ended it. DeviceNotFound for another customer's device or one no longer active.
 */
export async function lockActiveDevice(
  tx: Transaction,
  userId: string,
  deviceId: string,
): Promise<{ device: DeviceRow; licence: LicenceRow }> {
  const found = await findActiveDevice(tx, userId, deviceId);
  const licence = found && (await lockLicenceById(tx, userId, found.licenceId));
  const device = licence && (await findActiveDevice(tx, userId, deviceId));
  if (!licence || !device) throw new Fault('DeviceNotFound');
  return { device, licence };
}

export const isCounted = (cause: DeactivationCause): cause is CountedDeactivationCause =>
  (COUNTED_DEACTIVATION_CAUSES as readonly string[]).includes(cause);

/**
 * The deactivation allowance of a licence at `now`: its counted, unforgiven deactivations in the
 * window (DEVICE_DEACTIVATION_WINDOW_DAYS) ending then, the licence's own and each held key's
 * (a key brings the history it gathered in any licence, so removing and registering it again
 * resets nothing), weighed by allowanceStanding (ADR 0030). The licence service holds `used` to
 * DEVICE_DEACTIVATION_LIMIT; the customer page shows it.
 */
export async function allowanceOf(
  db: Queryable,
  licence: Pick<LicenceRow, 'id' | 'userId' | 'productCode'>,
  now: Date,
): Promise<{ used: number; nextReturnAt: Date | null }> {
  const since = addDays(now, -DEVICE_DEACTIVATION_WINDOW_DAYS);
  const own = await db.select({ at: devices.deactivatedAt }).from(devices).where(countedReleasesOf(licence.id, since));
  const perKey = await db
    .select({ keyId: keyDeactivations.keyId, at: keyDeactivations.deactivatedAt })
    .from(keyDeactivations)
    .innerJoin(licenceKeysTable, eq(licenceKeysTable.id, keyDeactivations.keyId))
    .where(and(heldKeysOf(licence), countedKeyReleasesSince(since)));
  const byKey = new Map<string, Date[]>();
  for (const row of perKey) byKey.set(row.keyId, [...(byKey.get(row.keyId) ?? []), row.at]);
  return allowanceStanding([own.flatMap((row) => (row.at ? [row.at] : [])), ...byKey.values()], now);
}

export async function deactivationsInWindow(
  db: Queryable,
  licence: Pick<LicenceRow, 'id' | 'userId' | 'productCode'>,
  now: Date,
): Promise<number> {
  return (await allowanceOf(db, licence, now)).used;
}

/**
 * Support gives the licence (locked by the caller) its allowance back: the counted deactivations
 * since `since` that allowanceOf reads, the licence's own and those of the keys the
 * customer holds of its product, are marked forgiven. They stay in the history.
 */
export async function forgiveDeactivations(
  db: Queryable,
  licence: Pick<LicenceRow, 'id' | 'userId' | 'productCode'>,
  since: Date,
  at: Date,
): Promise<void> {
  await db.update(devices).set({ forgivenAt: at }).where(countedReleasesOf(licence.id, since));
  const heldKeys = db.select({ id: licenceKeysTable.id }).from(licenceKeysTable).where(heldKeysOf(licence));
  await db
    .update(keyDeactivations)
    .set({ forgivenAt: at })
    .where(and(inArray(keyDeactivations.keyId, heldKeys), countedKeyReleasesSince(since)));
}

/** The licence's own counted deactivations since a moment, not forgiven. */
function countedReleasesOf(licenceId: string, since: Date) {
  return and(
    eq(devices.licenceId, licenceId),
    gt(devices.deactivatedAt, since),
    inArray(devices.deactivationCause, [...COUNTED_DEACTIVATION_CAUSES]),
    isNull(devices.forgivenAt),
  );
}

/** The keys the licence's customer holds of its product. */
function heldKeysOf(licence: Pick<LicenceRow, 'userId' | 'productCode'>) {
  return and(eq(licenceKeysTable.userId, licence.userId), eq(licenceKeysTable.productCode, licence.productCode));
}

/** A key's deactivations since a moment, not forgiven. */
function countedKeyReleasesSince(since: Date) {
  return and(gt(keyDeactivations.deactivatedAt, since), isNull(keyDeactivations.forgivenAt));
}

/**
 * Ends activations of a licence (the caller holds its lock). A counted deactivation is also
 * charged to every key the customer holds of the product, where it stays (ADR 0030).
 */
export async function deactivate(
  db: Queryable,
  licence: Pick<LicenceRow, 'userId' | 'productCode'>,
  deviceIds: string[],
  at: Date,
  cause: DeactivationCause,
): Promise<void> {
  if (deviceIds.length === 0) return;
  const ended = await db
    .update(devices)
    .set({ deactivatedAt: at, deactivationCause: cause })
    .where(and(inArray(devices.id, deviceIds), eq(devices.userId, licence.userId), isNull(devices.deactivatedAt)))
    .returning({ id: devices.id });
  if (ended.length === 0 || !isCounted(cause)) return;
  const keys = await db
    .select({ id: licenceKeysTable.id })
    .from(licenceKeysTable)
    .where(and(eq(licenceKeysTable.userId, licence.userId), eq(licenceKeysTable.productCode, licence.productCode)));
  if (keys.length === 0) return;
  await db
    .insert(keyDeactivations)
    .values(
      keys.flatMap((key) => ended.map((device) => ({ keyId: key.id, deviceId: device.id, deactivatedAt: at, cause }))),
    )
    .onConflictDoNothing();
}

/**
 * Before a customer's account is deleted (its licences and devices go with it): each activation
 * still running is charged to the keys they hold of its product, as a deactivation. Deletion is
 * never refused, but the next owner of a key finds those releases in its history (ADR 0030).
 */
export async function chargeActivationsOfDeletedCustomer(tx: Transaction, userId: string, at: Date): Promise<void> {
  await tx.execute(sql`
    insert into ${keyDeactivations} (key_id, device_id, deactivated_at, cause)
    select k.id, d.id, ${at.toISOString()}::timestamptz, 'account-deleted'
    from ${devices} d
    join ${licences} l on l.id = d.licence_id
    join ${licenceKeysTable} k on k.user_id = l.user_id and k.product_code = l.product_code
    where d.user_id = ${userId} and d.deactivated_at is null
    on conflict do nothing`);
}
