import { DEVICE_DEACTIVATION_LIMIT, parseDotNetDate, STEP_UP_WINDOW_MINUTES } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { activate, adminCall, DAY_HOURS, getAction, licenceList, ownKey, signIn } from './test-helpers';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const check = (token: string, productName: string, machineId: string) =>
  t.call('/api/apps/CheckLicense', { productName, machineId }, token);
const deactivateApp = (token: string, productName: string, machineId: string) =>
  t.call('/api/apps/DeactivateDevice', { productName, machineId }, token);

describe('deactivation from the portal', () => {
  it('asks for a step-up once the proof of presence is older than the window; after one, the seat is freed (ADR 0040, ASVS 7.5.3)', async () => {
    const email = 'remote.stepup@example.com';
    const first = await signUpVerified(t, email);
    await ownKey(t, first, 'sid-reference');
    const deviceId = (await activate(t, first, 'SoundIDReference', 'remote-1', 'Far away')).json().Result.DeviceId;
    // A sign-in with the password proves presence for STEP_UP_WINDOW_MINUTES; past it, none.
    const token = await signIn(t, email);
    t.clock.advanceMinutes(STEP_UP_WINDOW_MINUTES + 1);
    const refused = await getAction(t, `/api/actions/devices/${deviceId}/deactivate`, token);
    expect([refused.statusCode, faultOf(refused)]).toEqual([403, 'StepUpRequired']);
    expect((await licenceList(t, token)).ReferenceProducts.Products[0].InstancesUsed).toBe(1);
    expect((await t.call('/api/accounts/StepUp', { method: 'Password', password: PASSWORD }, token)).statusCode).toBe(
      200,
    );
    expect((await getAction(t, `/api/actions/devices/${deviceId}/deactivate`, token)).statusCode).toBe(200);
    expect((await licenceList(t, token)).ReferenceProducts.Products[0].InstancesUsed).toBe(0);
    // The app deactivating its own machine needs none: it is the machine.
    expect((await activate(t, token, 'SoundIDReference', 'remote-2')).statusCode).toBe(200);
    t.clock.advanceMinutes(STEP_UP_WINDOW_MINUTES + 1);
    expect((await deactivateApp(token, 'SoundIDReference', 'remote-2')).statusCode).toBe(200);
  });
});

describe('desktop-app activation', () => {
  it('activates up to InstancesMax devices, the same machine once, and checks and deactivates', async () => {
    const token = await signUpVerified(t, 'apps@example.com');
    const noLicence = await activate(t, token, 'SoundIDReference', 'machine-0001');
    expect([noLicence.statusCode, faultOf(noLicence)]).toEqual([403, 'NoLicenseForProduct']);
    expect(faultOf(await activate(t, token, 'NoSuchProduct', 'machine-0001'))).toBe('ProductNotFound');
    expect(faultOf(await activate(t, token, 'VoiceAIPackPop', 'machine-0001'))).toBe('ProductNotFound');

    await ownKey(t, token, 'sid-reference');
    const first = await activate(t, token, 'SoundIDReference', 'machine-0001', 'Studio iMac');
    const activatedAt = t.clock.now();
    t.clock.advanceMinutes(1);
    expect(first.json()).toEqual({
      Success: true,
      Result: { DeviceId: expect.any(String), InstancesUsed: 1, InstancesMax: 3 },
    });
    const again = await activate(t, token, 'soundidreference', 'machine-0001', 'Studio iMac');
    expect(again.json().Result).toEqual({ DeviceId: first.json().Result.DeviceId, InstancesUsed: 1, InstancesMax: 3 });
    expect((await activate(t, token, 'SoundIDReference', 'machine-0002')).json().Result.InstancesUsed).toBe(2);
    t.clock.advanceMinutes(1);
    expect((await activate(t, token, 'SoundIDReference', 'machine-0003')).json().Result.InstancesUsed).toBe(3);
    const full = await activate(t, token, 'SoundIDReference', 'machine-0004');
    expect([full.statusCode, faultOf(full)]).toEqual([409, 'SeatLimitReached']);

    expect((await check(token, 'SoundIDReference', 'machine-0001')).json().Result).toEqual({
      Licensed: true,
      LicenseKind: 'Perpetual',
      TrialEndsAt: null,
      DeviceId: first.json().Result.DeviceId,
      InstancesUsed: 3,
      InstancesMax: 3,
      TokenBalance: null,
    });
    expect((await check(token, 'SoundIDReference', 'machine-0004')).json().Result).toMatchObject({
      Licensed: false,
      DeviceId: null,
    });

    const product = (await licenceList(t, token)).ReferenceProducts.Products[0];
    expect(product.InstancesUsed).toBe(3);
    expect(product.Devices[0]).toMatchObject({ DeviceId: first.json().Result.DeviceId, Name: 'Studio iMac' });
    expect(parseDotNetDate(product.Devices[0].TimeActivated)).toEqual(activatedAt);
    expect(product.Devices[0].ActionButtons[0].ExternalRequest).toEqual({
      Type: 'BackendThenReload',
      Url: `/api/actions/devices/${first.json().Result.DeviceId}/deactivate`,
      ServerAction: null,
    });

    expect((await deactivateApp(token, 'SoundIDReference', 'machine-0001')).json().Result).toEqual({
      InstancesUsed: 2,
      InstancesMax: 3,
    });
    expect(faultOf(await deactivateApp(token, 'SoundIDReference', 'machine-0001'))).toBe('DeviceNotFound');
    expect((await activate(t, token, 'SoundIDReference', 'machine-0004')).json().Result.InstancesUsed).toBe(3);
  });

  it('needs a session and validates the body', async () => {
    const anonymous = await t.call('/api/apps/ActivateDevice', {
      productName: 'SoundIDReference',
      machineId: 'machine-0001',
      deviceName: 'x',
    });
    expect(faultOf(anonymous)).toBe('SecurityAuthTokenNotPassed');
    const token = await signUpVerified(t, 'apps.bad@example.com');
    const bad = await t.call('/api/apps/ActivateDevice', { productName: 'SoundIDReference', machineId: 'a b' }, token);
    expect([bad.statusCode, faultOf(bad)]).toEqual([400, 'RequestInvalid']);
  });
});

describe('deactivation from the portal', () => {
  it('deactivates by action URL, scoped to the owner, within the deactivation limit', async () => {
    const ann = await signUpVerified(t, 'ann.dev@example.com');
    const bob = await signUpVerified(t, 'bob.dev@example.com');
    await ownKey(t, ann, 'ref4-studio');
    const id = (await activate(t, ann, 'Reference4Studio', 'ann-machine-1', 'Mix room')).json().Result.DeviceId;
    const url = `/api/actions/devices/${id}/deactivate`;

    const other = await getAction(t, url, bob);
    expect([other.statusCode, faultOf(other)]).toEqual([404, 'DeviceNotFound']);
    // Signed in by cookie, an action URL needs the Software header: a link on another site cannot deactivate.
    const cookieOnly = await getAction(t, url, undefined, { cookie: `soundid_session=${ann}` });
    expect([cookieOnly.statusCode, faultOf(cookieOnly)]).toEqual([403, 'SoftwareHeaderMissing']);
    expect(faultOf(await getAction(t, '/api/actions/devices/not-a-uuid/deactivate', ann))).toBe('RequestInvalid');

    const done = await getAction(t, url, undefined, { cookie: `soundid_session=${ann}`, software: 'MySoundID' });
    expect(done.json()).toEqual({ Success: true, Result: { Message: 'Mix room deactivated successfully.' } });
    expect(faultOf(await getAction(t, url, ann))).toBe('DeviceNotFound');

    // Up to the limit in the rolling window (this one already counted), then KeyRevokeOverLimit.
    for (let i = 1; i < DEVICE_DEACTIVATION_LIMIT; i++) {
      const next = (await activate(t, ann, 'Reference4Studio', `ann-machine-${i + 1}`)).json().Result.DeviceId;
      const r =
        i % 2
          ? await getAction(t, `/api/actions/devices/${next}/deactivate`, ann)
          : await deactivateApp(ann, 'Reference4Studio', `ann-machine-${i + 1}`);
      expect(r.statusCode).toBe(200);
    }
    const last = (await activate(t, ann, 'Reference4Studio', 'ann-machine-last')).json().Result.DeviceId;
    const over = await getAction(t, `/api/actions/devices/${last}/deactivate`, ann);
    expect([over.statusCode, faultOf(over)]).toEqual([429, 'KeyRevokeOverLimit']);
    expect(over.json().Fault.ExceptionVariables).toEqual([
      { Key: 'Limit', Value: '10' },
      { Key: 'WindowDays', Value: '365' },
    ]);
    expect(faultOf(await deactivateApp(ann, 'Reference4Studio', 'ann-machine-last'))).toBe('KeyRevokeOverLimit');
    t.clock.advanceHours(366 * DAY_HOURS);
    const later = await signIn(t, 'ann.dev@example.com');
    expect((await getAction(t, `/api/actions/devices/${last}/deactivate`, later)).statusCode).toBe(200);
  });

  it('removing a key deactivates the devices beyond the seats that remain', async () => {
    const token = await signUpVerified(t, 'shrink@example.com');
    await ownKey(t, token, 'ref4-hp');
    await ownKey(t, token, 'ref4-hp');
    for (const m of ['m-0000001', 'm-0000002', 'm-0000003', 'm-0000004']) {
      t.clock.advanceMinutes(1);
      expect((await activate(t, token, 'Reference4Headphone', m)).statusCode).toBe(200);
    }
    const product = (await licenceList(t, token)).ReferenceProducts.Products[0];
    expect([product.InstancesUsed, product.InstancesMax]).toEqual([4, 4]);
    await getAction(t, product.LicenseKeys[1].ActionButtons[0].ExternalRequest.Url, token);
    const after = (await licenceList(t, token)).ReferenceProducts.Products[0];
    expect([after.InstancesUsed, after.InstancesMax]).toEqual([2, 2]);
    expect(after.Devices.map((d: { Name: string }) => d.Name)).toHaveLength(2);
    expect((await check(token, 'Reference4Headphone', 'm-0000001')).json().Result.Licensed).toBe(true);
    expect((await check(token, 'Reference4Headphone', 'm-0000004')).json().Result.Licensed).toBe(false);
  });
});

describe('trials and server actions', () => {
  it('starts the 21-day reference trial once; it ends on time', async () => {
    let token = await signUpVerified(t, 'trial@example.com');
    const before = (await licenceList(t, token)).ReferenceProducts;
    expect(before.AvailableTrials).toEqual([{ DeepLinkUrl: 'soundid://starttrial?product=SoundIDReference' }]);
    expect(before.Products).toEqual([]);
    expect(before.ActionButtons.map((b: { Functionality: string }) => b.Functionality)).toEqual(['Download', 'Buy']);

    const activateAction = '/api/actions/products/sid-reference/activate';
    expect(faultOf(await getAction(t, activateAction, token))).toBe('NoLicenseForProduct');
    const started = await getAction(t, '/api/actions/trials/sid-reference/starttrial', token);
    const ends = new Date(t.clock.now().getTime() + 21 * 86_400_000);
    expect(started.json()).toEqual({
      Success: true,
      Result: { Message: 'Trial activated successfully', TrialEndsAt: `/Date(${ends.getTime()})/` },
    });
    expect(
      (await getAction(t, '/api/actions/trials/SoundIDReference/starttrial', token)).json().Result.TrialEndsAt,
    ).toBe(`/Date(${ends.getTime()})/`);
    expect((await getAction(t, activateAction, token)).statusCode).toBe(200);

    const during = (await licenceList(t, token)).ReferenceProducts;
    expect(during.AvailableTrials).toEqual([]);
    expect(during.Products[0]).toMatchObject({ ProductName: 'SoundIDReference', InstancesMax: 3, LicenseKeys: [] });
    expect(during.Products[0].Notifications[0]).toMatchObject({
      Message: 'Your trial of SoundID Reference for Speakers & Headphones ends in 21 days.',
      Importance: 'Medium',
    });
    expect((await activate(t, token, 'SoundIDReference', 'trial-machine')).statusCode).toBe(200);
    expect((await check(token, 'SoundIDReference', 'trial-machine')).json().Result).toMatchObject({
      Licensed: true,
      LicenseKind: 'Trial',
      TrialEndsAt: `/Date(${ends.getTime()})/`,
    });

    t.clock.advanceHours(22 * DAY_HOURS);
    token = await signIn(t, 'trial@example.com');
    expect((await check(token, 'SoundIDReference', 'trial-machine')).json().Result).toMatchObject({
      Licensed: false,
      LicenseKind: 'None',
      InstancesMax: 0,
    });
    const ended = (await licenceList(t, token)).ReferenceProducts.Products[0];
    expect(ended.Notifications[0]).toMatchObject({ Importance: 'High', Action: { Functionality: 'Buy' } });
    const again = await getAction(t, '/api/actions/trials/sid-reference/starttrial', token);
    expect([again.statusCode, faultOf(again)]).toEqual([409, 'TrialAlreadyUsed']);
    expect(faultOf(await activate(t, token, 'SoundIDReference', 'trial-machine-2'))).toBe('NoLicenseForProduct');
    expect(faultOf(await getAction(t, '/api/actions/trials/ref4-studio/starttrial', token))).toBe('TrialNotAvailable');
    expect(faultOf(await getAction(t, '/api/actions/trials/nothing/starttrial', token))).toBe('ProductNotFound');
  });

  it('starts the 7-day voice AI trial from the voice section’s server action', async () => {
    const token = await signUpVerified(t, 'voice.trial@example.com');
    const button = (await licenceList(t, token)).VoiceAIProducts.LicenseStatus.ActionButtons[0];
    expect(button).toMatchObject({
      Type: 'DeepLink',
      Functionality: 'AppStartTrial',
      ExternalRequest: {
        Type: 'DeepLink',
        Url: 'soundid://starttrial?product=SoundIDVoiceAI',
        ServerAction: { Id: 'voice-ai-starttrial', Url: '/api/actions/trials/voice-ai/starttrial' },
      },
    });
    expect((await getAction(t, button.ExternalRequest.ServerAction.Url, token)).statusCode).toBe(200);
    const voice = (await licenceList(t, token)).VoiceAIProducts;
    expect(voice.LicenseStatus.TokenStatus).toBe('Free trial: 7 days left.');
    expect(voice.LicenseStatus.ActionButtons[0].ExternalRequest.ServerAction.Id).toBe('voice-ai-activate');
    expect(voice.Notifications[0].Importance).toBe('Medium');
    expect((await activate(t, token, 'SoundIDVoiceAI', 'voice-machine')).json().Result.InstancesMax).toBe(2);
    expect((await licenceList(t, token)).VoiceAIProducts.LicenseStatus.InstancesUsed).toBe(1);

    t.clock.advanceHours(8 * DAY_HOURS);
    const ended = (await licenceList(t, token)).VoiceAIProducts;
    expect(ended.LicenseStatus.StatusWarning).toBe('Your free trial has ended.');
    expect(ended.Notifications[0].Importance).toBe('High');
  });
});

describe('Campaign/ClaimAdam60Day', () => {
  it('claims a 60-day trial with a serial, once per serial', async () => {
    await adminCall(t, '/api/admin/add-serials', { serials: ['ADAM-A77X-0042', 'ADAM-A77X-0043'] });
    const ann = await signUpVerified(t, 'ann.adam@example.com');
    const bob = await signUpVerified(t, 'bob.adam@example.com');
    const claim = (serial: string, token: string) => t.call('/api/accounts/Campaign/ClaimAdam60Day', { serial }, token);

    const unknown = await claim('ADAM-NOPE-0000', ann);
    expect([unknown.statusCode, faultOf(unknown)]).toEqual([404, 'SerialNotFound']);
    expect(faultOf(await claim('SHORT', ann))).toBe('RequestInvalid');
    expect(faultOf(await claim('A'.repeat(25), ann))).toBe('RequestInvalid');

    const ends = new Date(t.clock.now().getTime() + 60 * 86_400_000);
    expect((await claim(' adam-a77x-0042 ', ann)).json()).toEqual({
      Success: true,
      Result: { ProductName: 'SoundIDReference', TrialEndsAt: `/Date(${ends.getTime()})/` },
    });
    const used = await claim('ADAM-A77X-0042', bob);
    expect([used.statusCode, faultOf(used)]).toEqual([409, 'SerialAlreadyUsed']);
    expect(faultOf(await claim('ADAM-A77X-0042', ann))).toBe('SerialAlreadyUsed');

    const product = (await licenceList(t, ann)).ReferenceProducts.Products[0];
    expect(product.Notifications[0].Message).toBe(
      'Your 60-day trial of SoundID Reference for Speakers & Headphones ends in 60 days.',
    );
    expect((await activate(t, ann, 'SoundIDReference', 'adam-machine')).statusCode).toBe(200);
    // The claim used the product's trial: the 21-day trial is not offered on top.
    expect((await licenceList(t, ann)).ReferenceProducts.AvailableTrials).toEqual([]);
  });
});
