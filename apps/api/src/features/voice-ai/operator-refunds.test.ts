import { refundedLotType } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from '../../../test/kit/test-app';
import {
  checkoutLot,
  deliverSigned,
  paidSessionEvent,
  sandboxCheckout,
  sandboxPurchase,
} from '../../../test/payment-webhooks';
import { auditEntries } from '../../db/operators-schema';
import { paymentRefunds, paymentWebhookEvents } from '../../db/payments-schema';
import { deriveSandboxWebhookSecret } from '../../dev/stripe-sandbox/provider';

/**
 * Finance refunds a card payment (AdminRefundPayment) through the payment provider, here the
 * sandbox processor end to end: tokens bought by card, the refund, its signed charge.refunded
 * through the webhook handler, the balance down (ADR 0032). Audited with the customer in the
 * transaction that keeps the refund (ADR 0045). The Stripe provider's side: stripe-checkout.test.ts
 * and integrations/stripe/stripe-provider.test.ts. PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let made = 0;
const newEmail = (name: string) => `${name}-${++made}@example.com`;

const refund = async (
  invoiceTag: string,
  amountInCents?: number,
  roles: ('finance' | 'support' | 'admin')[] = ['finance'],
  reason: string | null = 'ticket R-1: customer asked',
  reference: string | null = `form-${++made}`,
) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/refund-payment',
    payload: {
      invoiceTag,
      ...(amountInCents === undefined ? {} : { amountInCents }),
      ...(reason === null ? {} : { reason }),
      ...(reference === null ? {} : { reference }),
    },
    headers: { authorization: `Bearer ${await t.operatorToken(roles)}` },
  });
const purchases = async (token: string) =>
  (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
const lotOf = (invoiceTag: string) => checkoutLot(t, invoiceTag);
const lastAudit = async () =>
  (await t.database.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1))[0];

/** A customer who bought the 1,000-token pack ($9.99) with the sandbox's test card. */
async function bought(name: string) {
  const email = newEmail(name);
  const token = await signUpVerified(t, email);
  return { email, token, ...(await sandboxPurchase(t, token)) };
}

describe('finance refunds a card payment through the provider (ASVS 2.3.2, 8.2.1, 16.2.1)', () => {
  it('tokens bought by card, refunded in full: the balance drops, the charge.refunded went through the webhook', async () => {
    const { email, token, invoiceTag } = await bought('refunded');
    await t.call('/api/apps/ConsumeTokens', { seconds: 20, requestId: 'before-refund' }, token); // 200 spent

    const res = await refund(invoiceTag);
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toEqual({ InvoiceTag: invoiceTag, RefundedInCents: 999, AmountInCents: 999 });
    expect(await purchases(token)).toEqual([
      expect.objectContaining({ TokenAmount: 1000, Type: refundedLotType(800), TokenBalance: 0 }),
    ]);
    expect(await lotOf(invoiceTag)).toMatchObject({ remaining: 0, withdrawn: 800 });
    const events = await t.database.db
      .select()
      .from(paymentWebhookEvents)
      .where(eq(paymentWebhookEvents.invoiceTag, invoiceTag));
    expect(events.filter((e) => e.type === 'charge.refunded')).toEqual([
      expect.objectContaining({ outcome: 'withdrawn', provider: 'sandbox' }),
    ]);
    expect(await lastAudit()).toMatchObject({
      action: 'AdminRefundPayment',
      outcome: 'done',
      targetType: 'payment',
      targetId: invoiceTag,
      customerEmail: email,
      before: { refundedInCents: 0 },
      after: { refundedNowInCents: 999, refundedInCents: 999, chargedInCents: 999, tokensWithdrawn: 800 },
      reason: 'ticket R-1: customer asked',
      roles: ['finance'],
    });

    // Nothing is left: refused, and nothing changes.
    const again = await refund(invoiceTag);
    expect([again.statusCode, faultOf(again)]).toEqual([409, 'PaymentRefundInvalid']);
  });

  it('a partial refund takes back its share; without an amount the next one refunds what is left', async () => {
    const { token, invoiceTag } = await bought('partial');
    expect((await refund(invoiceTag, 333)).json().Result).toEqual({
      InvoiceTag: invoiceTag,
      RefundedInCents: 333,
      AmountInCents: 999,
    });
    expect((await purchases(token))[0]).toMatchObject({ TokenBalance: 667, TokensWithdrawn: 333 });
    const over = await refund(invoiceTag, 667);
    expect([over.statusCode, faultOf(over)]).toEqual([409, 'PaymentRefundInvalid']);
    expect(over.json().Fault.ExceptionVariables).toEqual([{ Key: 'RefundableInCents', Value: '666' }]);
    expect((await refund(invoiceTag)).json().Result.RefundedInCents).toBe(999);
    expect((await purchases(token))[0]).toMatchObject({ TokenBalance: 0, TokensWithdrawn: 1000 });
  });

  it('once per reference: sent twice at once and once more later, it refunds once and audits once', async () => {
    const { token, invoiceTag } = await bought('double-click');
    const audited = async () =>
      (await t.database.db.select().from(auditEntries).where(eq(auditEntries.action, 'AdminRefundPayment'))).filter(
        (entry) => entry.targetId === invoiceTag,
      ).length;
    const results = await Promise.all([
      refund(invoiceTag, 400, ['finance'], 'R-2', 'form-1'),
      refund(invoiceTag, 400, ['finance'], 'R-2', 'form-1'),
    ]);
    const later = await refund(invoiceTag, 400, ['finance'], 'R-2', 'form-1');
    for (const res of [...results, later]) {
      expect(res.json().Result).toEqual({ InvoiceTag: invoiceTag, RefundedInCents: 400, AmountInCents: 999 });
    }
    const [kept] = await t.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceTag, invoiceTag));
    expect(kept?.refundedInCents).toBe(400);
    expect((await purchases(token))[0]).toMatchObject({ TokenBalance: 600 });
    expect(await audited()).toBe(1);
    // Another reference is another refund.
    expect((await refund(invoiceTag, 400, ['finance'], 'R-3', 'form-2')).json().Result.RefundedInCents).toBe(800);
  });

  it("the sandbox's dashboard refund (SandboxCheckoutRefund) is the same processor refund, told by the webhook alone", async () => {
    const { token, invoiceTag } = await bought('dashboard');
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/sandbox/checkout/refund',
      payload: { invoiceTag, amountInCents: 100, reason: 'refunded in the dashboard' },
      headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
    });
    expect(res.json().Result).toEqual({ InvoiceTag: invoiceTag, RefundedInCents: 100, AmountInCents: 999 });
    // Finance then sees what the dashboard refunded: only the rest is left.
    const over = await refund(invoiceTag, 900);
    expect(faultOf(over)).toBe('PaymentRefundInvalid');
    expect((await refund(invoiceTag, 899)).json().Result.RefundedInCents).toBe(999);
    expect((await purchases(token))[0]).toMatchObject({ TokenBalance: 0 });
  });

  it('a payment that did not match its checkout refunds at most what was received, two refunds at once included', async () => {
    const token = await signUpVerified(t, newEmail('mismatched'));
    const { clientSecret, invoiceTag } = await sandboxCheckout(t, token);
    const sessionId = clientSecret.replace(/_secret_.*$/, '');
    // The processor received $5.00 for the $9.99 pack: recorded as a mismatch, nothing credited.
    const paid = paidSessionEvent('evt_mismatch_half', sessionId, invoiceTag, t.clock.now(), {
      amount_total: 500,
      currency: 'usd',
    });
    const secret = deriveSandboxWebhookSecret(TEST_SESSION_SECRET);
    expect((await deliverSigned(t, paid, secret)).json().Result.Outcome).toBe('mismatched');
    const answers = await Promise.all([refund(invoiceTag, 300), refund(invoiceTag, 250)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.map(faultOf).filter(Boolean)).toEqual(['PaymentRefundInvalid']);
    const [kept] = await t.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceTag, invoiceTag));
    expect(kept).toMatchObject({ chargedInCents: 500 });
    expect(kept?.refundedInCents).toBeLessThanOrEqual(500);
  });

  it('refuses an unknown or unpaid payment, bad input and the other roles with a 4xx; nothing changes', async () => {
    const { token, invoiceTag } = await bought('refused');
    const unknown = await refund('inv_doesnotexist000000');
    expect([unknown.statusCode, faultOf(unknown)]).toEqual([404, 'PaymentNotFound']);
    const unpaidToken = await signUpVerified(t, newEmail('unpaid'));
    const unpaid = (await sandboxCheckout(t, unpaidToken)).invoiceTag;
    const notPaid = await refund(unpaid);
    expect([notPaid.statusCode, faultOf(notPaid)]).toEqual([409, 'PaymentNotPaid']);
    // No reference, nothing that makes a retry refund once: refused.
    expect((await refund(invoiceTag, 100, ['finance'], 'R-9', null)).statusCode).toBe(400);
    expect((await refund(invoiceTag, 1000)).statusCode).toBe(409);
    expect((await refund(invoiceTag, 0)).statusCode).toBe(400);
    expect((await refund(invoiceTag, -5)).statusCode).toBe(400);
    expect((await refund(invoiceTag, 1.5)).statusCode).toBe(400);
    expect((await refund('not a tag!')).statusCode).toBe(400);
    expect((await refund(invoiceTag, 100, ['finance'], null)).statusCode).toBe(400);
    for (const role of ['support', 'admin'] as const) {
      const res = await refund(invoiceTag, 100, [role]);
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OperatorForbidden']);
    }
    expect(await lotOf(invoiceTag)).toMatchObject({ remaining: 1000, withdrawn: 0, refundedAt: null });
    expect((await purchases(token))[0]).toMatchObject({ Type: 'Purchased', TokenBalance: 1000 });
  });
});
