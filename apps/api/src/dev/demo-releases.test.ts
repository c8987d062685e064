import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../test/kit/test-app';
import { seedDemoReleases } from './demo-releases';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('demo releases (ADR 0046)', () => {
  it('publish a release per installable product once, which a new customer sees in the download center', async () => {
    const deps = { db: t.database.db, releases: t.services.releases };
    expect(await seedDemoReleases(deps)).toEqual([
      'Download center: 16 demo releases of 6 products (npm run admin -- releases)',
    ]);
    expect(await seedDemoReleases(deps)).toBeUndefined();

    const token = await signUpVerified(t, 'demo.releases@example.com');
    const center = (await t.call('/api/downloads/GetDownloadCenter', {}, token)).json().Result;
    expect(center.Products.map((p: { Code: string }) => p.Code)).toEqual(['sid-reference', 'voice-ai']);
    const [reference] = center.Products;
    expect(reference.Platforms.map((p: { Platform: string }) => p.Platform)).toEqual(['macos', 'windows']);
    expect(reference.Platforms[0].Latest).toMatchObject({ Version: '5.12.2', FileName: 'SoundIDReference-5.12.2.dmg' });
    expect(reference.Platforms[0].Older.map((r: { Version: string }) => r.Version)).toEqual(['5.11.0']);
    expect(reference.Platforms[1].Latest.Sha256).toMatch(/^[0-9a-f]{64}$/);
  });
});
