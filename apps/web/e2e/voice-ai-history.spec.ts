import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { expectAccessible, useBrowser } from './browser';
import { apiToken, operatorToken } from './licences';

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

  it('shows a job that two lots paid as one row, its payers under it when opened (ADR 0056)', async () => {
    const base = browser.baseUrl;
    const account = await createVerifiedAccount(base, 'tokens-jobs');
    for (const amount of [100, 1000]) {
      const grant = await fetch(`${base}/api/admin/grant-tokens`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken()}` },
        body: JSON.stringify({ email: account.email, amount, reason: 'history spec' }),
      });
      expect(grant.ok).toBe(true);
    }
    const token = await apiToken(base, account.email, account.password);
    const spend = await fetch(`${base}/api/apps/ConsumeTokens`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authtoken: token },
      body: JSON.stringify({ seconds: 12.5, requestId: 'e2e-two-lots' }),
    });
    // 130 tokens: the 100 of the first lot and 30 of the second.
    expect(((await spend.json()) as { Result: { TokensSpent: number } }).Result.TokensSpent).toBe(130);

    const page = await browser.newPage();
    await signInByCookie(page, base, account, '/products/transactions');
    const purchases = page.getByRole('table');
    await purchases.getByRole('cell', { name: '970' }).waitFor();
    // Per lot: remaining then spent (the second lot: 970 left, 30 spent; the first: 0 left, 100
    // spent); a grant has no receipt (ADR 0058), so its last cell is empty.
    const rows = purchases.getByRole('row');
    expect(await rows.nth(1).getByRole('cell').allTextContents()).toEqual([
      '1,000',
      'Granted',
      expect.any(String),
      expect.any(String),
      '970',
      '30',
      '',
    ]);
    expect((await rows.nth(2).getByRole('cell').allTextContents()).slice(4)).toEqual(['0', '100', '']);

    await page.getByRole('tab', { name: 'Usage history' }).click();
    const usage = page.getByRole('table');
    await usage.getByRole('cell', { name: '130' }).waitFor();
    // One row for the job (and the header row): not one per lot.
    expect(await usage.getByRole('row').count()).toBe(2);
    expect(await usage.getByRole('cell', { name: '12.5 s' }).count()).toBe(1);
    await usage.getByRole('button', { name: 'Show 2 lots' }).click();
    const payers = usage.getByRole('list', { name: 'Paid from' });
    expect(await payers.getByRole('listitem').allTextContents()).toEqual([
      expect.stringMatching(/^100 tokens: Granted, \d\d\/\d\d\/\d\d /),
      expect.stringMatching(/^30 tokens: Granted, \d\d\/\d\d\/\d\d /),
    ]);
    expect(await usage.getByRole('button', { name: 'Hide' }).getAttribute('aria-expanded')).toBe('true');
    await expectAccessible(page, 'usage-history-payers');
  });
});
