import { eq } from 'drizzle-orm';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import Stripe from 'stripe';
import { tokenLots } from '../src/db/voice-ai-schema';
import type { TestApp } from './kit/test-app';

/** A Stripe event around an object, as Stripe sends it. */
export function stripeEvent(id: string, type: string, object: Record<string, unknown>, createdAt: Date) {
  return {
    id,
    object: 'event',
    api_version: Stripe.API_VERSION,
    created: Math.floor(createdAt.getTime() / 1000),
    livemode: false,
    type,
    data: { object },
  };
}

/** What a Checkout Session says was paid: amount_total in cents, currency in lower case (as Stripe sends them). */
export interface PaidAmount {
  amount_total: number;
  currency: string;
}

/** The sandbox's bundles as Stripe would report their payment. */
export const PAID_1K: PaidAmount = { amount_total: 999, currency: 'usd' };
export const PAID_5K: PaidAmount = { amount_total: 3999, currency: 'usd' };

/** A checkout.session.completed event for a paid session, paying `paid`. */
export function paidSessionEvent(
  eventId: string,
  sessionId: string,
  invoiceTag: string,
  createdAt: Date,
  paid: PaidAmount,
  paymentIntentId = `pi_${eventId}`,
) {
  return stripeEvent(
    eventId,
    'checkout.session.completed',
    {
      id: sessionId,
      object: 'checkout.session',
      client_reference_id: invoiceTag,
      payment_status: 'paid',
      status: 'complete',
      payment_intent: paymentIntentId,
      ...paid,
    },
    createdAt,
  );
}

/** A charge.refunded event: `refunded` is the charge's total refunded so far (amount_refunded). */
export function chargeRefundedEvent(
  eventId: string,
  paymentIntentId: string,
  paid: PaidAmount,
  refunded: number,
  createdAt: Date,
) {
  return stripeEvent(
    eventId,
    'charge.refunded',
    {
      id: `ch_${paymentIntentId}`,
      object: 'charge',
      amount: paid.amount_total,
      amount_refunded: refunded,
      currency: paid.currency,
      payment_intent: paymentIntentId,
      refunded: refunded >= paid.amount_total,
      status: 'succeeded',
    },
    createdAt,
  );
}

/**
 * POSTs an event to the webhook route with a real Stripe-Signature header
 * (generateTestHeaderString, timestamp in Unix seconds from the test clock).
 */
export function deliverSigned(
  t: TestApp | { app: FastifyInstance; clock: { now(): Date } },
  event: object,
  secret: string,
  signature?: string,
): Promise<LightMyRequestResponse> {
  const payload = JSON.stringify(event);
  const header =
    signature ??
    Stripe.webhooks.generateTestHeaderString({
      payload,
      secret,
      timestamp: Math.floor(t.clock.now().getTime() / 1000),
    });
  return t.app.inject({
    method: 'POST',
    url: '/api/webhooks/stripe',
    payload,
    headers: { 'content-type': 'application/json; charset=utf-8', 'stripe-signature': header },
  });
}

/** The sandbox's 1,000-token pack ($9.99). */
export const SANDBOX_PRICE_1K = 'price_sandbox_tokens_1000';

/** A sandbox checkout of a customer, opened (not paid): its client secret and invoice tag. */
export async function sandboxCheckout(t: TestApp, token: string, priceId = SANDBOX_PRICE_1K) {
  const res = await t.call('/api/voiceai/PrepareTokenPurchaseCheckout', { priceId }, token);
  if (res.statusCode !== 200) throw new Error(`PrepareTokenPurchaseCheckout failed: ${res.body}`);
  const { CheckoutSession, InvoiceTag } = res.json().Result;
  return { clientSecret: CheckoutSession as string, invoiceTag: InvoiceTag as string };
}

/** A sandbox purchase paid with the test card that succeeds: the tokens are credited. */
export async function sandboxPurchase(t: TestApp, token: string, priceId = SANDBOX_PRICE_1K) {
  const checkout = await sandboxCheckout(t, token, priceId);
  const pay = await t.call('/api/sandbox/checkout/pay', {
    clientSecret: checkout.clientSecret,
    cardNumber: '4242424242424242',
    expiry: '12/34',
    cvc: '123',
  });
  if (pay.statusCode !== 200) throw new Error(`sandbox pay failed: ${pay.body}`);
  return checkout;
}

/** The token lot a checkout credited (one per payment). */
export async function checkoutLot(t: TestApp, invoiceTag: string) {
  const [lot] = await t.database.db
    .select()
    .from(tokenLots)
    .where(eq(tokenLots.sourceRef, `checkout:${invoiceTag}`));
  return lot;
}
