import { eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import {
  chargeRefundedEvent,
  checkoutLot,
  deliverSigned,
  PAID_1K,
  type PaidAmount,
  paidSessionEvent,
  sandboxCheckout,
  sandboxPurchase,
} from '../../../test/payment-webhooks';
import { paymentMismatches, paymentRefunds } from '../../db/payments-schema';
import { tokenLots } from '../../db/voice-ai-schema';
import { deriveSandboxWebhookSecret, sandboxSessionIdOf } from '../../dev/stripe-sandbox/provider';

/**
 * Card payments are credited only as offered, and refunds take back what is left of the lot
 * (ADR 0032). Every event goes through the Stripe webhook route or the sandbox's refund, signed
 * with Stripe's own scheme. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
const SECRET = deriveSandboxWebhookSecret(SESSION_SECRET);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET });
});
afterAll(() => t.close());

interface Purchase {
  TokenAmount: number;
  Type: string;
  TokenBalance: number;
  RefundDate?: number;
  TokensWithdrawn?: number;
}

async function preparedSession(email: string) {
  const token = await signUpVerified(t, email);
  return { token, ...(await sandboxCheckout(t, token)) };
}

const paid = (clientSecret: string, invoiceTag: string, eventId: string, amount: PaidAmount, pi?: string) =>
  paidSessionEvent(eventId, sandboxSessionIdOf(clientSecret) as string, invoiceTag, t.clock.now(), amount, pi);
const purchases = async (token: string) =>
  (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems as Purchase[];
const status = async (token: string, invoiceTag: string) =>
  (await t.call('/api/voiceai/GetPaymentStatus', { invoiceTag }, token)).json().Result.PaymentIntentStatus;
const spend = (token: string, seconds: number, requestId: string) =>
  t.call('/api/apps/ConsumeTokens', { seconds, requestId }, token);
const refund = async (invoiceTag: string, amountInCents?: number, operatorToken?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/sandbox/checkout/refund',
    headers: { authorization: `Bearer ${operatorToken ?? (await t.operatorToken(['finance']))}` },
    payload: { invoiceTag, reason: 'customer asked, ticket R-1', ...(amountInCents ? { amountInCents } : {}) },
  });
const lotOf = (invoiceTag: string) => checkoutLot(t, invoiceTag);

/** A sandbox purchase of the 1,000-token pack, paid with the test card. */
async function bought(email: string) {
  const token = await signUpVerified(t, email);
  return { token, ...(await sandboxPurchase(t, token)) };
}

describe('a payment that does not match its checkout (ASVS 2.2.1, 2.2.3: checked against the server-side price)', () => {
  it('1 cent paying for the 999-cent pack credits nothing; the mismatch is recorded and shown to operators', async () => {
    const { token, clientSecret, invoiceTag } = await preparedSession('one-cent@example.com');
    const res = await deliverSigned(
      t,
      paid(clientSecret, invoiceTag, 'evt_one_cent', { amount_total: 1, currency: 'usd' }),
      SECRET,
    );
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toEqual({ EventId: 'evt_one_cent', Duplicate: false, Outcome: 'mismatched' });
    expect(await purchases(token)).toEqual([]);
    expect(await status(token, invoiceTag)).toBe('requires_payment_method');

    // A later event with the right amount does not credit a session already paid otherwise.
    const later = await deliverSigned(t, paid(clientSecret, invoiceTag, 'evt_one_cent_again', PAID_1K), SECRET);
    expect(later.json().Result.Outcome).toBe('ignored');
    expect(await purchases(token)).toEqual([]);

    const [recorded] = await t.database.db
      .select()
      .from(paymentMismatches)
      .where(eq(paymentMismatches.eventId, 'evt_one_cent'));
    expect(recorded).toMatchObject({
      invoiceTag,
      expectedAmountInCents: 999,
      expectedCurrency: 'USD',
      receivedAmountInCents: 1,
      receivedCurrency: 'USD',
    });

    const listed = await t.app.inject({
      method: 'GET',
      url: '/api/admin/payment-mismatches',
      headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
    });
    expect(listed.statusCode).toBe(200);
    expect(listed.json().Result).toContainEqual({
      EventId: 'evt_one_cent',
      Provider: 'sandbox',
      InvoiceTag: invoiceTag,
      Customer: 'one-cent@example.com',
      ExpectedAmountInCents: 999,
      ExpectedCurrency: 'USD',
      ReceivedAmountInCents: 1,
      ReceivedCurrency: 'USD',
      RecordedAt: t.clock.now().toISOString(),
    });
    // Operators only, as every /api/admin route.
    const anonymous = await t.app.inject({ method: 'GET', url: '/api/admin/payment-mismatches' });
    expect(anonymous.statusCode).toBe(401);
    expect(faultOf(anonymous)).toBe('AdminTokenInvalid');
  });

  it('the right amount in another currency, or no amount at all, credits nothing either', async () => {
    const yen = await preparedSession('yen@example.com');
    const inYen = await deliverSigned(
      t,
      paid(yen.clientSecret, yen.invoiceTag, 'evt_yen', { amount_total: 999, currency: 'jpy' }),
      SECRET,
    );
    expect(inYen.json().Result.Outcome).toBe('mismatched');
    expect(await purchases(yen.token)).toEqual([]);

    const silent = await preparedSession('no-amount@example.com');
    const noAmount = await deliverSigned(
      t,
      paid(silent.clientSecret, silent.invoiceTag, 'evt_no_amount', {} as PaidAmount),
      SECRET,
    );
    expect(noAmount.json().Result.Outcome).toBe('mismatched');
    expect(await purchases(silent.token)).toEqual([]);

    const rows = await t.database.db.select().from(paymentMismatches);
    expect(rows.find((r) => r.eventId === 'evt_yen')).toMatchObject({
      receivedAmountInCents: 999,
      receivedCurrency: 'JPY',
      expectedCurrency: 'USD',
    });
    expect(rows.find((r) => r.eventId === 'evt_no_amount')).toMatchObject({
      receivedAmountInCents: null,
      receivedCurrency: null,
    });
  });
});

describe('refunds of token packs (charge.refunded; ASVS 2.3.2, 2.3.3)', () => {
  it('a full refund after spending takes back what is left, never below zero; the spent part is recorded and shown', async () => {
    const { token, invoiceTag } = await bought('full-refund@example.com');
    expect((await spend(token, 30, 'r1')).json().Result).toEqual({ TokensSpent: 300, TokenBalance: 700 });

    const res = await refund(invoiceTag);
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toEqual({ InvoiceTag: invoiceTag, RefundedInCents: 999, AmountInCents: 999 });

    expect(await lotOf(invoiceTag)).toMatchObject({ amount: 1000, remaining: 0, withdrawn: 700 });
    const [kept] = await t.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceTag, invoiceTag));
    expect(kept).toMatchObject({ refundedInCents: 999, tokensWithdrawn: 700, tokensSpent: 300 });
    expect(await purchases(token)).toEqual([
      expect.objectContaining({
        TokenAmount: 1000,
        Type: 'Refunded (700 tokens withdrawn)',
        TokenBalance: 0,
        TokensWithdrawn: 700,
        RefundDate: t.clock.now().getTime(),
      }),
    ]);
    expect(faultOf(await spend(token, 7, 'r2'))).toBe('TokenBalanceInsufficient');
    // The spent tokens stay in the usage history.
    const usage = (await t.call('/api/voiceai/GetActionHistory', { page: 1 }, token)).json().Result.PageItems;
    expect(usage).toEqual([expect.objectContaining({ TokenAmount: 300 })]);
    // Nothing is left to refund; the payment stays paid for the post-checkout screen.
    expect(faultOf(await refund(invoiceTag))).toBe('PaymentRefundInvalid');
    expect(await status(token, invoiceTag)).toBe('succeeded');
  });

  it('a partial refund takes back tokens in proportion, capped at what is left; a second one takes the rest', async () => {
    const { token, invoiceTag } = await bought('partial-refund@example.com');
    await spend(token, 20, 'p1'); // 200 spent, 800 left

    // Half the price back: 500 of the 1,000 tokens are withdrawn.
    expect((await refund(invoiceTag, 500)).statusCode).toBe(200);
    expect(await lotOf(invoiceTag)).toMatchObject({ remaining: 300, withdrawn: 500 });
    expect((await purchases(token))[0]).toMatchObject({ TokenBalance: 300, TokensWithdrawn: 500 });

    await spend(token, 25, 'p2'); // 250 more spent, 50 left
    // The rest of the price back: the other 500 are due, only 50 are left to take.
    expect((await refund(invoiceTag)).json().Result.RefundedInCents).toBe(999);
    expect(await lotOf(invoiceTag)).toMatchObject({ remaining: 0, withdrawn: 550 });
    const [kept] = await t.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceTag, invoiceTag));
    expect(kept).toMatchObject({ tokensWithdrawn: 550, tokensSpent: 450 });
    expect((await purchases(token))[0]).toMatchObject({ Type: 'Refunded (550 tokens withdrawn)', TokenBalance: 0 });
  });

  it('refuses refunds that are not the merchant’s or not possible, and changes nothing', async () => {
    const { token, invoiceTag } = await bought('bad-refund@example.com');
    const notOperator = await refund(invoiceTag, 100, 'not-the-admin-token');
    expect(notOperator.statusCode).toBe(401);
    expect(faultOf(await refund(invoiceTag, 1000))).toBe('PaymentRefundInvalid');
    expect(faultOf(await refund('inv_doesnotexist000000'))).toBe('PaymentNotFound');
    const unpaid = await preparedSession('unpaid-refund@example.com');
    expect(faultOf(await refund(unpaid.invoiceTag))).toBe('PaymentNotPaid');
    expect(await lotOf(invoiceTag)).toMatchObject({ remaining: 1000, withdrawn: 0, refundedAt: null });
    expect((await purchases(token))[0]).toMatchObject({ Type: 'Purchased', TokenBalance: 1000 });
  });

  it("a payment's completion and refunds, each delivered 5 times in a shuffled order, credit once and withdraw once", async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.scheduler(), async (s) => {
        run += 1;
        const { token, clientSecret, invoiceTag } = await preparedSession(`shuffled-refund${run}@example.com`);
        const pi = `pi_shuffled_refund_${run}`;
        const now = t.clock.now();
        const events = [
          paid(clientSecret, invoiceTag, `evt_sr_${run}_paid`, PAID_1K, pi),
          // Two partial refunds as Stripe reports them: the second carries the cumulative amount.
          chargeRefundedEvent(`evt_sr_${run}_refund_a`, pi, PAID_1K, 333, now),
          chargeRefundedEvent(`evt_sr_${run}_refund_b`, pi, PAID_1K, 999, now),
        ];
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
          expect(results.filter((r) => r.EventId === event.id && !r.Duplicate)).toHaveLength(1);
        }
        const lots = await t.database.db
          .select()
          .from(tokenLots)
          .where(eq(tokenLots.sourceRef, `checkout:${invoiceTag}`));
        expect(lots).toHaveLength(1);
        expect(lots[0]).toMatchObject({ amount: 1000, remaining: 0, withdrawn: 1000 });
        expect(await purchases(token)).toEqual([expect.objectContaining({ TokenAmount: 1000, TokenBalance: 0 })]);
      }),
      { numRuns: 8, seed: 13 },
    );
  });

  it('a refund that arrives before the payment is kept and applied when the credit lands', async () => {
    const { token, clientSecret, invoiceTag } = await preparedSession('refund-first@example.com');
    const pi = 'pi_refund_first';
    const early = await deliverSigned(t, chargeRefundedEvent('evt_rf_refund', pi, PAID_1K, 500, t.clock.now()), SECRET);
    expect(early.json().Result.Outcome).toBe('recorded');
    expect(await purchases(token)).toEqual([]);

    const credited = await deliverSigned(t, paid(clientSecret, invoiceTag, 'evt_rf_paid', PAID_1K, pi), SECRET);
    expect(credited.json().Result.Outcome).toBe('credited');
    expect(await lotOf(invoiceTag)).toMatchObject({ amount: 1000, remaining: 500, withdrawn: 500 });
    expect((await spend(token, 50, 'after-early-refund')).json().Result).toEqual({ TokensSpent: 500, TokenBalance: 0 });
  });

  it('spends racing a full refund never overdraw: spent + withdrawn + left is the pack, nothing negative', async () => {
    const { token, invoiceTag } = await bought('race-refund@example.com');
    const results = await Promise.all([
      ...Array.from({ length: 8 }, (_, i) => spend(token, 15, `race-${i}`)),
      refund(invoiceTag),
      ...Array.from({ length: 8 }, (_, i) => spend(token, 15, `race-late-${i}`)),
    ]);
    const spends = results.filter((_, i) => i !== 8);
    expect(results[8]?.statusCode).toBe(200);
    const spentTokens = spends.filter((res) => res.statusCode === 200).length * 150;
    for (const res of spends) {
      if (res.statusCode !== 200) expect(faultOf(res)).toBe('TokenBalanceInsufficient');
      else expect(res.json().Result.TokenBalance).toBeGreaterThanOrEqual(0);
    }
    const lot = await lotOf(invoiceTag);
    expect(lot?.remaining).toBe(0);
    expect(spentTokens + (lot?.withdrawn ?? 0)).toBe(1000);
    const [kept] = await t.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceTag, invoiceTag));
    expect(kept?.tokensSpent).toBe(spentTokens);
  });
});
