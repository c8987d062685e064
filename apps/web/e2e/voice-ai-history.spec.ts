import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { expectAccessible, useBrowser } from './browser';
import { operatorToken } from './licences';

/** Tokens granted by an operator and spent by an app show in the customer's history. */
describe('voice AI transaction history', () => {
  const browser = useBrowser();

  it('shows the granted lot with what remains, and the spend under usage', async () => {
    const base = browser.baseUrl;
    const account = await createVerifiedAccount(base, 'tokens');
    const grant = await fetch(`${base}/api/admin/grant-tokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken()}` },
      body: JSON.stringify({ email: account.email, amount: 1000, reason: 'history spec' }),
    });
    expect(grant.ok).toBe(true);
    // What a desktop app does: sign in, then bill 12 seconds of processing.
    const login = (await (
      await fetch(`${base}/api/accounts/LoginByEmail`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ email: account.email, password: account.password }),
      })
    ).json()) as { Token: string };
    const spend = (await (
      await fetch(`${base}/api/apps/ConsumeTokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authtoken: login.Token },
        body: JSON.stringify({ seconds: 12, requestId: 'e2e-1' }),
      })
    ).json()) as { Result: { TokensSpent: number; TokenBalance: number } };
    expect(spend.Result).toEqual({ TokensSpent: 120, TokenBalance: 880 });

    const page = await browser.newPage();
    await signInByCookie(page, base, account, '/products/transactions');
    await page.getByRole('heading', { level: 1, name: 'Transaction history' }).waitFor();
    const purchases = page.getByRole('table');
    await purchases.getByRole('cell', { name: '1,000' }).waitFor();
    expect(await purchases.getByRole('cell', { name: '880' }).count()).toBe(1);
    expect(await purchases.getByRole('cell', { name: 'Granted' }).count()).toBe(1);
    await expectAccessible(page, 'transaction-history');

    await page.getByRole('tab', { name: 'Usage history' }).click();
    await page.getByRole('table').getByRole('cell', { name: '120' }).waitFor();
    expect(await page.title()).toBe('My SoundID | SoundID VoiceAI Transactions');
  });
});
