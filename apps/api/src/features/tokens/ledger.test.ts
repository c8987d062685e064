import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const grant = async (email: string, amount: number, reference?: string) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/grant-tokens',
    headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
    payload: { email, amount, reason: 'test grant', ...(reference ? { reference } : {}) },
  });
const login = async (email: string) =>
  (await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD })).json().Token as string;
const spend = (token: string, seconds: number, requestId: string) =>
  t.call('/api/apps/ConsumeTokens', { seconds, requestId }, token);

describe('ConsumeTokens', () => {
  it('bills 10 tokens a second, at least 7 seconds, whole seconds rounded up', async () => {
    const token = await signUpVerified(t, 'bill@example.com');
    await grant('bill@example.com', 1000);
    expect((await spend(token, 0.5, 'r1')).json().Result).toEqual({ TokensSpent: 70, TokenBalance: 930 });
    expect((await spend(token, 7, 'r2')).json().Result).toEqual({ TokensSpent: 70, TokenBalance: 860 });
    expect((await spend(token, 7.01, 'r3')).json().Result).toEqual({ TokensSpent: 80, TokenBalance: 780 });
    expect((await spend(token, 30, 'r4')).json().Result).toEqual({ TokensSpent: 300, TokenBalance: 480 });
  });

  it('answers a repeated requestId with the first result and spends nothing more', async () => {
    const token = await signUpVerified(t, 'rep@example.com');
    await grant('rep@example.com', 500);
    const first = (await spend(token, 10, 'same')).json().Result;
    const again = (await spend(token, 10, 'same')).json().Result;
    expect(again).toEqual(first);
    expect((await spend(token, 1, 'other')).json().Result.TokenBalance).toBe(330);
    expect(faultOf(await spend(token, 20, 'same'))).toBe('TokenRequestIdReused');
  });

  it('refuses a spend above the balance and spends nothing', async () => {
    const token = await signUpVerified(t, 'poor@example.com');
    await grant('poor@example.com', 100);
    const res = await spend(token, 11, 'big');
    expect(res.statusCode).toBe(402);
    expect(res.json().Fault).toMatchObject({
      ExceptionName: 'TokenBalanceInsufficient',
      ExceptionVariables: [
        { Key: 'TokensNeeded', Value: '110' },
        { Key: 'TokenBalance', Value: '100' },
      ],
    });
    expect((await spend(token, 10, 'fits')).json().Result).toEqual({ TokensSpent: 100, TokenBalance: 0 });
  });

  it('spends the earliest lots first', async () => {
    await signUpVerified(t, 'fifo@example.com');
    await grant('fifo@example.com', 100, 'fifo-old');
    t.clock.advanceHours(24 * 200);
    await grant('fifo@example.com', 100, 'fifo-new');
    const token = await login('fifo@example.com');
    await spend(token, 8, 'a'); // 80 from the old lot
    expect((await spend(token, 7, 'b')).json().Result.TokenBalance).toBe(50); // 20 old + 50 new
    const usage = (await t.call('/api/voiceai/GetActionHistory', { page: 1 }, token)).json().Result;
    // One row per job, its whole cost; the lots that paid it, earliest first (ADR 0056).
    expect(usage.PageItems.map((u: { TokenAmount: number }) => u.TokenAmount)).toEqual([70, 80]);
    expect(usage.PageItems[0].Payers.map((p: { Tokens: number }) => p.Tokens)).toEqual([20, 50]);
    const lots = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
    expect(lots.map((l: { TokenBalance: number }) => l.TokenBalance)).toEqual([50, 0]);
  });

  it('never spends a lot past its 12 months', async () => {
    await signUpVerified(t, 'old@example.com');
    await grant('old@example.com', 100, 'exp-a');
    t.clock.advanceHours(24 * 200);
    await grant('old@example.com', 100, 'exp-b');
    t.clock.advanceHours(24 * 170);
    const token = await login('old@example.com');
    expect((await spend(token, 7, 'after-expiry')).json().Result).toEqual({ TokensSpent: 70, TokenBalance: 30 });
    expect(faultOf(await spend(token, 7, 'too-much'))).toBe('TokenBalanceInsufficient');
    const lots = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
    expect(lots.map((l: { TokenBalance: number }) => l.TokenBalance)).toEqual([30, 0]);
  });

  it('needs a session', async () => {
    const res = await t.call('/api/apps/ConsumeTokens', { seconds: 1, requestId: 'x' });
    expect(res.json().Fault.ExceptionType).toBe(30);
  });
});

describe('grants', () => {
  it('credit once per operator reference', async () => {
    await signUpVerified(t, 'gift@example.com');
    expect((await grant('gift@example.com', 50, 'TICKET-1')).json().Result).toMatchObject({
      Credited: true,
      TokenBalance: 50,
    });
    expect((await grant('gift@example.com', 50, 'TICKET-1')).json().Result).toMatchObject({
      Credited: false,
      TokenBalance: 50,
    });
    expect(faultOf(await grant('nobody@example.com', 50))).toBe('UserNotFound');
  });
});

describe('history', () => {
  it('pages purchases newest first with expiry 12 months later and remaining; zero items is one page', async () => {
    const token = await signUpVerified(t, 'hist@example.com');
    const empty = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result;
    expect(empty).toEqual({ PageItems: [], PageNumber: 1, PageCount: 1 });
    for (let i = 1; i <= 12; i++) {
      await grant('hist@example.com', i * 10, `h${i}`);
      t.clock.advanceMinutes(1);
    }
    const page1 = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result;
    expect(page1.PageCount).toBe(2);
    expect(page1.PageItems).toHaveLength(10);
    expect(page1.PageItems[0]).toMatchObject({ TokenAmount: 120, Type: 'Granted', TokenBalance: 120 });
    const order = new Date(page1.PageItems[0].OrderDate);
    const expiry = new Date(page1.PageItems[0].ExpiryDate);
    expect(expiry.getUTCFullYear() - order.getUTCFullYear()).toBe(1);
    expect(expiry.getUTCMonth()).toBe(order.getUTCMonth());
    const page2 = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 2 }, token)).json().Result;
    expect(page2.PageItems.map((p: { TokenAmount: number }) => p.TokenAmount)).toEqual([20, 10]);
    expect((await t.call('/api/voiceai/GetPurchaseHistory', { page: 0 }, token)).statusCode).toBe(400);
  });

  it('shows a job as one row with its cost, seconds and the lots that paid it; pages by job (ADR 0056)', async () => {
    await signUpVerified(t, 'jobs@example.com');
    await grant('jobs@example.com', 100, 'jobs-old');
    t.clock.advanceHours(24);
    const newLotAt = t.clock.now().getTime();
    await grant('jobs@example.com', 1000, 'jobs-new');
    const token = await login('jobs@example.com');
    await spend(token, 9, 'job-1'); // 90 from the old lot
    await spend(token, 7.5, 'job-2'); // 80: 10 old + 70 new, in the same millisecond as job-1
    const usage = (await t.call('/api/voiceai/GetActionHistory', { page: 1 }, token)).json().Result;
    expect(usage.PageCount).toBe(1);
    expect(usage.PageItems).toEqual([
      {
        TokenAmount: 80,
        Type: 'Granted',
        Date: t.clock.now().getTime(),
        Seconds: 7.5,
        Payers: [
          { Type: 'Granted', OrderDate: newLotAt - 86_400_000, Tokens: 10 },
          { Type: 'Granted', OrderDate: newLotAt, Tokens: 70 },
        ],
      },
      {
        TokenAmount: 90,
        Type: 'Granted',
        Date: t.clock.now().getTime(),
        Seconds: 9,
        Payers: [{ Type: 'Granted', OrderDate: newLotAt - 86_400_000, Tokens: 90 }],
      },
    ]);
    for (let i = 3; i <= 11; i++) {
      t.clock.advanceMinutes(1);
      await spend(token, 7, `job-${i}`);
    }
    const page1 = (await t.call('/api/voiceai/GetActionHistory', { page: 1 }, token)).json().Result;
    const page2 = (await t.call('/api/voiceai/GetActionHistory', { page: 2 }, token)).json().Result;
    expect(page1.PageCount).toBe(2);
    expect(page1.PageItems).toHaveLength(10);
    expect(page2.PageItems.map((u: { TokenAmount: number }) => u.TokenAmount)).toEqual([90]);
  });

  it('tells per lot what was spent and marks an expired lot with what it held (ADR 0056)', async () => {
    await signUpVerified(t, 'lots@example.com');
    await grant('lots@example.com', 500, 'lots-a');
    const token = await login('lots@example.com');
    await spend(token, 20, 'lots-job');
    const live = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
    expect(live[0]).toMatchObject({ TokenAmount: 500, TokensSpent: 200, TokenBalance: 300, IsExpired: false });
    expect(live[0]).not.toHaveProperty('TokensExpired');
    t.clock.advanceHours(24 * 370);
    const later = await login('lots@example.com');
    const expired = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, later)).json().Result.PageItems;
    expect(expired[0]).toMatchObject({ TokensSpent: 200, TokenBalance: 0, IsExpired: true, TokensExpired: 300 });
  });
});
