import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiResult, apiToken, createVerifiedAccount, logIn, sessionOwner } from './accounts';
import { appStarted, useBrowser } from './browser';

/**
 * A link's `?token=` in Chromium (ADR 0029): a session token someone put into a link signs
 * nobody in (ASVS 7.2.4), and a desktop app's one-time code replaces the session of another
 * customer only once the customer says so, naming both addresses (ASVS 7.6.2); the replaced
 * session ends on the server (ASVS 7.4.1).
 */
describe('a link with a query token', () => {
  const browser = useBrowser();

  /** Who the page's session cookie belongs to, asked as the SPA asks (or the fault's name). */
  const whoIsHere = (page: Page) =>
    page.evaluate(async () => {
      const res = await fetch('/api/accounts/LoginByToken', {
        method: 'POST',
        headers: { 'content-type': 'application/json', Software: 'MySoundID-E2E/1.0' },
        body: '{}',
      });
      const body = await res.json();
      return body.Success ? (body.Result.User.Email as string) : (body.Fault.ExceptionName as string);
    });

  /** Who a session token belongs to, as an app asks (or the fault's name). */
  const whoIs = (token: string) => sessionOwner(browser.baseUrl, token);

  const sessionCookie = async (page: Page) =>
    (await page.context().cookies()).find((c) => c.name.endsWith('soundid_session'))?.value;

  const signedInAs = async (page: Page, account: { email: string; password: string }) => {
    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    await page.getByRole('heading', { level: 1, name: 'Licenses & Devices' }).waitFor();
    return (await sessionCookie(page)) as string;
  };

  it('with another customer’s session token signs nobody in: A stays A (ASVS 7.2.4)', async () => {
    const base = browser.baseUrl;
    const ann = await createVerifiedAccount(base, 'link-ann');
    const bob = await createVerifiedAccount(base, 'link-bob');
    const bobSession = await apiToken(base, bob);

    const page = await browser.newPage();
    const annSession = await signedInAs(page, ann);
    await page.goto(`/products?token=${bobSession}`);
    await appStarted(page);
    await page.waitForLoadState('networkidle');
    expect(await whoIsHere(page)).toBe(ann.email);
    expect(await sessionCookie(page)).toBe(annSession);
    // The token left the address bar, and the page says the link did not sign in.
    expect(new URL(page.url()).search).toBe('');
    await page.getByText('This sign-in link is not valid.').waitFor();
    expect(await whoIs(bobSession)).toBe(bob.email);

    // Nobody signed in: the link signs nobody in either.
    const fresh = await browser.newPage();
    await fresh.goto(`/products?token=${bobSession}`);
    await fresh.waitForURL('**/login**');
    expect(await sessionCookie(fresh)).toBeUndefined();
    expect(await whoIsHere(fresh)).toBe('SecurityAuthTokenNotPassed');
  });

  it('from the app of another customer asks first, naming both; staying keeps A, switching ends A’s session (ASVS 7.6.2, 7.4.1)', async () => {
    const base = browser.baseUrl;
    const ann = await createVerifiedAccount(base, 'switch-ann');
    const bob = await createVerifiedAccount(base, 'switch-bob');
    const bobApp = await apiToken(base, bob);
    const portalLink = async () =>
      (await apiResult<{ Url: string }>(base, '/api/apps/CreateWebLoginCode', { path: '/products' }, bobApp)).Url;

    const page = await browser.newPage();
    const annSession = await signedInAs(page, ann);

    await page.goto(await portalLink());
    const dialog = page.getByRole('dialog', { name: 'Switch account?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toContain(
      `You are signed in as ${ann.email}. The link you opened signs in as ${bob.email}.`,
    );
    expect(new URL(page.url()).search).toBe('');
    await page.getByRole('button', { name: `Stay signed in as ${ann.email}` }).click();
    await dialog.waitFor({ state: 'hidden' });
    expect(await whoIsHere(page)).toBe(ann.email);
    expect(await sessionCookie(page)).toBe(annSession);

    await page.goto(await portalLink());
    const reloaded = page.waitForEvent('load');
    await page.getByRole('button', { name: `Continue as ${bob.email}` }).click();
    await reloaded;
    await appStarted(page);
    expect(await whoIsHere(page)).toBe(bob.email);
    expect(await sessionCookie(page)).not.toBe(annSession);
    // Ann's session is over on the server, not only gone from this browser.
    expect(await whoIs(annSession)).toBe('UserAuthenticationFailed');
  });
});
