import { eq, inArray, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { deliverSigned, PAID_1K, paidSessionEvent, stripeEvent } from '../../../test/payment-webhooks';
import { paymentWebhookEvents } from '../../db/payments-schema';
import { tokenLots } from '../../db/voice-ai-schema';
import { deriveSandboxWebhookSecret, sandboxSessionIdOf } from '../../dev/stripe-sandbox/provider';

/**
 * Webhooks arrive at least once, in any order, sometimes at the same moment: a payment is
 * credited exactly once whatever the deliveries (ASVS 2.3.4). Runs on PGlite and PostgreSQL.
 */
const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
const SECRET = deriveSandboxWebhookSecret(SESSION_SECRET);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET });
});
afterAll(() => t.close());

async function preparedSession(email: string) {
  const token = await signUpVerified(t, email);
  const res = await t.call(
    '/api/voiceai/PrepareTokenPurchaseCheckout',
    { priceId: 'price_sandbox_tokens_1000' },
    token,
  );
  const { CheckoutSession, InvoiceTag } = res.json().Result;
  return { token, clientSecret: CheckoutSession as string, invoiceTag: InvoiceTag as string };
}

async function lotsOf(token: string) {
  const items = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
  return items as { TokenAmount: number }[];
}

describe('concurrent and replayed webhook deliveries', () => {
  it('the same signed event delivered 10 times at once, then replayed, credits once', async () => {
    const { token, clientSecret, invoiceTag } = await preparedSession('concurrent@example.com');
    const event = paidSessionEvent(
      'evt_burst_1',
      sandboxSessionIdOf(clientSecret) as string,
      invoiceTag,
      t.clock.now(),
      PAID_1K,
    );

    const burst = await Promise.all(Array.from({ length: 10 }, () => deliverSigned(t, event, SECRET)));
    for (const res of burst) expect(res.statusCode).toBe(200);
    const results = burst.map((res) => res.json().Result);
    expect(results.filter((r) => !r.Duplicate)).toEqual([
      { EventId: 'evt_burst_1', Duplicate: false, Outcome: 'credited' },
    ]);
    expect(results.filter((r) => r.Duplicate)).toHaveLength(9);

    for (let i = 0; i < 10; i++) {
      const replay = await deliverSigned(t, event, SECRET);
      expect(replay.json().Result).toEqual({ EventId: 'evt_burst_1', Duplicate: true, Outcome: 'credited' });
    }

    expect((await lotsOf(token)).map((lot) => lot.TokenAmount)).toEqual([1000]);
    const [row] = await t.database.db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.eventId, 'evt_burst_1'));
    expect(row).toMatchObject({ outcome: 'credited', invoiceTag, attempts: 1 });
    const status = await t.call('/api/voiceai/GetPaymentStatus', { invoiceTag }, token);
    expect(status.json().Result.PaymentIntentStatus).toBe('succeeded');
  });

  it("a payment's events, each delivered 5 times at once in a shuffled order, credit once", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        run += 1;
        const { token, clientSecret, invoiceTag } = await preparedSession(`shuffled${run}@example.com`);
        const sessionId = sandboxSessionIdOf(clientSecret) as string;
        const now = t.clock.now();
        // An asynchronous payment as Stripe reports it: a declined first attempt, the session
        // completed while still unpaid, then the payment succeeding.
        const events = [
          stripeEvent(
            `evt_shuffled_${run}_declined`,
            'payment_intent.payment_failed',
            {
              id: `pi_shuffled_${run}`,
              object: 'payment_intent',
              metadata: { invoice_tag: invoiceTag },
              last_payment_error: { code: 'card_declined', decline_code: 'insufficient_funds' },
            },
            now,
          ),
          stripeEvent(
            `evt_shuffled_${run}_completed`,
            'checkout.session.completed',
            {
              id: sessionId,
              object: 'checkout.session',
              payment_status: 'unpaid',
              payment_intent: `pi_shuffled_${run}`,
            },
            now,
          ),
          stripeEvent(
            `evt_shuffled_${run}_succeeded`,
            'checkout.session.async_payment_succeeded',
            { id: sessionId, object: 'checkout.session', payment_status: 'paid', ...PAID_1K },
            now,
          ),
        ];
        // The scheduler releases the 15 deliveries in an order of its choosing; each starts as
        // soon as it is released, so they overlap one another.
        const deliveries = events.flatMap((event) =>
          Array.from({ length: 5 }, () =>
            s.schedule(Promise.resolve(event), event.id).then((released) => deliverSigned(t, released, SECRET)),
          ),
        );
        await s.waitAll();
        const results = (await Promise.all(deliveries)).map((res) => {
          expect(res.statusCode).toBe(200);
          return res.json().Result as { EventId: string; Duplicate: boolean; Outcome: string };
        });
        for (const event of events) {
          expect(
            results.filter((r) => r.EventId === event.id && !r.Duplicate),
            event.id,
          ).toHaveLength(1);
        }
        expect(results.filter((r) => r.Outcome === 'credited' && !r.Duplicate)).toHaveLength(1);
        expect((await lotsOf(token)).map((lot) => lot.TokenAmount)).toEqual([1000]);
        const rows = await t.database.db
          .select({ attempts: paymentWebhookEvents.attempts })
          .from(paymentWebhookEvents)
          .where(
            inArray(
              paymentWebhookEvents.eventId,
              events.map((event) => event.id),
            ),
          );
        expect(rows.map((row) => row.attempts)).toEqual([1, 1, 1]);
        const status = await t.call('/api/voiceai/GetPaymentStatus', { invoiceTag }, token);
        expect(status.json().Result.PaymentIntentStatus).toBe('succeeded');
      }),
      { numRuns: 6, seed: 5_2026 },
    );
  });

  it('10 different events paying the same session at once (completed, async succeeded) credit once', async () => {
    const { token, clientSecret, invoiceTag } = await preparedSession('many-events@example.com');
    const sessionId = sandboxSessionIdOf(clientSecret) as string;
    const events = Array.from({ length: 10 }, (_, i) =>
      i % 2 === 0
        ? paidSessionEvent(`evt_many_${i}`, sessionId, invoiceTag, t.clock.now(), PAID_1K)
        : stripeEvent(
            `evt_many_${i}`,
            'checkout.session.async_payment_succeeded',
            { id: sessionId, object: 'checkout.session', payment_status: 'paid', ...PAID_1K },
            t.clock.now(),
          ),
    );
    const results = await Promise.all(events.map((event) => deliverSigned(t, event, SECRET)));
    const outcomes = results.map((res) => res.json().Result.Outcome);
    expect(outcomes.filter((o) => o === 'credited')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'ignored')).toHaveLength(9);
    expect((await lotsOf(token)).map((lot) => lot.TokenAmount)).toEqual([1000]);
    const lots = await t.database.db
      .select()
      .from(tokenLots)
      .where(eq(tokenLots.sourceRef, `checkout:${invoiceTag}`));
    expect(lots).toHaveLength(1);
  });

  it('10 sandbox payments of one session at once credit once', async () => {
    const { token, clientSecret } = await preparedSession('double-click@example.com');
    const results = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.call('/api/sandbox/checkout/pay', {
          clientSecret,
          cardNumber: '4242424242424242',
          expiry: '12/34',
          cvc: '123',
        }),
      ),
    );
    for (const res of results) expect(res.json().Result.Outcome).toBe('succeeded');
    expect((await lotsOf(token)).map((lot) => lot.TokenAmount)).toEqual([1000]);
  });

  it('a late decline after the payment succeeded changes nothing', async () => {
    const { token, clientSecret, invoiceTag } = await preparedSession('late-decline@example.com');
    const sessionId = sandboxSessionIdOf(clientSecret) as string;
    await deliverSigned(t, paidSessionEvent('evt_order_paid', sessionId, invoiceTag, t.clock.now(), PAID_1K), SECRET);
    const late = await deliverSigned(
      t,
      stripeEvent(
        'evt_order_declined',
        'payment_intent.payment_failed',
        {
          id: 'pi_late',
          object: 'payment_intent',
          metadata: { invoice_tag: invoiceTag },
          last_payment_error: { code: 'card_declined', decline_code: 'generic_decline' },
        },
        t.clock.now(),
      ),
      SECRET,
    );
    expect(late.json().Result.Outcome).toBe('ignored');
    const status = await t.call('/api/voiceai/GetPaymentStatus', { invoiceTag }, token);
    expect(status.json().Result.PaymentIntentStatus).toBe('succeeded');
    expect(await lotsOf(token)).toHaveLength(1);
  });

  it("a delivery whose handling failed is recorded as an error, and Stripe's retry credits it", async () => {
    const { token, clientSecret, invoiceTag } = await preparedSession('retry@example.com');
    const event = paidSessionEvent(
      'evt_retry_1',
      sandboxSessionIdOf(clientSecret) as string,
      invoiceTag,
      t.clock.now(),
      PAID_1K,
    );
    const db = t.database.db;
    // Every new lot is refused for a moment: the credit fails inside the event's transaction.
    await db.execute(sql`alter table token_lots add constraint refuse_new_lots check (amount < 0) not valid`);
    try {
      const failed = await deliverSigned(t, event, SECRET);
      expect(failed.statusCode).toBe(503);
      expect(failed.json().Success).toBe(false);
    } finally {
      await db.execute(sql`alter table token_lots drop constraint refuse_new_lots`);
    }
    const [recorded] = await db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.eventId, 'evt_retry_1'));
    expect(recorded).toMatchObject({ outcome: 'error', failureReason: expect.any(String) });
    expect(await lotsOf(token)).toEqual([]);
    const status = await t.call('/api/voiceai/GetPaymentStatus', { invoiceTag }, token);
    expect(status.json().Result.PaymentIntentStatus).toBe('none');

    const retried = await deliverSigned(t, event, SECRET);
    expect(retried.json().Result).toEqual({ EventId: 'evt_retry_1', Duplicate: false, Outcome: 'credited' });
    const [after] = await db.select().from(paymentWebhookEvents).where(eq(paymentWebhookEvents.eventId, 'evt_retry_1'));
    expect(after).toMatchObject({ outcome: 'credited', attempts: 2, failureReason: null });
    expect((await lotsOf(token)).map((lot) => lot.TokenAmount)).toEqual([1000]);
  });
});
