import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const grant = async (email: string, amount: number) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/grant-tokens',
    headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
    payload: { email, amount, reason: 'test grant' },
  });

describe('racing spends', () => {
  it('50 concurrent spends never take the balance below zero (ASVS 2.3.4)', async () => {
    const token = await signUpVerified(t, 'race@example.com');
    await grant('race@example.com', 1000);
    await grant('race@example.com', 500);
    // 50 spends of 70 tokens against 1500: exactly 21 fit.
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) =>
        t.call('/api/apps/ConsumeTokens', { seconds: 1, requestId: `race-${i}` }, token),
      ),
    );
    const ok = results.filter((r) => r.statusCode === 200);
    expect(ok).toHaveLength(21);
    expect(results.filter((r) => r.statusCode === 402)).toHaveLength(29);
    const balances = ok.map((r) => r.json().Result.TokenBalance).sort((a: number, b: number) => a - b);
    expect(balances).toEqual(Array.from({ length: 21 }, (_, i) => 30 + i * 70));
    const history = (await t.call('/api/voiceai/GetPurchaseHistory', { page: 1 }, token)).json().Result.PageItems;
    expect(history.reduce((sum: number, lot: { TokenBalance: number }) => sum + lot.TokenBalance, 0)).toBe(30);
  });

  it('the same requestId sent 10 times at once spends once', async () => {
    const token = await signUpVerified(t, 'dup@example.com');
    await grant('dup@example.com', 1000);
    const results = await Promise.all(
      Array.from({ length: 10 }, () => t.call('/api/apps/ConsumeTokens', { seconds: 10, requestId: 'once' }, token)),
    );
    for (const r of results) expect(r.json().Result).toEqual({ TokensSpent: 100, TokenBalance: 900 });
  });
});
