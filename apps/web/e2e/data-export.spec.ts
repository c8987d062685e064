import { readFile } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, logIn } from './accounts';
import { useBrowser } from './browser';
import { apiToken, issueKeys, registerKey } from './licences';

/**
 * The customer's data in their hands, end to end in Chromium (ADR 0038): the profile's "Your
 * data" panel saves the export as JSON and as a readable page, and the deletion question lists
 * the licenses the deletion would end before its confirm button.
 */
describe('data export', () => {
  const browser = useBrowser();

  it('downloads the JSON and the readable page from the profile, and the deletion question shows what is lost', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'data-export');
    const [key] = await issueKeys(browser.baseUrl, 'sid-reference');
    await registerKey(browser.baseUrl, await apiToken(browser.baseUrl, account.email, account.password), key as string);
    const page = await browser.newPage();
    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    await page.goto('/profile');
    const panel = page.getByRole('region', { name: 'Your data' });

    const [json] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download my data (JSON)' }).click(),
    ]);
    expect(json.suggestedFilename()).toMatch(/^my-soundid-data-\d{4}-\d{2}-\d{2}\.json$/);
    const data = JSON.parse(await readFile(await json.path(), 'utf8'));
    expect(data.Format).toBe('my-soundid-data-export/1');
    expect(data.Profile.Email).toBe(account.email);
    expect(data.SignInMethods.HasPassword).toBe(true);
    expect(data.Keys.map((k: { Product: string }) => k.Product)).toEqual(['sid-reference']);
    expect(data.Sessions.length).toBeGreaterThanOrEqual(1);
    expect(data.Mails.length).toBeGreaterThanOrEqual(1);
    expect(JSON.stringify(data)).not.toContain('$argon2');

    const [html] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download as a readable page (HTML)' }).click(),
    ]);
    expect(html.suggestedFilename()).toMatch(/\.html$/);
    const readable = await readFile(await html.path(), 'utf8');
    expect(readable).toContain('<h1>My SoundID: your data</h1>');
    expect(readable).toContain(account.email);

    await page.getByRole('button', { name: 'Delete account' }).click();
    const losses = page.getByRole('list', { name: 'Deleting your account also ends:' });
    await expect
      .poll(() => losses.getByRole('listitem').allTextContents())
      .toEqual(['SoundID Reference for Speakers & Headphones, 1 key']);
    expect(await page.getByRole('button', { name: 'Yes, delete my account' }).count()).toBe(1);
    await page.getByRole('button', { name: 'Cancel' }).click();
  });
});
