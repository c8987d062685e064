import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type StripeStandIn, startStripeStandIn, stripeBundlePrice } from '../../../test/stripe-stand-in';
import { Fault } from '../../lib/fault';
import { StripeCheckoutProvider } from './stripe-provider';

/**
 * The Stripe adapter through the real stripe-node SDK, pointed at a local stand-in of the
 * Stripe API (host, port, protocol 'http'), and webhooks signed with the SDK's own test helper.
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

const provider = () =>
  new StripeCheckoutProvider({
    secretKey: 'sk_test_standin',
    publishableKey: 'pk_test_standin',
    webhookSecret: WEBHOOK_SECRET,
    apiUrl: standIn.url,
  });

describe('StripeCheckoutProvider against a Stripe stand-in', () => {
  it('lists active one-time Prices tagged with metadata.soundid_tokens', async () => {
    const prices = await provider().listPrices();
    expect(prices.map((p) => p.priceId)).toEqual(['price_1k', 'price_5k']);
    expect(prices[1]).toEqual({
      priceId: 'price_5k',
      tokens: 5000,
      title: '5000 VoiceAI tokens',
      contents: '5,000 tokens',
      description: 'Tokens for SoundID VoiceAI',
      uiFlags: ['IsMostPopular'],
      amountInCents: 3999,
      currency: 'USD',
      newPriceText: 'Save 20%',
    });
    const list = standIn.requests.findLast((r) => r.path === '/v1/prices');
    expect(list?.query.get('active')).toBe('true');
    expect(list?.query.get('expand[0]')).toBe('data.product');
  });

  it('creates an embedded Checkout Session with the parameters of API version 2026-10-28', async () => {
    const [price] = await provider().listPrices();
    const created = await provider().createSession({
      invoiceTag: 'inv_abc123',
      price: price as NonNullable<typeof price>,
      customerEmail: 'buyer@example.com',
      metadata: { invoice_tag: 'inv_abc123', ga_client_id: 'GA1.1.1.2' },
      returnUrl: 'http://localhost:3000/products/post-checkout?invoice_tag=inv_abc123&session_id={CHECKOUT_SESSION_ID}',
      now: new Date(),
    });
    expect(created.clientSecret).toMatch(/^cs_test_standin\d+_secret_/);
    expect(created.sessionId).toMatch(/^cs_test_standin\d+$/);

    const request = standIn.requests.findLast((r) => r.path === '/v1/checkout/sessions');
    expect(request?.method).toBe('POST');
    const form = Object.fromEntries(request?.form ?? []);
    expect(form).toEqual({
      ui_mode: 'embedded_page',
      mode: 'payment',
      'line_items[0][price]': 'price_1k',
      'line_items[0][quantity]': '1',
      customer_email: 'buyer@example.com',
      client_reference_id: 'inv_abc123',
      'metadata[invoice_tag]': 'inv_abc123',
      'metadata[ga_client_id]': 'GA1.1.1.2',
      'payment_intent_data[metadata][invoice_tag]': 'inv_abc123',
      return_url:
        'http://localhost:3000/products/post-checkout?invoice_tag=inv_abc123&session_id={CHECKOUT_SESSION_ID}',
      redirect_on_completion: 'if_required',
    });
    expect(request?.headers['stripe-version']).toBe(Stripe.API_VERSION);
    expect(request?.headers['idempotency-key']).toBe('checkout-inv_abc123');
    expect(request?.headers.authorization).toBe('Bearer sk_test_standin');
  });

  it('a price Stripe does not know is PriceNotFound; Stripe unreachable is CheckoutUnavailable', async () => {
    const missing = { ...(await provider().listPrices())[0], priceId: 'price_gone' } as Parameters<
      StripeCheckoutProvider['createSession']
    >[0]['price'];
    const input = {
      invoiceTag: 'inv_gone',
      price: missing,
      customerEmail: 'a@example.com',
      metadata: {},
      returnUrl: 'http://localhost:3000/x',
      now: new Date(),
    };
    await expect(provider().createSession(input)).rejects.toMatchObject({ faultName: 'PriceNotFound' });

    const down = new StripeCheckoutProvider({
      secretKey: 'sk_test_standin',
      publishableKey: 'pk_test_standin',
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: 'http://127.0.0.1:1',
    });
    const error = await down.listPrices().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(Fault);
    expect((error as Fault).faultName).toBe('CheckoutUnavailable');
  });

  it('verifies webhook signatures made by generateTestHeaderString', () => {
    const payload = JSON.stringify({ id: 'evt_1', object: 'event', type: 'ping', data: { object: {} } });
    const now = new Date('2026-11-23T12:00:00Z');
    const header = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: WEBHOOK_SECRET,
      timestamp: Math.floor(now.getTime() / 1000),
    });
    expect(provider().verifyWebhook(Buffer.from(payload), header, now).id).toBe('evt_1');
    // One hex digit of the signature changed (to a different one, whatever it was).
    const tampered = header.replace(/v1=(.)/, (_, digit: string) => `v1=${digit === '0' ? '1' : '0'}`);
    expect(() => provider().verifyWebhook(Buffer.from(payload), tampered, now)).toThrow(Fault);
  });
});

describe('refunds through the Stripe API (AdminRefundPayment)', () => {
  const request = (paymentIntentId: string, amountInCents: number | undefined, idempotencyKey: string) => ({
    paymentIntentId,
    amountInCents,
    idempotencyKey,
    metadata: { invoice_tag: 'inv_refund1', operator: 'fin@example.com' },
  });

  it('POSTs /v1/refunds with the payment intent, the amount and an Idempotency-Key, and reads the charge', async () => {
    standIn.charges.set('pi_refund_a', { amount: 999, currency: 'usd', refunded: 0 });
    const refund = await provider().refund(request('pi_refund_a', 300, 'refund-inv_refund1-0-300'));
    expect(refund).toEqual({
      refundId: expect.stringMatching(/^re_standin\d+$/),
      amountInCents: 300,
      chargedInCents: 999,
      refundedInCents: 300,
      currency: 'USD',
    });
    const sent = standIn.requests.findLast((r) => r.path === '/v1/refunds');
    expect(sent?.method).toBe('POST');
    expect(Object.fromEntries(sent?.form ?? [])).toEqual({
      payment_intent: 'pi_refund_a',
      amount: '300',
      reason: 'requested_by_customer',
      'metadata[invoice_tag]': 'inv_refund1',
      'metadata[operator]': 'fin@example.com',
      'expand[0]': 'charge',
    });
    expect(sent?.headers['idempotency-key']).toBe('refund-inv_refund1-0-300');
    expect(sent?.headers['stripe-version']).toBe(Stripe.API_VERSION);

    // The same key again is the same refund (Stripe answers the first result).
    expect(await provider().refund(request('pi_refund_a', 300, 'refund-inv_refund1-0-300'))).toEqual(refund);
    // Without an amount: the rest of the charge.
    const rest = await provider().refund(request('pi_refund_a', undefined, 'refund-inv_refund1-300-rest'));
    expect(rest).toMatchObject({ amountInCents: 699, refundedInCents: 999 });
    expect(standIn.requests.findLast((r) => r.path === '/v1/refunds')?.form.has('amount')).toBe(false);
  });

  it("maps Stripe's refusals: no such payment, nothing or less left; Stripe unreachable", async () => {
    const refusal = (promise: Promise<unknown>) =>
      promise.then(
        () => undefined,
        (error: unknown) => (error as Fault).faultName,
      );
    expect(await refusal(provider().refund(request('pi_missing', 100, 'k-missing')))).toBe('PaymentNotFound');
    standIn.charges.set('pi_refund_b', { amount: 999, currency: 'usd', refunded: 900 });
    expect(await refusal(provider().refund(request('pi_refund_b', 100, 'k-over')))).toBe('PaymentRefundInvalid');
    standIn.charges.set('pi_refund_c', { amount: 999, currency: 'usd', refunded: 999 });
    expect(await refusal(provider().refund(request('pi_refund_c', undefined, 'k-done')))).toBe('PaymentRefundInvalid');
    // A key used again with another amount: Stripe's idempotency_error, the first refund stands.
    standIn.charges.set('pi_refund_d', { amount: 999, currency: 'usd', refunded: 0 });
    await provider().refund(request('pi_refund_d', 100, 'k-again'));
    expect(await refusal(provider().refund(request('pi_refund_d', 200, 'k-again')))).toBe('PaymentRefundInProgress');
    expect(standIn.charges.get('pi_refund_d')?.refunded).toBe(100);
    const down = new StripeCheckoutProvider({
      secretKey: 'sk_test_standin',
      publishableKey: 'pk_test_standin',
      webhookSecret: WEBHOOK_SECRET,
      apiUrl: 'http://127.0.0.1:1',
    });
    expect(await refusal(down.refund(request('pi_refund_a', 1, 'k-down')))).toBe('CheckoutUnavailable');
  });
});
