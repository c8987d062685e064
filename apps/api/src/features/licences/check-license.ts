import { DEVICE_SEEN_PRECISION_MINUTES } from '@soundid/contracts';
import { type AnyColumn, and, count, eq, isNull, lt, or, type SQL, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { devices, licences, licenseKeys, lostMachines } from '../../db/licences-schema';
import { sessions } from '../../db/schema';
import { tokenLots } from '../../db/voice-ai-schema';
import { addMinutes } from '../../lib/clock';
import { sessionParams, sessionStateFields } from '../accounts/sessions';
import { spendableLotsOf } from '../tokens/ledger';
import { standingReport } from './lost-machines';

const param = <T>(name: string) => sql.placeholder(name) as unknown as T;
const userId = param<string>('userId');
const productCode = param<string>('productCode');
const machineId = param<string>('machineId');

/** The customer's licence of the product (at most one: unique on user and product). */
const licenceId = sql`(select ${licences.id} from ${licences} where ${licences.userId} = ${userId} and ${licences.productCode} = ${productCode})`;

/** The app's own fields: a value sent replaces the stored one, none sent keeps it. */
const sent = (name: string) => sql`${sql.placeholder(name)}::text`;
const changed = (column: AnyColumn, name: string) =>
  sql`(${sent(name)} is not null and ${column} is distinct from ${sent(name)})`;

/**
 * CheckLicense's whole read, and the machine recorded as seen, in one statement
 * (docs/decisions/0049-devices-seen.md): a data-modifying CTE writes `last_seen_at` (and the app's
 * version and OS) only when the stored time is older than DEVICE_SEEN_PRECISION_MINUTES or what
 * the app says of itself changed, so most checks write nothing; the SELECT reads the snapshot
 * before it, which the write does not change (the device's id and the active count).
 * The token balance is read only for a product paid with tokens (`paysWithTokens`).
 */
/** The check's CTE and columns; `live` guards the seen write (the session-scoped read's session). */
const checkParts = (db: Database, live: SQL) => {
  const seen = db.$with('seen').as(
    db
      .update(devices)
      .set({
        lastSeenAt: sql`${sql.placeholder('now')}::timestamptz`,
        appVersion: sql`coalesce(${sent('appVersion')}, ${devices.appVersion})`,
        os: sql`coalesce(${sent('os')}, ${devices.os})`,
      })
      .where(
        and(
          eq(devices.licenceId, licenceId),
          eq(devices.machineId, machineId),
          isNull(devices.deactivatedAt),
          or(
            isNull(devices.lastSeenAt),
            lt(devices.lastSeenAt, sql`${sql.placeholder('seenBefore')}::timestamptz`),
            changed(devices.appVersion, 'appVersion'),
            changed(devices.os, 'os'),
          ),
          live,
        ),
      )
      .returning({ id: devices.id }),
  );
  const active = and(eq(devices.licenceId, licenceId), isNull(devices.deactivatedAt));
  return {
    seen,
    fields: {
      trialEndsAt: sql<
        Date | string | null
      >`(select ${licences.trialEndsAt} from ${licences} where ${licences.userId} = ${userId} and ${licences.productCode} = ${productCode})`,
      keyCount: sql<number>`(${db
        .select({ n: count() })
        .from(licenseKeys)
        .where(and(eq(licenseKeys.userId, userId), eq(licenseKeys.productCode, productCode)))})`.mapWith(Number),
      deviceId: sql<string | null>`(${db
        .select({ id: devices.id })
        .from(devices)
        .where(and(active, eq(devices.machineId, machineId)))})`,
      activeCount: sql<number>`(${db.select({ n: count() }).from(devices).where(active)})`.mapWith(Number),
      // Reported lost or stolen (docs/decisions/0050-lost-or-stolen.md): refused, with its own fault.
      lost: sql<boolean>`exists (${db
        .select({ one: sql`1` })
        .from(lostMachines)
        .where(standingReport(licenceId, machineId))})`,
      tokenBalance: sql<string | number | null>`case when ${sql.placeholder('paysWithTokens')}::boolean then (${db
        .select({ total: sql`coalesce(sum(${tokenLots.remaining}), 0)` })
        .from(tokenLots)
        .where(spendableLotsOf(userId, sql.placeholder('now')))}) end`,
    },
  };
};

/**
 * CheckLicense's read with the session row of the caller's token, for `requireSessionWith`: the
 * session check and the licence check in one round trip, as the licence list does
 * (docs/decisions/0018-signed-in-reads-and-scale-benchmarks.md). The session is checked in code
 * once the row is read; the seen write happens only for a session that is not revoked or past its
 * lifetime, so a dead token never keeps a machine seen (ADR 0052 reads that time).
 */
export const checkLicenseSessionQuery = (db: Database) => {
  const live = sql`exists (select 1 from ${sessions} where ${sessions.id} = ${sessionParams.sid} and ${sessions.userId} = ${sessionParams.sub} and ${sessions.revokedAt} is null and ${sessions.expiresAt} > ${sql.placeholder('now')}::timestamptz)`;
  const { seen, fields } = checkParts(db, live);
  return db
    .with(seen)
    .select({ ...sessionStateFields, ...fields })
    .from(sessions)
    .where(and(eq(sessions.id, sessionParams.sid), eq(sessions.userId, sessionParams.sub)))
    .prepare('check_license_session');
};

export type CheckLicenseSessionQuery = ReturnType<typeof checkLicenseSessionQuery>;
export type CheckLicenseRow = Awaited<ReturnType<CheckLicenseSessionQuery['execute']>>[number];

/** The parameters of one check: `seenBefore` is how stale a last-seen time may be before it is written again. */
export function checkLicenseParams(input: {
  userId: string;
  productCode: string;
  paysWithTokens: boolean;
  machineId: string;
  appVersion?: string | undefined;
  os?: string | undefined;
  now: Date;
}) {
  return {
    userId: input.userId,
    productCode: input.productCode,
    machineId: input.machineId,
    paysWithTokens: input.paysWithTokens,
    appVersion: input.appVersion ?? null,
    os: input.os ?? null,
    now: input.now.toISOString(),
    seenBefore: addMinutes(input.now, -DEVICE_SEEN_PRECISION_MINUTES).toISOString(),
  };
}
