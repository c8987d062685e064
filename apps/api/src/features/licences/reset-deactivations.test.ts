import { DEVICE_DEACTIVATION_LIMIT, DEVICE_DEACTIVATION_WINDOW_DAYS } from '@soundid/contracts';
import { desc, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { devices, keyDeactivations, licenseKeys } from '../../db/licences-schema';
import { auditEntries } from '../../db/operators-schema';
import { activate, DAY_HOURS, issueKey } from './test-helpers';

/**
 * Support gives a licence its deactivation allowance back (AdminResetDeactivations, ADR 0030):
 * the deactivations counted in the window are forgiven, kept in the history and marked, and the
 * customer can deactivate again; forgiving again forgives nothing. Audited with its customer in
 * the transaction of the change (ADR 0045). PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PRODUCT = 'SoundIDReference';
let made = 0;
const newEmail = (name: string) => `${name}-${++made}@example.com`;

const reset = async (key: string, token?: string, reason: string | null = 'ticket S-9: new studio') =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/reset-deactivations',
    payload: { key, ...(reason === null ? {} : { reason }) },
    headers: { authorization: `Bearer ${token ?? (await t.operatorToken(['support']))}` },
  });
const lastAudit = async () =>
  (await t.database.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1))[0];

/** A customer with a key of SoundID Reference whose whole allowance is spent. */
async function spentCustomer(name: string) {
  const email = newEmail(name);
  const token = await signUpVerified(t, email);
  const key = await issueKey(t, 'sid-reference');
  expect((await t.call('/api/accounts/RegisterKey', { key }, token)).statusCode).toBe(200);
  const deactivate = (machineId: string) =>
    t.call('/api/apps/DeactivateDevice', { productName: PRODUCT, machineId }, token);
  for (let i = 0; i < DEVICE_DEACTIVATION_LIMIT; i++) {
    t.clock.advanceMinutes(1);
    expect((await activate(t, token, PRODUCT, `${name}-${i}`)).statusCode).toBe(200);
    expect((await deactivate(`${name}-${i}`)).statusCode).toBe(200);
  }
  await activate(t, token, PRODUCT, `${name}-now`);
  expect(faultOf(await deactivate(`${name}-now`))).toBe('KeyRevokeOverLimit');
  return { email, token, key, deactivate };
}

describe('support resets the deactivation allowance (ASVS 2.3.2, 8.2.1, 16.2.1)', () => {
  it('a customer at KeyRevokeOverLimit can deactivate again; the forgiven ones stay in the history', async () => {
    const { email, token, key, deactivate } = await spentCustomer('spent');

    const done = await reset(key);
    expect(done.statusCode).toBe(200);
    expect(done.json().Result).toEqual({
      Product: 'sid-reference',
      KeyEnding: key.slice(-6),
      Forgiven: DEVICE_DEACTIVATION_LIMIT,
    });
    expect(await lastAudit()).toMatchObject({
      action: 'AdminResetDeactivations',
      outcome: 'done',
      customerEmail: email,
      targetType: 'licence-key',
      targetId: key.slice(-6),
      before: { product: 'sid-reference', deactivationsUsed: DEVICE_DEACTIVATION_LIMIT },
      after: { deactivationsUsed: 0, forgiven: DEVICE_DEACTIVATION_LIMIT },
      reason: 'ticket S-9: new studio',
      roles: ['support'],
    });

    // The whole allowance again: the one refused, and the rest up to the limit.
    expect((await deactivate('spent-now')).statusCode).toBe(200);
    for (let i = 1; i < DEVICE_DEACTIVATION_LIMIT; i++) {
      t.clock.advanceMinutes(1);
      await activate(t, token, PRODUCT, `again-${i}`);
      expect((await deactivate(`again-${i}`)).statusCode).toBe(200);
    }
    await activate(t, token, PRODUCT, 'one-too-many');
    expect(faultOf(await deactivate('one-too-many'))).toBe('KeyRevokeOverLimit');

    // Kept, marked: the licence's releases and the key's history.
    const [keyRow] = await t.database.db
      .select({ id: licenseKeys.id })
      .from(licenseKeys)
      .where(eq(licenseKeys.key, key.replaceAll('-', '')));
    const history = await t.database.db
      .select()
      .from(keyDeactivations)
      .where(eq(keyDeactivations.keyId, keyRow?.id as string));
    expect(history).toHaveLength(2 * DEVICE_DEACTIVATION_LIMIT);
    expect(history.filter((row) => row.forgivenAt)).toHaveLength(DEVICE_DEACTIVATION_LIMIT);
    const forgivenDevices = await t.database.db.select().from(devices).where(isNotNull(devices.forgivenAt));
    expect(forgivenDevices.filter((d) => d.machineId.startsWith('spent-'))).toHaveLength(DEVICE_DEACTIVATION_LIMIT);
  });

  it('forgiving twice forgives 0 the second time; deactivations outside the window are not touched', async () => {
    const { key, deactivate } = await spentCustomer('twice');
    expect((await reset(key)).json().Result.Forgiven).toBe(DEVICE_DEACTIVATION_LIMIT);
    expect((await reset(key)).json().Result.Forgiven).toBe(0);
    expect(await lastAudit()).toMatchObject({ action: 'AdminResetDeactivations', after: { forgiven: 0 } });
    // One counted after the reset, then the window passes: it is no longer counted, nor forgiven.
    expect((await deactivate('twice-now')).statusCode).toBe(200);
    t.clock.advanceHours((DEVICE_DEACTIVATION_WINDOW_DAYS + 1) * DAY_HOURS);
    expect((await reset(key)).json().Result.Forgiven).toBe(0);
  });

  it('takes the key as typed, with or without hyphens, any case', async () => {
    const { key } = await spentCustomer('typed');
    const res = await reset(key.replaceAll('-', '').toLowerCase());
    expect(res.json().Result).toMatchObject({ KeyEnding: key.slice(-6), Forgiven: DEVICE_DEACTIVATION_LIMIT });
  });

  it('refuses an unknown or unregistered key, a missing reason, and the other roles; nothing changes', async () => {
    const unowned = await issueKey(t, 'sid-reference');
    expect([(await reset(unowned)).statusCode, faultOf(await reset(unowned))]).toEqual([404, 'KeyNotFound']);
    expect((await reset('not a key')).statusCode).toBe(400);

    const { key, deactivate } = await spentCustomer('refused');
    expect((await reset(key, undefined, null)).statusCode).toBe(400);
    for (const role of ['finance', 'admin'] as const) {
      const res = await reset(key, await t.operatorToken([role]));
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OperatorForbidden']);
      expect(await lastAudit()).toMatchObject({ action: 'AdminResetDeactivations', outcome: 'denied' });
    }
    expect(faultOf(await deactivate('refused-now'))).toBe('KeyRevokeOverLimit');
  });
});
