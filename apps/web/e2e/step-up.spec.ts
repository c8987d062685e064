import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiResult, apiToken, createVerifiedAccount, logIn, mailLink } from './accounts';
import { appStarted, MOBILE, useBrowser } from './browser';

/**
 * Step-up in Chromium (ADR 0040; ASVS 7.5.1): a browser opened signed in by a desktop app's
 * portal link has proven nothing, so an e-mail change asks "Confirm it's you" in place; once the
 * password is given, the change the customer started goes on with the spec's own message.
 */
describe('step-up before what matters', () => {
  const browser = useBrowser();

  /** A browser signed in by the customer's desktop app (no proof of presence in it). */
  const openedByApp = async (page: Page, account: { email: string; password: string }, path: string, app?: string) => {
    app ??= await apiToken(browser.baseUrl, account);
    const { Url } = await apiResult<{ Url: string }>(browser.baseUrl, '/api/apps/CreateWebLoginCode', { path }, app);
    const link = new URL(Url);
    await page.goto(`${link.pathname}${link.search}`);
    await page.waitForURL(`**${path}`);
    await appStarted(page);
  };

  it('asks for the password in place before an e-mail change, then completes it', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'step-up');
    const newEmail = `moved-${account.email}`;
    const page = await browser.newPage();
    await openedByApp(page, account, '/profile');

    await page.getByRole('button', { name: 'Change Email' }).click();
    await page.getByLabel('New email address').fill(newEmail);
    await page.getByRole('button', { name: 'Save' }).click();

    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await dialog.waitFor();
    await dialog.getByLabel('Password').fill('not the password');
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await dialog.getByText("That didn't confirm it's you. Please try again.").waitFor();
    await dialog.getByLabel('Password').fill(account.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();

    // The change the customer started goes on: the spec's message, and the mail to the new address.
    await page.getByText('We have sent a confirmation link to your new email address.').waitFor();
    expect(await dialog.count()).toBe(0);
    expect(await mailLink(browser.baseUrl, newEmail, '/verify-email-change/')).toMatch(/^\/verify-email-change\//);
  });

  it('makes Confirm the one primary button and lists the other ways on one line, on a desktop and a phone', async () => {
    const base = browser.baseUrl;
    const account = await createVerifiedAccount(base, 'step-up-ways');
    // The app signs in before two-step verification is on; its session then opens the portal.
    const app = await apiToken(base, account);
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    await page.goto('/profile');
    const passkeys = page.getByRole('region', { name: 'Passkeys' });
    await passkeys.getByRole('button', { name: 'Add a passkey' }).click();
    await expect
      .poll(() => passkeys.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem').count())
      .toBe(1);
    const { Secret } = await apiResult<{ Secret: string }>(base, '/api/accounts/BeginTotpSetup', {}, app);
    await apiResult(base, '/api/accounts/ConfirmTotpSetup', { code: generateSync({ secret: Secret }) }, app);

    const opened = await browser.newPage();
    await openedByApp(opened, account, '/profile', app);
    await opened.getByRole('button', { name: 'Change Email' }).click();
    await opened.getByLabel('New email address').fill(`moved-${account.email}`);
    await opened.getByRole('button', { name: 'Save' }).click();
    const dialog = opened.getByRole('dialog', { name: 'Confirm it’s you' });
    await dialog.waitFor();
    expect(await dialog.locator('.button--primary').allTextContents()).toEqual(['Confirm']);
    const others = dialog.getByRole('list', { name: 'Or confirm another way:' }).getByRole('button');
    expect(await others.allTextContents()).toEqual(['Authenticator app', 'Passkey']);
    for (const viewport of [undefined, MOBILE]) {
      if (viewport) await opened.setViewportSize(viewport);
      const tops = await others.evaluateAll((buttons) => buttons.map((b) => Math.round(b.getBoundingClientRect().top)));
      expect(new Set(tops).size, `the other ways on one line at ${opened.viewportSize()?.width} px`).toBe(1);
    }
  });

  it('closing the dialog leaves everything as it was', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'step-up-close');
    const page = await browser.newPage();
    await openedByApp(page, account, '/profile');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('button', { name: 'Yes, delete my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Close' }).click();
    await dialog.waitFor({ state: 'detached' });
    // The customer chose to stop: no banner, no deletion message, no mail.
    expect(await page.getByText('We have sent you an email to confirm the deletion of your account.').count()).toBe(0);
    await expect(mailLink(browser.baseUrl, account.email, '/delete-account/', 1_000)).rejects.toThrow();
  });
});
