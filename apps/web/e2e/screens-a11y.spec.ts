import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, logIn } from './accounts';
import { expectAccessible, MOBILE, useBrowser } from './browser';

/** The screens the journey does not pass through, checked with axe-core at both widths. */
describe('screens are accessible', () => {
  const browser = useBrowser();

  it('anonymous screens: login on mobile, not found', async () => {
    const page = await browser.newPage(MOBILE);
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await expectAccessible(page, 'login-mobile');
    await page.getByRole('button', { name: 'Open menu' }).click();
    expect(await page.evaluate(() => document.body.classList.contains('is-scroll-locked'))).toBe(true);
    await expectAccessible(page, 'mobile-menu');
    await page.keyboard.press('Escape');
    expect(await page.evaluate(() => document.body.classList.contains('is-scroll-locked'))).toBe(false);

    await page.goto('/no/such/page');
    await page.getByRole('heading', { level: 1, name: 'Page not found' }).waitFor();
    expect(await page.title()).toBe('My SoundID | Page Not Found');
    await expectAccessible(page, 'not-found');
  });

  it('signed-in screens: profile on mobile, add license, campaign claim', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'a11y');
    const page = await browser.newPage(MOBILE);
    await logIn(page, account.email, account.password, '/login?nextUrl=%2Fprofile');
    await page.waitForURL('**/profile');
    await page.getByRole('region', { name: 'Password' }).waitFor();
    await expectAccessible(page, 'profile-mobile');

    await page.goto('/add-license');
    const key = page.getByLabel('License activation key');
    await key.fill('upg-abcdefgh12');
    await page.getByRole('button', { name: 'Register key' }).click();
    await page.getByText('This looks like an upgrade code.', { exact: false }).waitFor();
    await expectAccessible(page, 'add-license');

    await page.goto('/adam-audio');
    await page.getByRole('button', { name: 'Claim trial' }).click();
    await page.getByText('Serial number must be at least 9 characters.').waitFor();
    await expectAccessible(page, 'adam-audio');
  });

  it('moves through the login form by keyboard alone', async () => {
    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await page.getByLabel('Email').focus();
    await page.keyboard.type('nobody@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('some-password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText("We don't recognize this user.").waitFor();
  });
});
