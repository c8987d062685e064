import {
  DEVICE_DEACTIVATION_LIMIT,
  DEVICE_DEACTIVATION_WINDOW_DAYS,
  IDLE_SEAT_RELEASE_DAYS,
  toDotNetDate,
} from '@soundid/contracts';
import { and, eq, isNotNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { devices } from '../../db/licences-schema';
import { users } from '../../db/schema';
import { addDays } from '../../lib/clock';
import { activate, getAction, issueKey, licenceList } from './test-helpers';

/**
 * The deactivation allowance belongs to the key, not to the customer's licence row (ADR 0030):
 * removing a licence and registering its key again, in the same account or another one, neither
 * resets the used allowance nor frees seats beyond it (ASVS 2.3.2 business logic limits; the
 * races: ASVS 2.3.4). Same file on PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const PRODUCT = 'SoundIDReference';
const register = (key: string, token: string) => t.call('/api/accounts/RegisterKey', { key }, token);
/** A proof of presence for the session (ADR 0040): a device deactivated from the portal asks for one. */
const present = async (token: string) => {
  const res = await t.call('/api/accounts/StepUp', { method: 'Password', password: PASSWORD }, token);
  if (res.statusCode !== 200) throw new Error(res.body);
};
const deactivateApp = (token: string, machineId: string) =>
  t.call('/api/apps/DeactivateDevice', { productName: PRODUCT, machineId }, token);

async function removeUrl(token: string): Promise<string> {
  const product = (await licenceList(t, token)).ReferenceProducts.Products[0];
  return product.LicenseKeys[0].ActionButtons[0].ExternalRequest.Url;
}

async function activeDeviceIds(token: string): Promise<string[]> {
  const product = (await licenceList(t, token)).ReferenceProducts.Products[0];
  return (product?.Devices ?? []).map((d: { DeviceId: string }) => d.DeviceId);
}

/** Activates and deactivates machines until `n` counted deactivations are used. */
async function useDeactivations(token: string, n: number, prefix: string): Promise<void> {
  for (let i = 0; i < n; i++) {
    t.clock.advanceMinutes(1);
    expect((await activate(t, token, PRODUCT, `${prefix}-${i}`)).statusCode).toBe(200);
    expect((await deactivateApp(token, `${prefix}-${i}`)).statusCode).toBe(200);
  }
}

async function fillSeats(token: string, prefix: string, count = 3): Promise<void> {
  for (let i = 0; i < count; i++) {
    t.clock.advanceMinutes(1);
    expect((await activate(t, token, PRODUCT, `${prefix}-${i}`)).statusCode).toBe(200);
  }
}

/** Every machine release of a customer's licence (any cause): what the allowance bounds. */
async function releasesOf(email: string): Promise<number> {
  const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  const rows = await t.database.db
    .select({ id: devices.id })
    .from(devices)
    .where(and(eq(devices.userId, user?.id as string), isNotNull(devices.deactivatedAt)));
  return rows.length;
}

describe('the deactivation allowance belongs to the key (ASVS 2.3.2)', () => {
  it('a spent allowance: removing the licence with devices active is refused; the key keeps seats and allowance', async () => {
    const ann = await signUpVerified(t, 'ann.allowance@example.com');
    const key = await issueKey(t, 'sid-reference');
    expect((await register(key, ann)).statusCode).toBe(200);
    await useDeactivations(ann, DEVICE_DEACTIVATION_LIMIT, 'ann-spent');
    await fillSeats(ann, 'ann-seat');

    const removal = await getAction(t, await removeUrl(ann), ann);
    expect([removal.statusCode, faultOf(removal)]).toEqual([429, 'KeyRevokeOverLimit']);
    // Nothing changed: the key is still Ann's, the three seats still taken, the 11th deactivation refused.
    expect(faultOf(await register(key, ann))).toBe('KeyAlreadyExisting');
    expect(await activeDeviceIds(ann)).toHaveLength(3);
    expect(faultOf(await activate(t, ann, PRODUCT, 'ann-fourth'))).toBe('SeatLimitReached');
    expect(faultOf(await deactivateApp(ann, 'ann-seat-0'))).toBe('KeyRevokeOverLimit');
    expect(await releasesOf('ann.allowance@example.com')).toBe(DEVICE_DEACTIVATION_LIMIT);
  });

  it("GetDeactivationAllowance says how many are left and when the next comes back, the key's history included", async () => {
    const cleo = await signUpVerified(t, 'cleo.allowance@example.com');
    const dan = await signUpVerified(t, 'dan.allowance@example.com');
    const allowanceOf = async (token: string) =>
      (await t.call('/api/licenses/GetDeactivationAllowance', { productName: PRODUCT }, token)).json().Result;
    // No licence yet: nothing used.
    expect(await allowanceOf(cleo)).toEqual({
      DeactivationsLeft: DEVICE_DEACTIVATION_LIMIT,
      DeactivationsAllowed: DEVICE_DEACTIVATION_LIMIT,
      NextDeactivationReturns: null,
      IdleReleaseDays: IDLE_SEAT_RELEASE_DAYS,
    });
    const key = await issueKey(t, 'sid-reference');
    expect((await register(key, cleo)).statusCode).toBe(200);
    await useDeactivations(cleo, 1, 'line');
    const firstAt = t.clock.now();
    await useDeactivations(cleo, 1, 'line-b');
    const expected = {
      DeactivationsLeft: DEVICE_DEACTIVATION_LIMIT - 2,
      DeactivationsAllowed: DEVICE_DEACTIVATION_LIMIT,
      NextDeactivationReturns: toDotNetDate(addDays(firstAt, DEVICE_DEACTIVATION_WINDOW_DAYS)),
      IdleReleaseDays: IDLE_SEAT_RELEASE_DAYS,
    };
    expect(await allowanceOf(cleo)).toEqual(expected);
    // The key goes to Dan with its history: his panel says the same (ADR 0030).
    expect((await getAction(t, await removeUrl(cleo), cleo)).statusCode).toBe(200);
    expect((await register(key, dan)).statusCode).toBe(200);
    expect(await allowanceOf(dan)).toEqual(expected);
    const unknown = await t.call('/api/licenses/GetDeactivationAllowance', { productName: 'NoSuchProduct' }, dan);
    expect(faultOf(unknown)).toBe('ProductNotFound');
  });

  it('removed and registered again by the same customer: the allowance is still spent', async () => {
    const ann = await signUpVerified(t, 'ann.again@example.com');
    const key = await issueKey(t, 'sid-reference');
    expect((await register(key, ann)).statusCode).toBe(200);
    await useDeactivations(ann, DEVICE_DEACTIVATION_LIMIT, 'again');
    // No device active: removing releases nothing and is allowed.
    expect((await getAction(t, await removeUrl(ann), ann)).statusCode).toBe(200);
    expect((await register(key, ann)).statusCode).toBe(200);
    expect((await activate(t, ann, PRODUCT, 'again-new')).statusCode).toBe(200);
    expect(faultOf(await deactivateApp(ann, 'again-new'))).toBe('KeyRevokeOverLimit');
  });

  it('a key removed by one customer and registered by another brings its used allowance', async () => {
    const ann = await signUpVerified(t, 'ann.transfer@example.com');
    const bob = await signUpVerified(t, 'bob.transfer@example.com');
    const key = await issueKey(t, 'sid-reference');
    expect((await register(key, ann)).statusCode).toBe(200);
    await useDeactivations(ann, DEVICE_DEACTIVATION_LIMIT, 'transfer');
    expect((await getAction(t, await removeUrl(ann), ann)).statusCode).toBe(200);

    expect((await register(key, bob)).statusCode).toBe(200);
    await fillSeats(bob, 'bob-seat');
    const [first] = await activeDeviceIds(bob);
    await present(bob);
    const refused = await getAction(t, `/api/actions/devices/${first}/deactivate`, bob);
    expect([refused.statusCode, faultOf(refused)]).toEqual([429, 'KeyRevokeOverLimit']);
    expect(faultOf(await deactivateApp(bob, 'bob-seat-1'))).toBe('KeyRevokeOverLimit');
    // Nor can Bob free the seats by removing the key (and hand it back to Ann).
    expect(faultOf(await getAction(t, await removeUrl(bob), bob))).toBe('KeyRevokeOverLimit');
    expect(await activeDeviceIds(bob)).toHaveLength(3);
  });

  it('deleting the account ends its activations, and they count for whoever registers the key next', async () => {
    const email = 'ann.leaving@example.com';
    const ann = await signUpVerified(t, email);
    const key = await issueKey(t, 'sid-reference');
    expect((await register(key, ann)).statusCode).toBe(200);
    await fillSeats(ann, 'leaving');
    await t.call('/api/accounts/DeleteAccount', {}, ann);
    const link = await t.lastLinkToken(email);
    expect((await t.call('/api/accounts/DeleteAccountConfirm', { token: link })).statusCode).toBe(200);

    const bob = await signUpVerified(t, 'bob.after@example.com');
    expect((await register(key, bob)).statusCode).toBe(200);
    // Ann's three machines were released with her account: seven deactivations are left.
    await useDeactivations(bob, DEVICE_DEACTIVATION_LIMIT - 3, 'after');
    expect((await activate(t, bob, PRODUCT, 'after-last')).statusCode).toBe(200);
    expect(faultOf(await deactivateApp(bob, 'after-last'))).toBe('KeyRevokeOverLimit');
  });

  it('removing and registering again is no way around the allowance: the machines a removal releases count', async () => {
    const email = 'ann.cycle@example.com';
    const ann = await signUpVerified(t, email);
    const key = await issueKey(t, 'sid-reference');
    expect((await register(key, ann)).statusCode).toBe(200);
    let cycles = 0;
    for (let round = 0; round < 6; round++) {
      await fillSeats(ann, `cycle-${round}`);
      const removal = await getAction(t, await removeUrl(ann), ann);
      if (removal.statusCode !== 200) {
        expect(faultOf(removal)).toBe('KeyRevokeOverLimit');
        break;
      }
      cycles += 1;
      expect((await register(key, ann)).statusCode).toBe(200);
    }
    // Three cycles of three machines use nine of ten; the fourth removal would need three.
    expect(cycles).toBe(Math.floor(DEVICE_DEACTIVATION_LIMIT / 3));
    expect(await activeDeviceIds(ann)).toHaveLength(3);
    const [last, ...others] = await activeDeviceIds(ann);
    await present(ann);
    expect((await getAction(t, `/api/actions/devices/${last}/deactivate`, ann)).statusCode).toBe(200);
    expect(faultOf(await getAction(t, `/api/actions/devices/${others[0]}/deactivate`, ann))).toBe('KeyRevokeOverLimit');
    expect(await releasesOf(email)).toBe(DEVICE_DEACTIVATION_LIMIT);
  });
});

describe('remove, register again and deactivate at once (ASVS 2.3.4)', () => {
  // PGlite serialises every request; the rounds that prove the locks run on PostgreSQL.
  const rounds = process.env.TEST_DB_KIND === 'postgres' ? 4 : 1;
  it(`never releases more machines than the allowance, ${rounds} rounds`, async () => {
    for (let round = 0; round < rounds; round++) {
      const annEmail = `ann.race${round}@example.com`;
      const ann = await signUpVerified(t, annEmail);
      const bob = await signUpVerified(t, `bob.race${round}@example.com`);
      const key = await issueKey(t, 'sid-reference');
      expect((await register(key, ann)).statusCode).toBe(200);
      // Three deactivations left and three machines active.
      await useDeactivations(ann, DEVICE_DEACTIVATION_LIMIT - 3, `race${round}`);
      await fillSeats(ann, `race${round}-seat`);
      const ids = await activeDeviceIds(ann);
      const url = await removeUrl(ann);

      t.clock.advanceMinutes(1);
      await present(ann);
      const results = await Promise.all([
        getAction(t, url, ann),
        register(key, ann),
        register(key, bob),
        ...ids.map((id) => getAction(t, `/api/actions/devices/${id}/deactivate`, ann)),
        ...[0, 1, 2].map((i) => deactivateApp(ann, `race${round}-seat-${i}`)),
        ...[0, 1, 2].map((i) => activate(t, ann, PRODUCT, `race${round}-new-${i}`)),
        register(key, ann),
        getAction(t, url, ann),
        ...[0, 1, 2].map((i) => activate(t, bob, PRODUCT, `race${round}-bob-${i}`)),
        getAction(t, url, ann),
      ]);
      for (const res of results) expect(res.statusCode, res.body).toBeLessThan(500);
      expect(await releasesOf(annEmail), `round ${round}`).toBeLessThanOrEqual(DEVICE_DEACTIVATION_LIMIT);

      // Whoever holds the key now (or registers it next) finds its allowance spent.
      const claim = await register(key, bob);
      const holder = claim.statusCode === 200 || faultOf(claim) === 'KeyAlreadyExisting' ? bob : ann;
      t.clock.advanceMinutes(1);
      await activate(t, holder, PRODUCT, `race${round}-last`);
      const [device] = await activeDeviceIds(holder);
      await present(holder);
      const over = await getAction(t, `/api/actions/devices/${device}/deactivate`, holder);
      expect(faultOf(over), `round ${round}, ${holder === bob ? 'Bob' : 'Ann'}`).toBe('KeyRevokeOverLimit');
    }
  });
});
