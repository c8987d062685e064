import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/kit/test-app';
import { licenceList } from '../features/licences/test-helpers';
import { systemRandom } from '../lib/clock';
import { DEMO_EMAIL, seedDemoData } from './demo-seed';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo data on an empty database', () => {
  it('seeds a customer who sees every section at once, and only once', async () => {
    const deps = { db: t.database.db, clock: t.clock, random: systemRandom, licences: t.services.licences };
    const lines = await seedDemoData(deps);
    expect(lines).toBeDefined();
    const password = /password (\S+)/.exec(lines?.join('\n') ?? '')?.[1] as string;
    const login = await t.call('/api/accounts/LoginByEmail', { email: DEMO_EMAIL, password });
    expect(login.statusCode).toBe(200);
    const list = await licenceList(t, login.json().Token);

    const [reference, ref4] = list.ReferenceProducts.Products;
    expect(reference).toMatchObject({ ProductName: 'SoundIDReference', InstancesUsed: 2, InstancesMax: 3 });
    expect(reference.Devices.map((d: { Name: string }) => d.Name)).toEqual(['Studio iMac', 'MacBook Pro']);
    // Machines whose apps have checked in: a newcomer sees the last-seen line at once (ADR 0049).
    expect(reference.Devices.map((d: { AppVersion: string; Os: string }) => [d.AppVersion, d.Os])).toEqual([
      ['5.12.1', 'macOS 14.5'],
      ['5.11.0', 'macOS 13.6'],
    ]);
    expect(reference.Devices.every((d: { LastSeen: string | null }) => d.LastSeen?.startsWith('/Date('))).toBe(true);
    expect(ref4.ActionButtons.map((b: { Functionality: string }) => b.Functionality)).toContain('Upgrade');
    expect(list.VoiceAIProducts.LicenseStatus).toMatchObject({ InstancesUsed: 1, IsManageable: true });
    expect(list.VoiceAIProducts.LicenseStatus.OfflineLicenseKey).toMatch(/^\*{6}-/);

    const spareKey = /RegisterKey with (\S+)/.exec(lines?.join('\n') ?? '')?.[1];
    const registered = await t.call('/api/accounts/RegisterKey', { key: spareKey }, login.json().Token);
    expect(registered.json().Result).toEqual({ ProductCount: 1 });
    const code = /with code (\S+)/.exec(lines?.join('\n') ?? '')?.[1] as string;
    const formatted = ref4.LicenseKeys[0].FormattedKey;
    const upgraded = await t.call(
      '/api/accounts/UpgradeKey',
      { key: formatted, upgradeCode: code },
      login.json().Token,
    );
    expect(upgraded.statusCode).toBe(200);
    const serial = await t.call(
      '/api/accounts/Campaign/ClaimAdam60Day',
      { serial: 'ADAM-DEMO-000001' },
      login.json().Token,
    );
    expect(serial.statusCode).toBe(200);

    expect(await seedDemoData(deps)).toBeUndefined();
  });
});
