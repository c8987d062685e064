import { SANDBOX_TEST_CARDS, voiceAiStatusText } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { adminCall, DAY_HOURS, getAction, ownKey, signIn } from '../licences/test-helpers';
import { getTokenBundles } from './bundles';

/** POST /api/voiceai/GetProducts in every state of the customer's voice AI licence. */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** The voice AI status of GetAccountLicensesByProductLine (Licenses & Devices). */
const DAY_MS = DAY_HOURS * 3_600_000;
const voiceAiStatusOnList = async (token: string) => {
  const res = await t.call('/api/licenses/GetAccountLicensesByProductLine', {}, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Result.VoiceAIProducts.LicenseStatus;
};

const getProducts = async (token: string) => {
  const res = await t.call('/api/voiceai/GetProducts', {}, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Result;
};

/** A bundle bought through the sandbox card form: prepare, then pay with 4242. */
async function buyBundle(token: string, priceId: string): Promise<void> {
  const prepared = await t.call('/api/voiceai/PrepareTokenPurchaseCheckout', { priceId }, token);
  const paid = await t.call('/api/sandbox/checkout/pay', {
    clientSecret: prepared.json().Result.CheckoutSession,
    cardNumber: SANDBOX_TEST_CARDS.succeeds,
    expiry: '12/34',
    cvc: '123',
  });
  expect(paid.statusCode, paid.body).toBe(200);
}

describe('GetProducts', () => {
  it('a new customer: the trial offer with its server action, the bundles and the sandbox key', async () => {
    const token = await signUpVerified(t, 'products.new@example.com');
    const result = await getProducts(token);
    expect(result).toMatchObject({
      CanStartTrial: true,
      StatusWarning: null,
      TokenStatus: voiceAiStatusText.noLicence,
      StripePublicKey: expect.stringMatching(/^pk_sandbox_/),
    });
    expect(result.ActionButtons).toEqual([
      {
        Type: 'DeepLink',
        ActionText: 'Start 7-day free trial',
        Functionality: 'AppStartTrial',
        IsEnabled: true,
        ExternalRequest: {
          Type: 'DeepLink',
          Url: 'soundid://starttrial?product=SoundIDVoiceAI',
          ServerAction: { Id: 'voice-ai-starttrial', Url: '/api/actions/trials/voice-ai/starttrial' },
        },
      },
    ]);
    // The bundles on sale, as the catalogue lists them (their shape: checkout.test.ts).
    expect(result.TokenBundles).toEqual((await getTokenBundles(t.services.cardCheckout)).TokenBundles);
    expect(result.TokenBundles.map((b: { PriceId: string }) => b.PriceId)).toEqual([
      'price_sandbox_tokens_1000',
      'price_sandbox_tokens_5000',
      'price_sandbox_tokens_20000',
    ]);
  });

  it('after the trial started: no offer, the days left; after it ended: the warning', async () => {
    const token = await signUpVerified(t, 'products.trial@example.com');
    const action = (await getProducts(token)).ActionButtons[0].ExternalRequest.ServerAction.Url;
    expect((await getAction(t, action, token)).statusCode).toBe(200);
    expect(await getProducts(token)).toMatchObject({
      CanStartTrial: false,
      ActionButtons: [],
      TokenStatus: 'Free trial: 7 days left.',
      StatusWarning: null,
    });
  });

  it('with purchased tokens: the balance; a perpetual licence: unlimited processing, no trial', async () => {
    const token = await signUpVerified(t, 'products.tokens@example.com');
    await buyBundle(token, 'price_sandbox_tokens_5000');
    // The token line reads once (ADR 0056); the licence list keeps its own status line.
    expect(await getProducts(token)).toMatchObject({
      CanStartTrial: true,
      TokenStatus: 'Your tokens: 5,000 (about 8 minutes of processing).',
      StatusWarning: null,
      IsPerpetual: false,
      ExpiringTokens: [],
    });
    expect((await voiceAiStatusOnList(token)).TokenStatus).toBe(
      'Pay-as-you-go: 5,000 tokens (about 8 minutes of processing).',
    );

    // A Perpetual owner: the mode is active, and the tokens are still theirs to see (ADR 0056).
    await ownKey(t, token, 'voice-ai');
    expect(await getProducts(token)).toMatchObject({
      CanStartTrial: false,
      ActionButtons: [],
      TokenStatus: 'Your tokens: 5,000 (about 8 minutes of processing).',
      StatusWarning: null,
      IsPerpetual: true,
    });
    expect((await voiceAiStatusOnList(token)).TokenStatus).toBe(voiceAiStatusText.perpetual);
  });

  it('warns about tokens that expire within 30 days, then about the ended trial once they are gone', async () => {
    const token = await signUpVerified(t, 'products.expiry@example.com');
    expect((await getAction(t, '/api/actions/trials/voice-ai/starttrial', token)).statusCode).toBe(200);
    await adminCall(t, '/api/admin/grant-tokens', { email: 'products.expiry@example.com', amount: 1000 });
    t.clock.advanceHours(24);
    await adminCall(t, '/api/admin/grant-tokens', { email: 'products.expiry@example.com', amount: 250 });

    // 12 months less 14 days after the first grant.
    t.clock.advanceHours((365 - 14 - 1) * DAY_HOURS);
    let fresh = await signIn(t, 'products.expiry@example.com');
    expect(await getProducts(fresh)).toMatchObject({
      TokenStatus: 'Your tokens: 1,250 (about 2 minutes of processing).',
      StatusWarning: '1,000 tokens expire in 14 days.',
    });
    // Both lots expire within 30 days (ADR 0056): each with its date, earliest first.
    const expiring = (await getProducts(fresh)).ExpiringTokens;
    const now = t.clock.now().getTime();
    expect(expiring).toEqual([
      { Tokens: 1000, ExpiryDate: now + 14 * 86_400_000 },
      { Tokens: 250, ExpiryDate: now + 15 * 86_400_000 },
    ]);
    // Licenses & Devices lists them too.
    expect((await voiceAiStatusOnList(fresh)).ExpiringTokens).toEqual(expiring);

    t.clock.advanceHours(14 * DAY_HOURS);
    fresh = await signIn(t, 'products.expiry@example.com');
    expect(await getProducts(fresh)).toMatchObject({
      TokenStatus: 'Your tokens: 250 (about 25 seconds of processing).',
      StatusWarning: '250 tokens expire in 1 day.',
      ExpiringTokens: [{ Tokens: 250, ExpiryDate: expect.any(Number) }],
    });

    t.clock.advanceHours(2 * DAY_HOURS);
    fresh = await signIn(t, 'products.expiry@example.com');
    expect(await getProducts(fresh)).toMatchObject({
      CanStartTrial: false,
      TokenStatus: voiceAiStatusText.noLicenceAfterTrial,
      StatusWarning: voiceAiStatusText.trialEnded,
    });
  });

  it('reads the lots in the order spends take them: a later grant that expires sooner is lost, not spent first', async () => {
    const email = 'products.short-grant@example.com';
    const token = await signUpVerified(t, email);
    await adminCall(t, '/api/admin/grant-tokens', { email, amount: 1000 });
    // 300 tokens spent in the window: 10 a day.
    const spent = await t.call('/api/apps/ConsumeTokens', { seconds: 30, requestId: 'short-grant-1' }, token);
    expect(spent.statusCode, spent.body).toBe(200);
    await adminCall(t, '/api/admin/grant-tokens', { email, amount: 1000, expiresInDays: 5 });
    // The older 700 go first (70 days); the grant expires on day 5 untouched. Taken in expiry
    // order instead, 50 of the grant would be counted before it expires: 75 days.
    const products = await getProducts(await signIn(t, email));
    expect(products.TokenStatus).toBe(
      'Your tokens: 1,700 (about 2 minutes of processing). At your pace over the last 30 days, about 70 days.',
    );
    expect(products.ExpiringTokens).toEqual([{ Tokens: 1000, ExpiryDate: t.clock.now().getTime() + 5 * DAY_MS }]);
    // The status line's warning names the lot that expires first, not the first to be spent.
    expect((await voiceAiStatusOnList(await signIn(t, email))).StatusWarning).toContain('1,000');
  });

  it('says how long the balance lasts at the pace of the last 30 days, on both screens (ADR 0056)', async () => {
    const email = 'products.runway@example.com';
    const token = await signUpVerified(t, email);
    await adminCall(t, '/api/admin/grant-tokens', { email, amount: 1000 });
    expect((await getProducts(token)).TokenStatus).toBe('Your tokens: 1,000 (about 100 seconds of processing).');
    // 300 tokens in the window: 10 a day, so 700 last about 70 days.
    for (const [i, seconds] of [10, 20].entries()) {
      const spent = await t.call('/api/apps/ConsumeTokens', { seconds, requestId: `runway-${i}` }, token);
      expect(spent.statusCode, spent.body).toBe(200);
      t.clock.advanceHours(5 * DAY_HOURS);
    }
    const fresh = await signIn(t, email);
    expect((await getProducts(fresh)).TokenStatus).toBe(
      'Your tokens: 700 (about 70 seconds of processing). At your pace over the last 30 days, about 70 days.',
    );
    expect((await voiceAiStatusOnList(fresh)).TokenStatus).toBe(
      'Pay-as-you-go: 700 tokens (about 70 seconds of processing). At your pace over the last 30 days, about 70 days.',
    );
    // Once the spends are older than the window there is no pace to tell.
    t.clock.advanceHours(26 * DAY_HOURS);
    const later = await signIn(t, email);
    expect((await getProducts(later)).TokenStatus).toBe('Your tokens: 700 (about 70 seconds of processing).');
  });

  it('needs a session and takes no fields', async () => {
    const anonymous = await t.call('/api/voiceai/GetProducts', {});
    expect([anonymous.statusCode, faultOf(anonymous)]).toEqual([401, 'SecurityAuthTokenNotPassed']);
    const token = await signUpVerified(t, 'products.input@example.com');
    const extra = await t.call('/api/voiceai/GetProducts', { everything: true }, token);
    expect([extra.statusCode, faultOf(extra)]).toEqual([400, 'RequestInvalid']);
  });
});

describe('GetProducts while the payment provider is down', () => {
  let down: TestApp;
  beforeAll(async () => {
    down = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_down',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_down',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_down',
      STRIPE_API_URL: 'http://127.0.0.1:1',
    });
  });
  afterAll(() => down.close());

  it('still answers the trial offer and status, without bundles', async () => {
    const token = await signUpVerified(down, 'products.down@example.com');
    const res = await down.call('/api/voiceai/GetProducts', {}, token);
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toMatchObject({ CanStartTrial: true, TokenBundles: [], StripePublicKey: '' });
  });
});
