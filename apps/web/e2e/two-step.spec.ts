import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, logIn } from './accounts';
import { useBrowser } from './browser';

/**
 * Two-step verification end to end in Chromium (ADR 0037; ASVS 6.5.1, 6.5.5): turned on from the
 * profile with the QR code and key shown, confirmed by the authenticator's code, recovery codes
 * shown once; then signing in asks for a code, and a recovery code works once and is mailed about.
 * The "authenticator app" is otplib, reading the key the page shows.
 */
describe('two-step verification', () => {
  const browser = useBrowser();

  it('is turned on from the profile, then signing in needs the code or a recovery code', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'two-step');
    const page = await browser.newPage();
    // Off the portal first: a signed-in page losing its cookie would reload itself mid-navigation.
    const signOut = async () => {
      await page.goto('about:blank');
      await page.context().clearCookies();
    };
    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    await page.goto('/profile');
    const panel = page.getByRole('region', { name: 'Two-step verification' });
    await panel.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => panel.getByRole('img', { name: 'QR code for your authenticator app' }).count()).toBe(1);
    const secret = ((await panel.locator('.two-step__secret code').textContent()) ?? '').replaceAll(' ', '');
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    await panel.getByLabel('Code from the app').fill(generateSync({ secret }));
    await panel.getByRole('button', { name: 'Turn on two-step verification' }).click();
    const codes = panel.getByRole('list', { name: 'Your recovery codes' }).getByRole('listitem');
    await expect.poll(() => codes.count()).toBe(10);
    const recovery = (await codes.first().textContent()) ?? '';
    await panel.getByRole('button', { name: 'I have saved my codes' }).click();
    await expect.poll(() => panel.getByText(/10 recovery codes left/).count()).toBe(1);

    // Signed out, the password alone no longer signs in: the code is asked for.
    await signOut();
    await logIn(page, account.email, account.password);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    expect(page.url()).toContain('/login');
    // A code from the next step (this step's was used to turn it on).
    const next = generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + 30 });
    await page.getByLabel('Code').fill(next);
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/products');

    // A recovery code signs in once, and the customer hears of it.
    await signOut();
    await logIn(page, account.email, account.password);
    await page.getByLabel('Code').fill(recovery.toUpperCase());
    await page.getByRole('button', { name: 'Verify' }).click();
    await page.waitForURL('**/products');
    const mails = await (await fetch(`${browser.baseUrl}/api/dev/mail?to=${encodeURIComponent(account.email)}`)).json();
    expect(mails.Result.map((m: { Subject: string }) => m.Subject)).toContain(
      'A recovery code was used to sign in to My SoundID',
    );
    await signOut();
    await logIn(page, account.email, account.password);
    await page.getByLabel('Code').fill(recovery);
    await page.getByRole('button', { name: 'Verify' }).click();
    await expect.poll(() => page.getByText('That code is not valid. Please try again.').count()).toBe(1);
  });
});
