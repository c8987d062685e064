import { DEVICE_SEEN_PRECISION_MINUTES, parseDotNetDate } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { licenceList, ownKey, signIn } from './test-helpers';

/** Devices seen (docs/decisions/0049-devices-seen.md): what the apps say of themselves, and when. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const product = 'SoundIDReference';
const activate = (token: string, machineId: string, self: { appVersion?: string; os?: string } = {}) =>
  t.call('/api/apps/ActivateDevice', { productName: product, machineId, deviceName: 'Studio Mac', ...self }, token);
const check = (token: string, machineId: string, self: { appVersion?: string; os?: string } = {}) =>
  t.call('/api/apps/CheckLicense', { productName: product, machineId, ...self }, token);

async function deviceOf(machineId: string, email: string) {
  const list = await licenceList(t, await signIn(t, email));
  const reference = list.ReferenceProducts.Products[0];
  const device = reference.Devices.find((d: { Name: string; DeviceId: string }) => d.DeviceId === ids.get(machineId));
  return {
    ...device,
    lastSeen: device?.LastSeen ? parseDotNetDate(device.LastSeen) : null,
  } as { LastSeen: string | null; AppVersion: string | null; Os: string | null; lastSeen: Date | null };
}
const ids = new Map<string, string>();

describe('devices seen', () => {
  it('records when the app activated and checked, with its version and OS; the licence list shows them', async () => {
    const email = 'seen@example.com';
    const token = await signUpVerified(t, email);
    await ownKey(t, token, 'sid-reference');
    const activated = await activate(token, 'seen-0001', { appVersion: '5.12.1', os: 'macOS 14.5' });
    ids.set('seen-0001', activated.json().Result.DeviceId);
    const activatedAt = t.clock.now();
    expect(await deviceOf('seen-0001', email)).toMatchObject({
      lastSeen: activatedAt,
      AppVersion: '5.12.1',
      Os: 'macOS 14.5',
    });

    // Within the precision a check writes nothing: the hot path stays a read.
    t.clock.advanceMinutes(DEVICE_SEEN_PRECISION_MINUTES - 1);
    expect((await check(token, 'seen-0001')).json().Result).toMatchObject({ Licensed: true, InstancesUsed: 1 });
    expect((await deviceOf('seen-0001', email)).lastSeen).toEqual(activatedAt);

    // What the app says of itself changed: written at once, and the time with it.
    t.clock.advanceMinutes(1);
    await check(token, 'seen-0001', { appVersion: '5.13.0' });
    const upgradedAt = t.clock.now();
    expect(await deviceOf('seen-0001', email)).toMatchObject({
      lastSeen: upgradedAt,
      AppVersion: '5.13.0',
      Os: 'macOS 14.5',
    });

    // Past the precision: the time is written; fields not sent are kept.
    t.clock.advanceHours(50);
    await check(await signIn(t, email), 'seen-0001');
    expect(await deviceOf('seen-0001', email)).toMatchObject({
      lastSeen: t.clock.now(),
      AppVersion: '5.13.0',
      Os: 'macOS 14.5',
    });
  });

  it("a machine activated by an app that says nothing of itself is seen then, with no version; another customer's check never touches it", async () => {
    const email = 'seen.quiet@example.com';
    const token = await signUpVerified(t, email);
    await ownKey(t, token, 'sid-reference');
    ids.set('seen-0002', (await activate(token, 'seen-0002')).json().Result.DeviceId);
    const activatedAt = t.clock.now();
    expect(await deviceOf('seen-0002', email)).toMatchObject({
      lastSeen: activatedAt,
      AppVersion: null,
      Os: null,
    });

    const other = await signUpVerified(t, 'seen.other@example.com');
    await ownKey(t, other, 'sid-reference');
    t.clock.advanceHours(2);
    // The same machine id under another customer: theirs alone is seen (ASVS 8.2.2).
    expect((await check(other, 'seen-0002', { appVersion: '9.9.9' })).json().Result).toMatchObject({
      Licensed: false,
      DeviceId: null,
    });
    expect(await deviceOf('seen-0002', email)).toMatchObject({ lastSeen: activatedAt, AppVersion: null });
  });

  it('one statement checks the session and the licence: a signed-out token is refused and keeps no machine seen (ASVS 7.4.1)', async () => {
    const email = 'seen.revoked@example.com';
    const token = await signUpVerified(t, email);
    await ownKey(t, token, 'sid-reference');
    const activated = await activate(token, 'seen-revoked', { appVersion: '5.12.1' });
    ids.set('seen-revoked', activated.json().Result.DeviceId);
    const seenAt = t.clock.now();
    const app = await signIn(t, email);
    expect((await t.call('/api/accounts/Logout', {}, app)).statusCode).toBe(200);
    t.clock.advanceMinutes(DEVICE_SEEN_PRECISION_MINUTES + 1);
    const refused = await check(app, 'seen-revoked', { appVersion: '5.13.0' });
    expect([refused.statusCode, faultOf(refused)]).toEqual([401, 'UserAuthenticationFailed']);
    expect(await deviceOf('seen-revoked', email)).toMatchObject({ lastSeen: seenAt, AppVersion: '5.12.1' });
    // A live session's check writes it, and an unknown product is still refused after the session check.
    const live = await signIn(t, email);
    expect((await check(live, 'seen-revoked')).json().Result).toMatchObject({ Licensed: true });
    expect((await deviceOf('seen-revoked', email)).lastSeen).toEqual(t.clock.now());
    const unknown = await t.call(
      '/api/apps/CheckLicense',
      { productName: 'NoSuchProduct', machineId: 'seen-revoked' },
      live,
    );
    expect(faultOf(unknown)).toBe('ProductNotFound');
    const unknownSignedOut = await t.call(
      '/api/apps/CheckLicense',
      { productName: 'NoSuchProduct', machineId: 'x1234' },
      app,
    );
    expect(faultOf(unknownSignedOut)).toBe('UserAuthenticationFailed');
  });

  it('refuses a malformed version or OS with a clear fault and records nothing', async () => {
    const email = 'seen.bad@example.com';
    const token = await signUpVerified(t, email);
    await ownKey(t, token, 'sid-reference');
    ids.set('seen-0003', (await activate(token, 'seen-0003', { appVersion: '1.0' })).json().Result.DeviceId);
    const activatedAt = t.clock.now();
    t.clock.advanceHours(2);
    for (const self of [
      { appVersion: '<script>' },
      { appVersion: 'x'.repeat(33) },
      { appVersion: '' },
      { os: 'macOS\u0000' },
      { os: 'y'.repeat(65) },
    ]) {
      const refused = await check(token, 'seen-0003', self);
      expect([refused.statusCode, faultOf(refused)]).toEqual([400, 'RequestInvalid']);
      const activation = await activate(token, 'seen-0003', self);
      expect([activation.statusCode, faultOf(activation)]).toEqual([400, 'RequestInvalid']);
    }
    expect(await deviceOf('seen-0003', email)).toMatchObject({ lastSeen: activatedAt, AppVersion: '1.0' });
  });
});
