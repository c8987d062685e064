import { asc, desc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openTestDatabase } from '../../test/kit/test-database';
import type { DatabaseHandle } from './client';
import { jsonRows } from './json-rows';
import { devices, licences } from './licences-schema';
import { users } from './schema';
import { tokenLots } from './voice-ai-schema';

let handle: DatabaseHandle;
let userId: string;

beforeAll(async () => {
  handle = await openTestDatabase();
  const { db } = handle;
  const [user] = await db.insert(users).values({ email: 'rows@example.com' }).returning({ id: users.id });
  userId = (user as { id: string }).id;
  const [licence] = await db
    .insert(licences)
    .values({ userId, productCode: 'sid-reference', trialEndsAt: new Date('2026-03-04T05:06:07.089Z') })
    .returning({ id: licences.id });
  // Inserted out of order, one deactivated, with null columns: order, dates and nulls must survive.
  const activated = ['2026-01-03T00:00:00.123Z', '2026-01-01T10:00:00.000Z', '2026-01-02T23:59:59.999Z'];
  await db.insert(devices).values(
    activated.map((at, i) => ({
      licenceId: (licence as { id: string }).id,
      userId,
      machineId: `machine-${i}`,
      name: `Machine “${i}” \\ "quoted"`,
      activatedAt: new Date(at),
      deactivatedAt: i === 2 ? new Date('2026-02-01T00:00:00Z') : null,
    })),
  );
  await db.insert(tokenLots).values(
    [3, 1, 2].map((n) => ({
      userId,
      amount: n * 100,
      remaining: n * 10,
      cause: 'grant' as const,
      sourceRef: `rows-${n}`,
      purchasedAt: new Date(Date.UTC(2026, 0, n)),
      expiresAt: new Date(Date.UTC(2027, 0, n)),
    })),
  );
});

afterAll(async () => {
  await handle?.close();
});

describe('jsonRows', () => {
  it('reads a select inside another as the very rows the select itself returns, in its order', async () => {
    const { db } = handle;
    const byUser = eq(devices.userId, sql.placeholder('userId'));
    const devicesQuery = db.select().from(devices).where(byUser).orderBy(asc(devices.activatedAt));
    const lotsQuery = db
      .select({ remaining: tokenLots.remaining, expiresAt: tokenLots.expiresAt, seq: tokenLots.seq })
      .from(tokenLots)
      .where(eq(tokenLots.userId, sql.placeholder('userId')))
      .orderBy(desc(tokenLots.purchasedAt));
    const licencesQuery = db
      .select()
      .from(licences)
      .where(eq(licences.userId, sql.placeholder('userId')));

    const [combined] = await db
      .select({ devices: jsonRows(devicesQuery), lots: jsonRows(lotsQuery), licences: jsonRows(licencesQuery) })
      .from(users)
      .where(eq(users.id, sql.placeholder('userId')))
      .prepare('json_rows_test')
      .execute({ userId });

    expect(combined?.devices).toEqual(await devicesQuery.execute({ userId }));
    expect(combined?.lots).toEqual(await lotsQuery.execute({ userId }));
    expect(combined?.licences).toEqual(await licencesQuery.execute({ userId }));
    expect(combined?.devices.map((d) => d.machineId)).toEqual(['machine-1', 'machine-2', 'machine-0']);
    expect(combined?.devices[1]?.deactivatedAt).toEqual(new Date('2026-02-01T00:00:00Z'));
    expect(combined?.devices[0]?.deactivatedAt).toBeNull();
  });

  it('reads an empty list as []', async () => {
    const { db } = handle;
    const none = db.select().from(devices).where(eq(devices.machineId, 'no such machine'));
    const [row] = await db
      .select({ devices: jsonRows(none) })
      .from(users)
      .where(eq(users.id, userId));
    expect(row?.devices).toEqual([]);
  });
});
