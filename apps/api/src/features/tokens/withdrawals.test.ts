import { refundedLotType, withdrawnLotType } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { sandboxPurchase } from '../../../test/payment-webhooks';
import { auditEntries } from '../../db/operators-schema';
import { paymentRefunds } from '../../db/payments-schema';
import { users } from '../../db/schema';
import { tokenLots, tokenWithdrawals } from '../../db/voice-ai-schema';

/**
 * Finance takes tokens back (AdminWithdrawTokens): from the earliest purchased live lots, never
 * below zero, once per reference, audited with the customer in the transaction of the change
 * (ADR 0045). Not a processing job: the usage history never lists it; the purchase history
 * shows it on the lots it took from. Racing withdrawals and spends never overdraw (ASVS 2.3.4).
 * PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let made = 0;
const newEmail = (name: string) => `${name}-${++made}@example.com`;

const operatorCall = async (path: string, payload: object, roles: ('finance' | 'support' | 'admin')[] = ['finance']) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/${path}`,
    payload,
    headers: { authorization: `Bearer ${await t.operatorToken(roles)}` },
  });
const grant = async (email: string, amount: number) => {
  const res = await operatorCall('grant-tokens', { email, amount, reason: 'test grant' });
  expect(res.statusCode).toBe(200);
  t.clock.advanceMinutes(1);
};
const withdraw = (
  email: string,
  amount: number,
  reference: string | null = `W-${++made}`,
  reason: string | null = 'ticket F-1: chargeback',
) =>
  operatorCall('withdraw-tokens', {
    email,
    amount,
    ...(reference === null ? {} : { reference }),
    ...(reason === null ? {} : { reason }),
  });
const purchases = async (token: string) =>
  (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
const usage = async (token: string) =>
  (await t.call('/api/voiceai/GetActionHistory', { page: 1 }, token)).json().Result.PageItems;
const balanceOf = async (token: string) =>
  (await purchases(token)).reduce((sum: number, lot: { TokenBalance: number }) => sum + lot.TokenBalance, 0);
const auditCount = async () => (await t.database.db.select({ seq: auditEntries.seq }).from(auditEntries)).length;
const lastAudit = async () =>
  (await t.database.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1))[0];

describe('finance withdraws tokens (ASVS 2.3.2, 8.2.1, 16.2.1)', () => {
  it('takes from the earliest lots first, shows it on those lots and not as usage, audited with the customer', async () => {
    const email = newEmail('withdrawn');
    const token = await signUpVerified(t, email);
    await grant(email, 1000);
    await grant(email, 500);

    const res = await withdraw(email, 1200, 'F-1');
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toEqual({ Withdrawn: true, Amount: 1200, TokenBalance: 300 });

    // Newest first: the later grant gave 200, the earlier one all its 1,000.
    expect(await purchases(token)).toEqual([
      expect.objectContaining({
        TokenAmount: 500,
        Type: withdrawnLotType('Granted', 200),
        TokenBalance: 300,
        TokensWithdrawn: 200,
      }),
      expect.objectContaining({
        TokenAmount: 1000,
        Type: withdrawnLotType('Granted', 1000),
        TokenBalance: 0,
        TokensWithdrawn: 1000,
      }),
    ]);
    expect((await purchases(token))[0].RefundDate).toBeUndefined();
    expect(await usage(token)).toEqual([]);
    const spend = await t.call('/api/apps/ConsumeTokens', { seconds: 30, requestId: 'after-withdrawal' }, token);
    expect(spend.json().Result).toEqual({ TokensSpent: 300, TokenBalance: 0 });

    const entry = await lastAudit();
    expect(entry).toMatchObject({
      action: 'AdminWithdrawTokens',
      outcome: 'done',
      customerEmail: email,
      targetType: 'token-withdrawal',
      targetId: 'F-1',
      before: { balance: 1500 },
      after: { balance: 300, withdrawn: 1200 },
      reason: 'ticket F-1: chargeback',
      roles: ['finance'],
    });
    expect((entry?.after as { lots?: unknown[] } | undefined)?.lots).toHaveLength(2);
  });

  it('once per reference: a repeat answers Withdrawn false and changes nothing', async () => {
    const email = newEmail('repeated');
    const token = await signUpVerified(t, email);
    await grant(email, 1000);
    expect((await withdraw(email, 100, 'F-2')).json().Result).toEqual({
      Withdrawn: true,
      Amount: 100,
      TokenBalance: 900,
    });
    const audited = await auditCount();
    expect((await withdraw(email, 100, 'F-2')).json().Result).toEqual({
      Withdrawn: false,
      Amount: 100,
      TokenBalance: 900,
    });
    // The reference names that withdrawal: for another customer or another amount it is refused.
    const other = newEmail('other');
    const otherToken = await signUpVerified(t, other);
    await grant(other, 50);
    const reused = await withdraw(other, 10, 'F-2');
    expect([reused.statusCode, faultOf(reused)]).toEqual([409, 'TokenWithdrawalReferenceReused']);
    const otherAmount = await withdraw(email, 200, 'F-2');
    expect([otherAmount.statusCode, faultOf(otherAmount)]).toEqual([409, 'TokenWithdrawalReferenceReused']);
    expect(await auditCount()).toBe(audited + 1); // the grant to the other customer, nothing else
    expect(await balanceOf(token)).toBe(900);
    expect(await balanceOf(otherToken)).toBe(50);
    // Without a reference nothing makes a retry withdraw once: refused.
    expect((await withdraw(email, 100, null)).statusCode).toBe(400);
    expect(await balanceOf(token)).toBe(900);
  });

  it('never below zero: more than the balance is TokenWithdrawalExceedsBalance and takes nothing', async () => {
    const email = newEmail('short');
    const token = await signUpVerified(t, email);
    await grant(email, 300);
    const audited = await auditCount();
    const res = await withdraw(email, 301, 'F-3');
    expect([res.statusCode, faultOf(res)]).toEqual([409, 'TokenWithdrawalExceedsBalance']);
    expect(await balanceOf(token)).toBe(300);
    expect(await auditCount()).toBe(audited);
    // The reference was not used up by the refusal.
    expect((await withdraw(email, 300, 'F-3')).json().Result).toEqual({
      Withdrawn: true,
      Amount: 300,
      TokenBalance: 0,
    });
    expect(faultOf(await withdraw(email, 1))).toBe('TokenWithdrawalExceedsBalance');
  });

  it('refuses bad input with a 4xx, and the other roles', async () => {
    const email = newEmail('refused');
    await signUpVerified(t, email);
    await grant(email, 100);
    expect((await withdraw(email, 10, 'F-4', null)).statusCode).toBe(400);
    expect((await withdraw(email, 0)).statusCode).toBe(400);
    expect((await withdraw(email, 1.5)).statusCode).toBe(400);
    expect((await withdraw('not-an-address', 1)).statusCode).toBe(400);
    expect((await operatorCall('withdraw-tokens', { email, amount: '10', reason: 'x y z' })).statusCode).toBe(400);
    const nobody = await withdraw('nobody-here@example.com', 10);
    expect([nobody.statusCode, faultOf(nobody)]).toEqual([404, 'UserNotFound']);
    for (const role of ['support', 'admin'] as const) {
      const res = await operatorCall('withdraw-tokens', { email, amount: 10, reason: 'not mine' }, [role]);
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OperatorForbidden']);
    }
  });

  it("a refund after a withdrawal takes its own share; finance's tokens are not counted as spent", async () => {
    const email = newEmail('refund-after');
    const token = await signUpVerified(t, email);
    const { invoiceTag: InvoiceTag } = await sandboxPurchase(t, token);
    expect((await withdraw(email, 300, 'F-5')).json().Result.TokenBalance).toBe(700);

    // Half the price back: 500 of the pack's 1,000 tokens are the refund's, 200 are left after it.
    const refund = await operatorCall('refund-payment', {
      invoiceTag: InvoiceTag,
      amountInCents: 500,
      reference: 'R-5',
      reason: 'R-5',
    });
    expect(refund.statusCode).toBe(200);
    const [lot] = await t.database.db
      .select()
      .from(tokenLots)
      .where(eq(tokenLots.sourceRef, `checkout:${InvoiceTag}`));
    expect(lot).toMatchObject({ amount: 1000, remaining: 200, withdrawn: 500, financeWithdrawn: 300 });
    const [kept] = await t.database.db.select().from(paymentRefunds).where(eq(paymentRefunds.invoiceTag, InvoiceTag));
    expect(kept).toMatchObject({ tokensWithdrawn: 500, tokensSpent: 0 });
    expect(await purchases(token)).toEqual([
      expect.objectContaining({ Type: refundedLotType(800), TokenBalance: 200, TokensWithdrawn: 800 }),
    ]);
  });
});

describe('racing withdrawals (ASVS 2.3.4)', () => {
  it('12 withdrawals of 150 and 4 spends of 70 at once against 1,000: never below zero', async () => {
    const email = newEmail('race');
    const token = await signUpVerified(t, email);
    await grant(email, 600);
    await grant(email, 400);
    const results = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => withdraw(email, 150, `race-${made}-${i}`)),
      ...Array.from({ length: 4 }, (_, i) =>
        t.call('/api/apps/ConsumeTokens', { seconds: 7, requestId: `race-spend-${i}` }, token),
      ),
    ]);
    const withdrawals = results.slice(0, 12);
    const spends = results.slice(12);
    for (const res of withdrawals) {
      if (res.statusCode === 200) expect(res.json().Result.TokenBalance).toBeGreaterThanOrEqual(0);
      else expect(faultOf(res)).toBe('TokenWithdrawalExceedsBalance');
    }
    for (const res of spends) {
      if (res.statusCode === 200) expect(res.json().Result.TokenBalance).toBeGreaterThanOrEqual(0);
      else expect(faultOf(res)).toBe('TokenBalanceInsufficient');
    }
    const withdrawn = withdrawals.filter((res) => res.statusCode === 200).length * 150;
    const spent = spends.filter((res) => res.statusCode === 200).length * 70;
    expect(withdrawn + spent).toBeLessThanOrEqual(1000);
    // A withdrawal was refused only when less than 150 was left.
    expect(1000 - withdrawn - spent).toBeLessThan(150);
    expect(await balanceOf(token)).toBe(1000 - withdrawn - spent);
    const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
    const lots = await t.database.db
      .select()
      .from(tokenLots)
      .where(eq(tokenLots.userId, user?.id as string));
    expect(lots.reduce((sum, lot) => sum + lot.financeWithdrawn, 0)).toBe(withdrawn);
    for (const lot of lots) expect(lot.remaining).toBeGreaterThanOrEqual(0);
  });

  it('the same reference sent 10 times at once withdraws once', async () => {
    const email = newEmail('same-ref');
    const token = await signUpVerified(t, email);
    await grant(email, 1000);
    const results = await Promise.all(Array.from({ length: 10 }, () => withdraw(email, 100, `same-${made}`)));
    expect(results.map((res) => res.statusCode)).toEqual(Array(10).fill(200));
    expect(results.filter((res) => res.json().Result.Withdrawn)).toHaveLength(1);
    for (const res of results) expect(res.json().Result.TokenBalance).toBe(900);
    expect(await balanceOf(token)).toBe(900);
    expect(
      await t.database.db
        .select()
        .from(tokenWithdrawals)
        .where(eq(tokenWithdrawals.reference, `same-${made}`)),
    ).toHaveLength(1);
  });
});
