import { SANDBOX_PUBLISHABLE_KEY_PREFIX } from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { deliverSigned, PAID_5K, paidSessionEvent } from '../../../test/payment-webhooks';
import { loadConfig } from '../../config';
import { paymentWebhookEvents } from '../../db/payments-schema';
import { deriveSandboxWebhookSecret, sandboxSessionIdOf } from '../../dev/stripe-sandbox/provider';
import { getTokenBundles } from './bundles';
import { resolveReturnUrl } from './checkout';

const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
const SANDBOX_SECRET = deriveSandboxWebhookSecret(SESSION_SECRET);
const PRICE_5K = 'price_sandbox_tokens_5000';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET });
});
afterAll(() => t.close());

const prepare = (token: string, body: Record<string, unknown>) =>
  t.call('/api/voiceai/PrepareTokenPurchaseCheckout', body, token);
const pay = (clientSecret: string, cardNumber: string, extra: Record<string, string> = {}) =>
  t.call('/api/sandbox/checkout/pay', { clientSecret, cardNumber, expiry: '12/34', cvc: '123', ...extra });
const status = (token: string, invoiceTag: string) => t.call('/api/voiceai/GetPaymentStatus', { invoiceTag }, token);
const purchases = async (token: string) =>
  (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems as {
    TokenAmount: number;
    Type: string;
    TokenBalance: number;
  }[];

async function prepared(token: string, priceId = PRICE_5K) {
  const res = await prepare(token, { priceId });
  expect(res.statusCode).toBe(200);
  return res.json().Result as { CheckoutSession: string; InvoiceTag: string; StripePublicKey: string };
}

describe('token bundle catalogue (sandbox)', () => {
  it('lists the bundles in the spec shape with a sandbox public key', async () => {
    const { TokenBundles, StripePublicKey } = await getTokenBundles(t.services.cardCheckout);
    expect(StripePublicKey.startsWith(SANDBOX_PUBLISHABLE_KEY_PREFIX)).toBe(true);
    expect(TokenBundles.map((b) => b.PriceAmountInCents)).toEqual([999, 3999, 13999]);
    expect(TokenBundles[1]).toEqual({
      PriceId: PRICE_5K,
      PriceText: '$39.99',
      PriceAmount: 39.99,
      PriceAmountInCents: 3999,
      Currency: 'USD',
      Metadata: [
        { Key: 'Title', Value: 'Producer' },
        { Key: 'Contents', Value: '5,000 tokens' },
        { Key: 'Description', Value: expect.any(String) },
        { Key: 'UiFlags', Value: 'IsMostPopular' },
      ],
      PriceMetadata: [{ Key: 'NewPriceText', Value: 'Save 20%' }],
    });
  });
});

describe('sandbox checkout', () => {
  it('prepare → pay 4242 → succeeded, the bundle credited once, analytics for the data layer', async () => {
    const token = await signUpVerified(t, 'buyer@example.com');
    const res = await prepare(token, {
      priceId: PRICE_5K,
      metadata: [
        { Key: 'ga_client_id', Value: 'GA1.1.123.456' },
        { Key: 'affiliate', Value: 'partner-7' },
      ],
    });
    expect(res.statusCode).toBe(200);
    const result = res.json().Result;
    expect(result).toMatchObject({
      CheckoutSession: expect.stringMatching(/^cs_sandbox_\w+_secret_\w+$/),
      InvoiceTag: expect.stringMatching(/^inv_[\w-]{24}$/),
      StripePublicKey: expect.stringMatching(/^pk_sandbox_/),
      TokenBundle: { SKU: PRICE_5K, Title: 'Producer', Currency: 'USD', PriceAmountInCents: 3999 },
    });

    // Pending: 'none' (the SPA asks again).
    expect((await status(token, result.InvoiceTag)).json().Result).toEqual({
      PaymentIntentStatus: 'none',
      AnalyticsMetadata: null,
    });

    const session = await t.call('/api/sandbox/checkout/session', { clientSecret: result.CheckoutSession });
    expect(session.json().Result).toMatchObject({
      InvoiceTag: result.InvoiceTag,
      PriceText: '$39.99',
      Email: 'buyer@example.com',
      Status: 'open',
    });

    const paid = await pay(result.CheckoutSession, '4242 4242 4242 4242');
    expect(paid.statusCode).toBe(200);
    expect(paid.json().Result).toEqual({
      Outcome: 'succeeded',
      InvoiceTag: result.InvoiceTag,
      ReturnUrl: expect.stringMatching(
        new RegExp(
          `^http://localhost:3000/products/post-checkout\\?invoice_tag=${result.InvoiceTag}&session_id=cs_sandbox_`,
        ),
      ),
    });

    expect((await status(token, result.InvoiceTag)).json().Result).toEqual({
      PaymentIntentStatus: 'succeeded',
      AnalyticsMetadata: {
        TransactionId: result.InvoiceTag,
        Value: 39.99,
        Currency: 'USD',
        Items: [{ ItemId: PRICE_5K, ItemName: 'Producer', Price: 39.99, ItemCategory: 'One-off', Quantity: 1 }],
      },
    });
    expect(await purchases(token)).toEqual([expect.objectContaining({ TokenAmount: 5000, Type: 'Purchased' })]);

    // Paying again (a double click) neither charges nor credits again.
    expect((await pay(result.CheckoutSession, '4242424242424242')).json().Result.Outcome).toBe('succeeded');
    expect(await purchases(token)).toHaveLength(1);
    expect(
      (await t.call('/api/sandbox/checkout/session', { clientSecret: result.CheckoutSession })).json().Result.Status,
    ).toBe('complete');
  });

  it('4000 0000 0000 0002 is declined: failed status, the decline recorded, nothing credited; another card may follow', async () => {
    const token = await signUpVerified(t, 'declined@example.com');
    const { CheckoutSession, InvoiceTag } = await prepared(token);
    const declined = await pay(CheckoutSession, '4000 0000 0000 0002');
    expect(declined.statusCode).toBe(402);
    expect(faultOf(declined)).toBe('CardDeclined');
    expect(declined.json().Fault.ExceptionVariables).toContainEqual({ Key: 'DeclineCode', Value: 'generic_decline' });

    expect((await status(token, InvoiceTag)).json().Result).toEqual({
      PaymentIntentStatus: 'requires_payment_method',
      AnalyticsMetadata: null,
    });
    expect(await purchases(token)).toEqual([]);
    const events = await t.database.db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.invoiceTag, InvoiceTag));
    expect(events).toEqual([
      expect.objectContaining({
        type: 'payment_intent.payment_failed',
        outcome: 'recorded',
        failureReason: 'generic_decline',
      }),
    ]);

    // As in Stripe's form, the customer may try another card in the same session.
    expect((await pay(CheckoutSession, '4242424242424242')).statusCode).toBe(200);
    expect((await status(token, InvoiceTag)).json().Result.PaymentIntentStatus).toBe('succeeded');
    expect((await purchases(token)).map((p) => p.TokenAmount)).toEqual([5000]);
  });

  it('refuses cards that are not test cards, past expiries and a wrong client secret', async () => {
    const token = await signUpVerified(t, 'cards@example.com');
    const { CheckoutSession } = await prepared(token);
    expect(faultOf(await pay(CheckoutSession, '4111 1111 1111 1112'))).toBe('CardInvalid');
    expect(faultOf(await pay(CheckoutSession, '4242424242424242', { expiry: '01/20' }))).toBe('CardInvalid');
    expect(faultOf(await pay(CheckoutSession, '4242424242424242', { cvc: '1' }))).toBe('CardInvalid');
    const forged = CheckoutSession.replace(/_secret_.*$/, '_secret_guessed');
    const wrong = await pay(forged, '4242424242424242');
    expect(wrong.statusCode).toBe(404);
    expect(faultOf(wrong)).toBe('CheckoutSessionNotFound');
  });

  it('an unpaid session expires after 24 hours', async () => {
    const token = await signUpVerified(t, 'late@example.com');
    const { CheckoutSession, InvoiceTag } = await prepared(token);
    t.clock.advanceHours(25);
    try {
      expect(faultOf(await pay(CheckoutSession, '4242424242424242'))).toBe('CheckoutSessionExpired');
      expect((await status(token, InvoiceTag)).json().Result.PaymentIntentStatus).toBe('canceled');
    } finally {
      t.clock.advanceHours(-25);
    }
  });
});

describe('PrepareTokenPurchaseCheckout', () => {
  it('needs a session', async () => {
    const res = await t.call('/api/voiceai/PrepareTokenPurchaseCheckout', { priceId: PRICE_5K });
    expect(res.statusCode).toBe(401);
  });

  it('an unknown price is a PriceNotFound fault', async () => {
    const token = await signUpVerified(t, 'unknown-price@example.com');
    const res = await prepare(token, { priceId: 'price_does_not_exist' });
    expect(res.statusCode).toBe(404);
    expect(faultOf(res)).toBe('PriceNotFound');
  });

  it('takes a returnUrl on this site only', async () => {
    const token = await signUpVerified(t, 'return@example.com');
    const onSite = await prepare(token, {
      priceId: PRICE_5K,
      returnUrl: 'http://localhost:3000/products/post-checkout',
    });
    expect(onSite.statusCode).toBe(200);
    const devServer = await prepare(token, {
      priceId: PRICE_5K,
      returnUrl: 'http://localhost:5173/products/post-checkout',
    });
    expect(devServer.statusCode).toBe(200);
    for (const returnUrl of ['https://evil.example/products/post-checkout', 'javascript:alert(1)', 'not a url']) {
      const res = await prepare(token, { priceId: PRICE_5K, returnUrl });
      expect(res.statusCode).toBe(400);
      expect(faultOf(res)).toBe('CheckoutReturnUrlNotAllowed');
    }
  });

  it('refuses malformed metadata', async () => {
    const token = await signUpVerified(t, 'meta@example.com');
    const res = await prepare(token, { priceId: PRICE_5K, metadata: [{ Key: 'bad[key]', Value: 'x' }] });
    expect(res.statusCode).toBe(400);
    expect(faultOf(res)).toBe('RequestInvalid');
  });
});

describe('GetPaymentStatus', () => {
  it("another customer's invoice tag is not found", async () => {
    const owner = await signUpVerified(t, 'owner@example.com');
    const other = await signUpVerified(t, 'other@example.com');
    const { InvoiceTag } = await prepared(owner);
    const res = await status(other, InvoiceTag);
    expect(res.statusCode).toBe(404);
    expect(faultOf(res)).toBe('PaymentNotFound');
    expect(faultOf(await status(owner, 'inv_doesnotexist000000'))).toBe('PaymentNotFound');
  });
});

describe('POST /api/webhooks/stripe (sandbox secret)', () => {
  it('a forged signature is a 400 Fault and credits nothing', async () => {
    const token = await signUpVerified(t, 'forged@example.com');
    const { CheckoutSession, InvoiceTag } = await prepared(token);
    const sessionId = sandboxSessionIdOf(CheckoutSession) as string;
    const event = paidSessionEvent('evt_forged_1', sessionId, InvoiceTag, t.clock.now(), PAID_5K);

    const wrongSecret = await deliverSigned(t, event, 'whsec_not_the_secret');
    expect(wrongSecret.statusCode).toBe(400);
    expect(faultOf(wrongSecret)).toBe('WebhookSignatureInvalid');

    const garbage = await deliverSigned(t, event, SANDBOX_SECRET, 't=1,v1=deadbeef');
    expect(faultOf(garbage)).toBe('WebhookSignatureInvalid');

    const unsigned = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload: JSON.stringify(event),
      headers: { 'content-type': 'application/json' },
    });
    expect(unsigned.statusCode).toBe(400);
    expect(faultOf(unsigned)).toBe('WebhookSignatureInvalid');

    // A body changed after signing (the amount, the session) fails too.
    const payload = JSON.stringify(event);
    const { default: Stripe } = await import('stripe');
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: SANDBOX_SECRET,
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
    const tampered = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/stripe',
      payload: payload.replace('"paid"', '"paid" '),
      headers: { 'content-type': 'application/json', 'stripe-signature': header },
    });
    expect(faultOf(tampered)).toBe('WebhookSignatureInvalid');

    // A signature older than the tolerance (5 minutes) is refused: no replay of old captures.
    t.clock.advanceMinutes(10);
    try {
      const stale = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/stripe',
        payload,
        headers: { 'content-type': 'application/json', 'stripe-signature': header },
      });
      expect(faultOf(stale)).toBe('WebhookSignatureInvalid');
    } finally {
      t.clock.advanceMinutes(-10);
    }

    expect((await status(token, InvoiceTag)).json().Result.PaymentIntentStatus).toBe('none');
    expect(await purchases(token)).toEqual([]);
  });

  it('acknowledges events it does not handle and events about sessions it does not know', async () => {
    const other = await deliverSigned(
      t,
      { id: 'evt_other_1', object: 'event', type: 'customer.created', data: { object: { id: 'cus_1' } } },
      SANDBOX_SECRET,
    );
    expect(other.statusCode).toBe(200);
    expect(other.json().Result).toEqual({ EventId: 'evt_other_1', Duplicate: false, Outcome: 'ignored' });
    const stranger = await deliverSigned(
      t,
      paidSessionEvent('evt_stranger_1', 'cs_sandbox_unknown', 'inv_unknown', t.clock.now(), PAID_5K),
      SANDBOX_SECRET,
    );
    expect(stranger.json().Result.Outcome).toBe('ignored');
  });

  it('the config never offers the sandbox in production', () => {
    const config = loadConfig({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://x@localhost/db',
      SESSION_SECRET,
      PUBLIC_URL: 'https://my.soundid.example',
      ADMIN_TOKEN: 'test-admin-token-0123456789abcdef',
      SMTP_URL: 'smtp://localhost:25',
    });
    expect(config.stripe).toBeUndefined();
    expect(() => resolveReturnUrl('http://localhost:5173/products/post-checkout', config, 'inv_x')).toThrow();
    expect(resolveReturnUrl(undefined, config, 'inv_x')).toBe(
      'https://my.soundid.example/products/post-checkout?invoice_tag=inv_x&session_id={CHECKOUT_SESSION_ID}',
    );
  });
});
