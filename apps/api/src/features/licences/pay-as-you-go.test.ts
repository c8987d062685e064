import { voiceAiStatusText } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { activate, adminCall, DAY_HOURS, getAction, licenceList, ownKey, signIn } from './test-helpers';

/**
 * Pay-as-you-go seats (ADR 0009): a customer who holds a spendable token lot may activate
 * SoundID VoiceAI on InstancesMax devices, licence kind Tokens, for as long as tokens are left.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const VOICE = 'SoundIDVoiceAI';
const check = (token: string, productName: string, machineId: string) =>
  t.call('/api/apps/CheckLicense', { productName, machineId }, token);
const spend = (token: string, seconds: number, requestId: string) =>
  t.call('/api/apps/ConsumeTokens', { seconds, requestId }, token);

async function grantTokens(email: string, amount: number): Promise<void> {
  const res = await adminCall(t, '/api/admin/grant-tokens', { email, amount });
  if (res.statusCode !== 200) throw new Error(`grant-tokens failed: ${res.body}`);
}

describe('pay-as-you-go seats', () => {
  it('a spendable token lot gives InstancesMax seats of kind Tokens until the tokens are spent', async () => {
    const token = await signUpVerified(t, 'payg@example.com');
    expect(faultOf(await activate(t, token, VOICE, 'payg-machine-1'))).toBe('NoLicenseForProduct');
    expect((await check(token, VOICE, 'payg-machine-1')).json().Result).toMatchObject({
      Licensed: false,
      LicenseKind: 'None',
      TokenBalance: 0,
      InstancesMax: 0,
    });

    await grantTokens('payg@example.com', 100);
    const first = await activate(t, token, VOICE, 'payg-machine-1', 'Vocal booth');
    expect(first.json().Result).toEqual({ DeviceId: expect.any(String), InstancesUsed: 1, InstancesMax: 2 });
    expect((await activate(t, token, VOICE, 'payg-machine-2')).json().Result.InstancesUsed).toBe(2);
    expect(faultOf(await activate(t, token, VOICE, 'payg-machine-3'))).toBe('SeatLimitReached');
    expect((await check(token, VOICE, 'payg-machine-1')).json().Result).toEqual({
      Licensed: true,
      LicenseKind: 'Tokens',
      TrialEndsAt: null,
      DeviceId: first.json().Result.DeviceId,
      InstancesUsed: 2,
      InstancesMax: 2,
      TokenBalance: 100,
    });

    const status = (await licenceList(t, token)).VoiceAIProducts;
    expect(status.Notifications).toEqual([
      { Message: voiceAiStatusText.payAsYouGoActive, Importance: 'Low', Action: null },
    ]);
    expect(status.LicenseStatus).toMatchObject({
      TokenStatus: 'Pay-as-you-go: 100 tokens (about 10 seconds of processing).',
      StatusWarning: null,
      IsManageable: true,
      InstancesUsed: 2,
    });
    expect(status.LicenseStatus.ActionButtons[0]).toMatchObject({ Functionality: 'AppActivate', IsEnabled: true });

    // 10 seconds cost 100 tokens: the balance is gone, and with it the seats.
    expect((await spend(token, 10, 'payg-spend-1')).json().Result).toEqual({ TokensSpent: 100, TokenBalance: 0 });
    expect((await check(token, VOICE, 'payg-machine-1')).json().Result).toMatchObject({
      Licensed: false,
      LicenseKind: 'None',
      TokenBalance: 0,
      InstancesUsed: 2,
    });
    expect(faultOf(await activate(t, token, VOICE, 'payg-machine-1'))).toBe('NoLicenseForProduct');
    expect((await licenceList(t, token)).VoiceAIProducts.LicenseStatus.TokenStatus).toBe(voiceAiStatusText.noLicence);

    // Buying again brings the same devices back without a new activation.
    await grantTokens('payg@example.com', 1000);
    expect((await check(token, VOICE, 'payg-machine-2')).json().Result).toMatchObject({
      Licensed: true,
      LicenseKind: 'Tokens',
      TokenBalance: 1000,
    });
  });

  it('tokens never license a product that is not paid with tokens', async () => {
    const token = await signUpVerified(t, 'payg.reference@example.com');
    await grantTokens('payg.reference@example.com', 5000);
    expect(faultOf(await activate(t, token, 'SoundIDReference', 'payg-ref-1'))).toBe('NoLicenseForProduct');
    expect((await check(token, 'SoundIDReference', 'payg-ref-1')).json().Result).toMatchObject({
      LicenseKind: 'None',
      TokenBalance: null,
    });
  });

  it('a perpetual key or a running trial comes first; removing the key leaves the token seats', async () => {
    const token = await signUpVerified(t, 'payg.perpetual@example.com');
    await grantTokens('payg.perpetual@example.com', 700);
    await ownKey(t, token, 'voice-ai');
    await activate(t, token, VOICE, 'perp-machine-1');
    await activate(t, token, VOICE, 'perp-machine-2');
    expect((await check(token, VOICE, 'perp-machine-1')).json().Result).toMatchObject({
      LicenseKind: 'Perpetual',
      TokenBalance: 700,
    });
    const listed = (await licenceList(t, token)).VoiceAIProducts;
    expect(listed.LicenseStatus.TokenStatus).toBe(voiceAiStatusText.perpetual);

    const remove = listed.LicenseStatus.ActionButtons.find(
      (b: { Functionality: string }) => b.Functionality === 'RemovePerpetual',
    );
    expect((await getAction(t, remove.ExternalRequest.Url, token)).statusCode).toBe(200);
    expect((await check(token, VOICE, 'perp-machine-2')).json().Result).toMatchObject({
      Licensed: true,
      LicenseKind: 'Tokens',
      InstancesUsed: 2,
      InstancesMax: 2,
    });
  });

  it('a running trial is the licence kind while it lasts, then the tokens carry on', async () => {
    const token = await signUpVerified(t, 'payg.trial@example.com');
    await grantTokens('payg.trial@example.com', 300);
    expect((await getAction(t, '/api/actions/trials/voice-ai/starttrial', token)).statusCode).toBe(200);
    await activate(t, token, VOICE, 'trial-machine-1');
    expect((await check(token, VOICE, 'trial-machine-1')).json().Result).toMatchObject({
      LicenseKind: 'Trial',
      TrialEndsAt: expect.stringMatching(/^\/Date\(\d+\)\/$/),
      TokenBalance: 300,
    });
    const duringTrial = (await licenceList(t, token)).VoiceAIProducts;
    expect(duringTrial.LicenseStatus.TokenStatus).toBe('Pay-as-you-go: 300 tokens (about 30 seconds of processing).');
    expect(duringTrial.Notifications[0]).toMatchObject({ Importance: 'Medium' });

    t.clock.advanceHours(8 * DAY_HOURS);
    const fresh = await signIn(t, 'payg.trial@example.com');
    expect((await check(fresh, VOICE, 'trial-machine-1')).json().Result).toMatchObject({
      Licensed: true,
      LicenseKind: 'Tokens',
      TrialEndsAt: null,
    });
    const afterTrial = (await licenceList(t, fresh)).VoiceAIProducts;
    expect(afterTrial.LicenseStatus.StatusWarning).toBeNull();
    expect(afterTrial.Notifications).toEqual([
      { Message: voiceAiStatusText.payAsYouGoActive, Importance: 'Low', Action: null },
    ]);
  });

  it('offline activation is refused to pay-as-you-go: tokens are spent online', async () => {
    const token = await signUpVerified(t, 'payg.offline@example.com');
    await grantTokens('payg.offline@example.com', 1000);
    const swinfo = JSON.stringify({
      format: 'soundid-swinfo',
      version: 1,
      productName: VOICE,
      machineId: 'payg-offline-1',
      deviceName: 'Laptop',
      nonce: 'n0nce-n0nce-n0nce-5678',
      appVersion: '2.1.0',
      os: 'macOS 15.1',
    });
    const res = await t.call('/api/licenses/OfflineActivate', { swinfo }, token);
    expect([res.statusCode, faultOf(res)]).toEqual([409, 'OfflineActivationNeedsLicence']);
    expect((await check(token, VOICE, 'payg-offline-1')).json().Result.InstancesUsed).toBe(0);
  });

  it('20 concurrent activations on token seats: exactly InstancesMax win', async () => {
    const token = await signUpVerified(t, 'payg.race@example.com');
    await grantTokens('payg.race@example.com', 1000);
    const results = await Promise.all(
      Array.from({ length: 20 }, (_, i) => activate(t, token, VOICE, `payg-racer-${String(i).padStart(2, '0')}`)),
    );
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(2);
    expect(results.filter((r) => faultOf(r) === 'SeatLimitReached')).toHaveLength(18);
    expect((await licenceList(t, token)).VoiceAIProducts.LicenseStatus.InstancesUsed).toBe(2);
  });

  it('tokens past their 12 months give no seats', async () => {
    const token = await signUpVerified(t, 'payg.expiry@example.com');
    await grantTokens('payg.expiry@example.com', 1000);
    await activate(t, token, VOICE, 'expiry-machine-1');
    t.clock.advanceHours(366 * DAY_HOURS);
    const fresh = await signIn(t, 'payg.expiry@example.com');
    expect((await check(fresh, VOICE, 'expiry-machine-1')).json().Result).toMatchObject({
      Licensed: false,
      LicenseKind: 'None',
      TokenBalance: 0,
    });
  });
});
