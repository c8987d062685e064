import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { chargeRefundedEvent, deliverSigned, PAID_1K, PAID_5K, paidSessionEvent } from '../../../test/payment-webhooks';
import { type StripeStandIn, startStripeStandIn, stripeBundlePrice } from '../../../test/stripe-stand-in';
import { getTokenBundles } from './bundles';

/**
 * The card checkout with STRIPE_* set: the app's Stripe adapter against a local stand-in of the
 * Stripe API (the adapter's own tests: integrations/stripe/stripe-provider.test.ts).
 */
const WEBHOOK_SECRET = 'whsec_test_0123456789abcdef0123456789abcdef';

let standIn: StripeStandIn;
beforeAll(async () => {
  standIn = await startStripeStandIn();
  standIn.prices.push(
    stripeBundlePrice('price_1k', 1000, 999),
    stripeBundlePrice('price_5k', 5000, 3999, { ui_flags: 'IsMostPopular', new_price_text: 'Save 20%' }),
    { ...stripeBundlePrice('price_untagged', 1, 100), metadata: {} },
    { ...stripeBundlePrice('price_monthly', 100, 500), type: 'recurring' },
  );
});
afterAll(() => standIn.close());

describe('card checkout with STRIPE_* set', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_standin',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_standin',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: standIn.url,
    });
  });
  afterAll(() => t.close());

  it('offers the Stripe Prices and the publishable key', async () => {
    const { TokenBundles, StripePublicKey } = await getTokenBundles(t.services.cardCheckout);
    expect(StripePublicKey).toBe('pk_test_standin');
    expect(TokenBundles.map((b) => [b.PriceId, b.PriceText])).toEqual([
      ['price_1k', '$9.99'],
      ['price_5k', '$39.99'],
    ]);
    expect(TokenBundles[1]?.PriceMetadata).toEqual([{ Key: 'NewPriceText', Value: 'Save 20%' }]);
  });

  it('prepare → Stripe session; a real-signature completed event credits once, however often delivered', async () => {
    const token = await signUpVerified(t, 'stripe-buyer@example.com');
    const prepared = await t.call(
      '/api/voiceai/PrepareTokenPurchaseCheckout',
      { priceId: 'price_5k', metadata: [{ Key: 'affiliate', Value: 'partner-7' }] },
      token,
    );
    expect(prepared.statusCode).toBe(200);
    const result = prepared.json().Result;
    expect(result).toMatchObject({
      CheckoutSession: expect.stringMatching(/^cs_test_standin\d+_secret_/),
      StripePublicKey: 'pk_test_standin',
      TokenBundle: { SKU: 'price_5k', Title: '5000 VoiceAI tokens', Currency: 'USD', PriceAmountInCents: 3999 },
    });
    const form = standIn.requests.findLast((r) => r.path === '/v1/checkout/sessions')?.form;
    expect(form?.get('client_reference_id')).toBe(result.InvoiceTag);
    expect(form?.get('customer_email')).toBe('stripe-buyer@example.com');
    expect(form?.get('metadata[affiliate]')).toBe('partner-7');
    expect(form?.get('return_url')).toBe(
      `http://localhost:3000/products/post-checkout?invoice_tag=${result.InvoiceTag}&session_id={CHECKOUT_SESSION_ID}`,
    );

    const status = () => t.call('/api/voiceai/GetPaymentStatus', { invoiceTag: result.InvoiceTag }, token);
    expect((await status()).json().Result.PaymentIntentStatus).toBe('none');

    const sessionId = result.CheckoutSession.replace(/_secret_.*$/, '');
    const event = paidSessionEvent('evt_stripe_paid', sessionId, result.InvoiceTag, t.clock.now(), PAID_5K);
    const forged = await deliverSigned(t, event, 'whsec_someone_else');
    expect(forged.statusCode).toBe(400);
    expect(faultOf(forged)).toBe('WebhookSignatureInvalid');
    expect((await status()).json().Result.PaymentIntentStatus).toBe('none');

    const burst = await Promise.all(Array.from({ length: 10 }, () => deliverSigned(t, event, WEBHOOK_SECRET)));
    expect(burst.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    expect(
      burst.filter((res) => res.json().Result.Outcome === 'credited' && !res.json().Result.Duplicate),
    ).toHaveLength(1);
    const replay = await deliverSigned(t, event, WEBHOOK_SECRET);
    expect(replay.json().Result).toEqual({ EventId: 'evt_stripe_paid', Duplicate: true, Outcome: 'credited' });

    expect((await status()).json().Result).toMatchObject({
      PaymentIntentStatus: 'succeeded',
      AnalyticsMetadata: { TransactionId: result.InvoiceTag, Value: 39.99, Currency: 'USD' },
    });
    const history = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
    expect(history).toEqual([expect.objectContaining({ TokenAmount: 5000, Type: 'Purchased', TokenBalance: 5000 })]);
  });

  it('an asynchronous payment: processing is "none", then async_payment_succeeded credits', async () => {
    const token = await signUpVerified(t, 'stripe-async@example.com');
    const result = (await t.call('/api/voiceai/PrepareTokenPurchaseCheckout', { priceId: 'price_1k' }, token)).json()
      .Result;
    const sessionId = result.CheckoutSession.replace(/_secret_.*$/, '');
    // Stripe's session carries what is charged: price_1k, $9.99.
    const session = {
      id: sessionId,
      object: 'checkout.session',
      client_reference_id: result.InvoiceTag,
      amount_total: 999,
      currency: 'usd',
    };
    const completedUnpaid = {
      id: 'evt_async_1',
      object: 'event',
      type: 'checkout.session.completed',
      data: { object: { ...session, payment_status: 'unpaid' } },
    };
    expect((await deliverSigned(t, completedUnpaid, WEBHOOK_SECRET)).json().Result.Outcome).toBe('recorded');
    const status = () => t.call('/api/voiceai/GetPaymentStatus', { invoiceTag: result.InvoiceTag }, token);
    expect((await status()).json().Result.PaymentIntentStatus).toBe('none');
    const succeeded = {
      id: 'evt_async_2',
      object: 'event',
      type: 'checkout.session.async_payment_succeeded',
      data: { object: { ...session, payment_status: 'paid' } },
    };
    expect((await deliverSigned(t, succeeded, WEBHOOK_SECRET)).json().Result.Outcome).toBe('credited');
    expect((await status()).json().Result.PaymentIntentStatus).toBe('succeeded');
  });

  it("finance's refund goes to Stripe; the tokens come back at once, and Stripe's charge.refunded after it changes nothing", async () => {
    const token = await signUpVerified(t, 'stripe-refunded@example.com');
    const result = (await t.call('/api/voiceai/PrepareTokenPurchaseCheckout', { priceId: 'price_1k' }, token)).json()
      .Result;
    const sessionId = result.CheckoutSession.replace(/_secret_.*$/, '');
    const paid = paidSessionEvent('evt_refund_paid', sessionId, result.InvoiceTag, t.clock.now(), PAID_1K, 'pi_ref1');
    expect((await deliverSigned(t, paid, WEBHOOK_SECRET)).json().Result.Outcome).toBe('credited');
    standIn.charges.set('pi_ref1', { amount: 999, currency: 'usd', refunded: 0 });

    const refund = await t.app.inject({
      method: 'POST',
      url: '/api/admin/refund-payment',
      payload: { invoiceTag: result.InvoiceTag, amountInCents: 500, reference: 'R-7', reason: 'ticket R-7: half back' },
      headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
    });
    expect(refund.statusCode).toBe(200);
    expect(refund.json().Result).toEqual({ InvoiceTag: result.InvoiceTag, RefundedInCents: 500, AmountInCents: 999 });
    const sent = standIn.requests.findLast((r) => r.path === '/v1/refunds');
    expect(sent?.form.get('payment_intent')).toBe('pi_ref1');
    expect(sent?.form.get('amount')).toBe('500');
    expect(sent?.headers['idempotency-key']).toBe(`refund-${result.InvoiceTag}-R-7`);
    const balance = async () =>
      (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems[0].TokenBalance;
    expect(await balance()).toBe(500);

    // Stripe's webhook of the same refund arrives later: already applied.
    const refunded = chargeRefundedEvent('evt_refund_1', 'pi_ref1', PAID_1K, 500, t.clock.now());
    expect((await deliverSigned(t, refunded, WEBHOOK_SECRET)).json().Result.Outcome).toBe('recorded');
    expect(await balance()).toBe(500);
  });

  it('has no sandbox routes when Stripe is configured', async () => {
    const res = await t.call('/api/sandbox/checkout/pay', {
      clientSecret: 'cs_sandbox_x_secret_y',
      cardNumber: '4242424242424242',
      expiry: '12/34',
      cvc: '123',
    });
    expect(res.statusCode).toBe(404);
  });
});
