import { DEVICE_DEACTIVATION_LIMIT, SWDEACTIVATE_MAX_LENGTH } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import {
  DEACTIVATION_REQUEST_FORMAT,
  deactivationProof,
  deactivationRefusals,
  verifyDeactivationReceipt,
  verifyOfflineLicense,
  writeDeactivationRequest,
} from './offline';
import { licenceList, ownKey } from './test-helpers';

/** Offline deactivation (docs/decisions/0053-offline-deactivation.md, docs/offline-activation.md). */
let t: TestApp;
let publicKeyPem: string;
beforeAll(async () => {
  t = await createTestApp();
  publicKeyPem = (await t.app.inject({ method: 'GET', url: '/api/licenses/offline-public-key' })).json().Result
    .PublicKeyPem;
});
afterAll(() => t.close());

const product = 'SoundIDReference';
const deactivate = (token: string, file: string) => t.call('/api/licenses/OfflineDeactivate', { file }, token);
const reasonOf = (res: { json(): { Fault: { ExceptionVariables: { Key: string; Value: string }[] } } }) =>
  res.json().Fault.ExceptionVariables.find((v) => v.Key === 'Reason')?.Value;

/** A customer with a Reference key and a machine activated offline: the licence file's text and its device. */
async function offlineCustomer(email: string, machineId = `${email.split('@')[0]}-m1`) {
  const token = await signUpVerified(t, email);
  await ownKey(t, token, 'sid-reference');
  const swinfo = JSON.stringify({
    format: 'soundid-swinfo',
    version: 1,
    productName: product,
    machineId,
    deviceName: 'Air-gapped studio',
    nonce: 'n0nce-n0nce-n0nce-off1',
  });
  const res = await t.call('/api/licenses/OfflineActivate', { swinfo }, token);
  if (res.statusCode !== 200) throw new Error(res.body);
  const { Content: licence, DeviceId: deviceId } = res.json().Result as { Content: string; DeviceId: string };
  return { token, licence, deviceId, machineId };
}

const devicesOf = async (token: string) =>
  (await licenceList(t, token)).ReferenceProducts.Products[0].Devices.map((d: { DeviceId: string }) => d.DeviceId);
const deactivationsLeft = async (token: string) =>
  (await t.call('/api/licenses/GetDeactivationAllowance', { productName: product }, token)).json().Result
    .DeactivationsLeft;
const chargedToKeys = async (email: string) =>
  (
    (await t.database.db.execute(
      sql`select count(*)::int as n from key_deactivations k join license_keys l on l.id = k.key_id join users u on u.id = l.user_id where u.email = ${email}`,
    )) as unknown as { rows: { n: number }[] }
  ).rows[0]?.n;

/** A request whose fields are changed after the app proved them (a proof that no longer matches). */
function tampered(request: string, change: Record<string, unknown>): string {
  return JSON.stringify({ ...JSON.parse(request), ...change });
}

describe('offline deactivation', () => {
  it('frees the seat outside the allowance and answers a receipt that verifies with the public key (ASVS 2.3.2)', async () => {
    const email = 'offdeact.one@example.com';
    const { token, licence, deviceId, machineId } = await offlineCustomer(email);
    // The licence file carries the removal secret; verifying apps read the rest as before.
    const payload = verifyOfflineLicense(licence, publicKeyPem, machineId);
    expect(payload.removalSecret).toMatch(/^[A-Za-z0-9_-]{43}$/);

    const request = writeDeactivationRequest(licence, t.clock.now());
    // What the request copies from the licence file, and the receipt repeats.
    const licenceFields = {
      version: 1,
      licenseId: deviceId,
      productName: product,
      machineId,
      nonce: 'n0nce-n0nce-n0nce-off1',
      removedAt: t.clock.now().toISOString(),
    };
    const { proof } = JSON.parse(request);
    expect(JSON.parse(request)).toEqual({ format: DEACTIVATION_REQUEST_FORMAT, ...licenceFields, proof });
    expect(proof).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const res = await deactivate(token, request);
    expect(res.statusCode).toBe(200);
    const result = res.json().Result;
    expect(result).toEqual({
      FileName: `${product}-offdeactone-m1.swreceipt`,
      Content: expect.any(String),
      DeviceId: deviceId,
      Message: 'Air-gapped studio was deactivated: its seat is free, and no deactivation was used.',
      InstancesUsed: 0,
      InstancesMax: 3,
    });
    expect(verifyDeactivationReceipt(result.Content, publicKeyPem, proof)).toEqual({
      format: 'soundid-deactivation-receipt',
      ...licenceFields,
      proof,
      deactivatedAt: t.clock.now().toISOString(),
    });
    // A receipt for another request, or a tampered one, does not verify.
    expect(() => verifyDeactivationReceipt(result.Content, publicKeyPem, 'x'.repeat(43))).toThrow(/another request/);
    const forgedReceipt = { ...JSON.parse(result.Content), payload: Buffer.from('{}').toString('base64url') };
    expect(() => verifyDeactivationReceipt(JSON.stringify(forgedReceipt), publicKeyPem)).toThrow(/signature/);
    // A licence file is not a receipt, though the same key signed it.
    expect(() => verifyDeactivationReceipt(licence, publicKeyPem)).toThrow(/not a SoundID deactivation receipt/);

    expect(await devicesOf(token)).toEqual([]);
    // Not counted: the allowance is whole and nothing is charged to the key (ADR 0030).
    expect(await deactivationsLeft(token)).toBe(DEVICE_DEACTIVATION_LIMIT);
    expect(await chargedToKeys(email)).toBe(0);
    // The customer's data export names the cause, as it names 'lost' (ADR 0038).
    const exported = (await t.call('/api/accounts/ExportMyData', {}, token)).json().Result;
    expect(exported.Devices.find((d: { MachineId: string }) => d.MachineId === machineId)).toMatchObject({
      Method: 'offline',
      DeactivationCause: 'offline',
      DeactivatedAt: expect.any(String),
    });
  });

  it('refuses a replayed file with a reason, and changes nothing (ASVS 2.3.2)', async () => {
    const email = 'offdeact.replay@example.com';
    const { token, licence, machineId } = await offlineCustomer(email);
    const request = writeDeactivationRequest(licence, t.clock.now());
    expect((await deactivate(token, request)).statusCode).toBe(200);
    // The machine is activated again (a new activation, a new licence file): the old file frees nothing.
    const again = await t.call(
      '/api/apps/ActivateDevice',
      { productName: product, machineId, deviceName: 'Air-gapped studio' },
      token,
    );
    const replayed = await deactivate(token, request);
    expect([replayed.statusCode, faultOf(replayed), reasonOf(replayed)]).toEqual([
      400,
      'OfflineDeactivationInvalid',
      deactivationRefusals.replayed,
    ]);
    expect(await devicesOf(token)).toEqual([again.json().Result.DeviceId]);
  });

  it('refuses a forged proof or a file changed after it was proved, and changes nothing (ASVS 2.3.2, 11.2.4)', async () => {
    const { token, licence, deviceId } = await offlineCustomer('offdeact.forged@example.com');
    const request = writeDeactivationRequest(licence, t.clock.now());
    const fields = { ...JSON.parse(request) } as Record<string, unknown>;
    delete fields.proof;
    const forgeries = [
      // A proof made up, and one made with another secret (the file's secret is what proves removal).
      tampered(request, { proof: 'A'.repeat(43) }),
      tampered(request, {
        proof: deactivationProof(Buffer.alloc(32, 7).toString('base64url'), fields as never),
      }),
      // Proved fields changed afterwards.
      tampered(request, { removedAt: '2020-01-01T00:00:00Z' }),
      tampered(request, { nonce: 'another-nonce-another' }),
      tampered(request, { machineId: 'someone-elses-machine' }),
    ];
    for (const forged of forgeries) {
      const res = await deactivate(token, forged);
      expect([res.statusCode, faultOf(res), reasonOf(res)]).toEqual([
        400,
        'OfflineDeactivationInvalid',
        deactivationRefusals.forged,
      ]);
    }
    // The licence file's own secret over another machine: proved, but not this device's machine.
    const secret = verifyOfflineLicense(licence, publicKeyPem).removalSecret ?? '';
    const elsewhere = { ...fields, machineId: 'someone-elses-machine' };
    const misdirected = await deactivate(
      token,
      JSON.stringify({ ...elsewhere, proof: deactivationProof(secret, elsewhere as never) }),
    );
    expect(reasonOf(misdirected)).toBe(deactivationRefusals.otherMachine);
    expect(await devicesOf(token)).toEqual([deviceId]);
  });

  it("answers DeviceNotFound for another customer's device or an unknown one, and changes nothing (ASVS 8.2.2)", async () => {
    const owner = await offlineCustomer('offdeact.owner@example.com');
    const request = writeDeactivationRequest(owner.licence, t.clock.now());
    const stranger = await signUpVerified(t, 'offdeact.stranger@example.com');
    await ownKey(t, stranger, 'sid-reference');
    const foreign = await deactivate(stranger, request);
    expect([foreign.statusCode, faultOf(foreign)]).toEqual([404, 'DeviceNotFound']);
    // The same answer as a device that does not exist: nothing tells the stranger it does.
    const unknown = await deactivate(
      stranger,
      tampered(request, { licenseId: '00000000-0000-4000-8000-00000000dead' }),
    );
    expect([unknown.statusCode, faultOf(unknown)]).toEqual([404, 'DeviceNotFound']);
    expect(foreign.json().Fault.ExceptionUserText).toBe(unknown.json().Fault.ExceptionUserText);
    expect(await devicesOf(owner.token)).toEqual([owner.deviceId]);
  });

  it('says what is wrong with a bad file (ASVS 2.2.1)', async () => {
    const { token, licence, deviceId } = await offlineCustomer('offdeact.bad@example.com');
    const request = writeDeactivationRequest(licence, t.clock.now());
    const reason = async (text: string) => {
      const res = await deactivate(token, text);
      expect([res.statusCode, faultOf(res)]).toEqual([400, 'OfflineDeactivationInvalid']);
      return reasonOf(res);
    };
    expect(await reason('PK\u0003\u0004 binary')).toBe('The file is not an .swdeactivate request (not JSON).');
    expect(await reason('[1]')).toMatch(/not a JSON object/);
    // A licence file uploaded in its place.
    expect(await reason(licence)).toBe(
      'The file is not an .swdeactivate request (format is not "soundid-swdeactivate").',
    );
    expect(await reason(tampered(request, { version: 2 }))).toBe('Unsupported .swdeactivate version 2.');
    expect(await reason(tampered(request, { licenseId: 'not-a-uuid' }))).toBe(
      'Field licenseId is missing or not valid.',
    );
    expect(await reason(tampered(request, { proof: undefined }))).toBe('Field proof is missing or not valid.');
    expect(await reason(tampered(request, { extra: 1 }))).toBe('Unknown field extra.');
    const tooLarge = await deactivate(token, 'x'.repeat(SWDEACTIVATE_MAX_LENGTH + 1));
    expect(faultOf(tooLarge)).toBe('RequestInvalid');
    expect(faultOf(await t.call('/api/licenses/OfflineDeactivate', { file: request }))).toBe(
      'SecurityAuthTokenNotPassed',
    );
    expect(await devicesOf(token)).toEqual([deviceId]);
  });

  it('cannot deactivate with a licence file issued before offline deactivation: it has no removal secret', async () => {
    const { licence } = await offlineCustomer('offdeact.old@example.com');
    const file = JSON.parse(licence);
    const payload = JSON.parse(Buffer.from(file.payload, 'base64url').toString('utf8'));
    delete payload.removalSecret;
    const older = JSON.stringify({ ...file, payload: Buffer.from(JSON.stringify(payload)).toString('base64url') });
    expect(() => writeDeactivationRequest(older, t.clock.now())).toThrow(
      /issued before offline deactivation .* deactivate the machine on the devices panel instead/,
    );
  });

  it('is refused where offline activation is switched off (ADR 0013)', async () => {
    const { licence } = await offlineCustomer('offdeact.switch@example.com');
    const off = await createTestApp({ OFFLINE_ACTIVATION: 'false' });
    try {
      const token = await signUpVerified(off, 'offdeact.off@example.com');
      const res = await off.call(
        '/api/licenses/OfflineDeactivate',
        { file: writeDeactivationRequest(licence, t.clock.now()) },
        token,
      );
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OfflineActivationDisabled']);
    } finally {
      await off.close();
    }
  });
});
