import { createPublicKey } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { loadConfig } from '../../config';
import { verifyOfflineLicense } from './offline';
import { licenceList, ownKey } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const swinfo = (overrides: Record<string, unknown> = {}) =>
  JSON.stringify({
    format: 'soundid-swinfo',
    version: 1,
    productName: 'SoundIDReference',
    machineId: 'offline-machine-0001',
    deviceName: 'Mastering room (offline)',
    nonce: 'n0nce-n0nce-n0nce-1234',
    appVersion: '5.12.1',
    os: 'macOS 15.1',
    ...overrides,
  });
const offlineActivate = (token: string, text: string) =>
  t.call('/api/licenses/OfflineActivate', { swinfo: text }, token);

describe('offline activation', () => {
  it('publishes an Ed25519 public key', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/licenses/offline-public-key' });
    const result = res.json().Result;
    expect(result).toEqual({
      Algorithm: 'Ed25519',
      KeyId: expect.stringMatching(/^[0-9a-f]{16}$/),
      PublicKeyPem: expect.any(String),
    });
    expect(createPublicKey(result.PublicKeyPem).asymmetricKeyType).toBe('ed25519');
    // Generated once: the same key on the next call.
    expect((await t.app.inject({ method: 'GET', url: '/api/licenses/offline-public-key' })).json().Result).toEqual(
      result,
    );
  });

  it('answers an .swinfo request with a licence file that verifies offline, and takes a seat', async () => {
    const token = await signUpVerified(t, 'offline@example.com');
    await ownKey(t, token, 'sid-reference');
    const res = await offlineActivate(token, swinfo());
    expect(res.statusCode).toBe(200);
    const result = res.json().Result;
    expect(result).toMatchObject({
      FileName: 'SoundIDReference-offline-machine-0001.swlicense',
      InstancesUsed: 1,
      InstancesMax: 3,
    });
    const { PublicKeyPem } = (await t.app.inject({ method: 'GET', url: '/api/licenses/offline-public-key' })).json()
      .Result;
    const payload = verifyOfflineLicense(result.Content, PublicKeyPem, 'offline-machine-0001');
    expect(payload).toEqual({
      format: 'soundid-license',
      version: 1,
      licenseId: result.DeviceId,
      productName: 'SoundIDReference',
      machineId: 'offline-machine-0001',
      deviceName: 'Mastering room (offline)',
      licenseKind: 'Perpetual',
      issuedAt: t.clock.now().toISOString(),
      expiresAt: null,
      nonce: 'n0nce-n0nce-n0nce-1234',
      // Additive (ADR 0053): the key of the offline deactivation proof; apps that verify ignore it.
      removalSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
    });
    expect(() => verifyOfflineLicense(result.Content, PublicKeyPem, 'another-machine')).toThrow(/another machine/);
    const tampered = JSON.parse(result.Content);
    tampered.payload = Buffer.from(JSON.stringify({ ...payload, machineId: 'pirate-machine' })).toString('base64url');
    expect(() => verifyOfflineLicense(JSON.stringify(tampered), PublicKeyPem)).toThrow(/signature/);

    // The same request again is the same activation; the device is listed like any other.
    expect((await offlineActivate(token, swinfo())).json().Result.DeviceId).toBe(result.DeviceId);
    const product = (await licenceList(t, token)).ReferenceProducts.Products[0];
    expect(product.Devices.map((d: { Name: string }) => d.Name)).toEqual(['Mastering room (offline)']);
  });

  it('gives a clear error for bad files', async () => {
    const token = await signUpVerified(t, 'offline.bad@example.com');
    const reason = async (text: string) => {
      const res = await offlineActivate(token, text);
      expect([res.statusCode, faultOf(res)]).toEqual([400, 'OfflineRequestInvalid']);
      return res.json().Fault.ExceptionVariables[0].Value as string;
    };
    expect(await reason('PK\u0003\u0004 binary')).toMatch(/not JSON/);
    expect(await reason('[1,2]')).toMatch(/not a JSON object/);
    expect(await reason(JSON.stringify({ format: 'something-else' }))).toMatch(/format/);
    expect(await reason(swinfo({ version: 2 }))).toMatch(/version 2/);
    expect(await reason(swinfo({ machineId: undefined }))).toMatch(/machineId/);
    expect(await reason(swinfo({ extra: 1 }))).toMatch(/Unknown field extra/);
    expect(faultOf(await offlineActivate(token, swinfo({ productName: 'Nope' })))).toBe('ProductNotFound');
    expect(faultOf(await offlineActivate(token, swinfo()))).toBe('NoLicenseForProduct');
    expect(faultOf(await offlineActivate(token, 'x'.repeat(20_000)))).toBe('RequestInvalid');
    expect(faultOf(await t.call('/api/licenses/OfflineActivate', { swinfo: swinfo() }))).toBe(
      'SecurityAuthTokenNotPassed',
    );
  });
});

describe('offline activation switch (ADR 0013)', () => {
  const production = {
    NODE_ENV: 'production',
    DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
    SESSION_SECRET: 'test-session-secret-0123456789abcdef0123456789',
    PUBLIC_URL: 'https://my.soundid.test',
    ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
    SMTP_URL: 'smtp://127.0.0.1:1',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soundid-offline-')),
  };

  it('is off in production unless configured, on elsewhere unless switched off', () => {
    expect(loadConfig(production).offlineActivation).toBe(false);
    expect(loadConfig({ ...production, OFFLINE_ACTIVATION: 'true' }).offlineActivation).toBe(true);
    expect(loadConfig({ NODE_ENV: 'test', DATA_DIR: production.DATA_DIR }).offlineActivation).toBe(true);
    expect(
      loadConfig({ NODE_ENV: 'test', DATA_DIR: production.DATA_DIR, OFFLINE_ACTIVATION: 'false' }).offlineActivation,
    ).toBe(false);
  });

  it('tells the SPA and refuses the call when switched off', async () => {
    expect((await t.app.inject('/api/config')).json().Result.OfflineActivation).toBe(true);
    const off = await createTestApp({ OFFLINE_ACTIVATION: 'false' });
    try {
      expect((await off.app.inject('/api/config')).json().Result.OfflineActivation).toBe(false);
      const token = await signUpVerified(off, 'offline.off@example.com');
      await ownKey(off, token, 'sid-reference');
      const res = await off.call('/api/licenses/OfflineActivate', { swinfo: swinfo() }, token);
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OfflineActivationDisabled']);
      expect((await licenceList(off, token)).ReferenceProducts.Products[0].Devices).toEqual([]);
    } finally {
      await off.close();
    }
  });
});
