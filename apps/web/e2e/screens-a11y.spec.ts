import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { appStarted, DESKTOP, expectAccessible, MOBILE, useBrowser } from './browser';

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
    await signInByCookie(page, browser.baseUrl, account, '/profile');
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

  it("Licenses & Devices: the demo customer's page at 1440 and 360 px, with a panel open", async () => {
    const demo = browser.demoAccount;
    for (const viewport of [DESKTOP, MOBILE]) {
      const page = await browser.newPage(viewport);
      await signInByCookie(page, browser.baseUrl, demo, '/products');
      await page.getByRole('heading', { level: 2, name: 'SoundID VoiceAI' }).waitFor();
      await page.getByRole('button', { name: 'Explore and manage preset expansion packs' }).click();
      await page.getByRole('button', { name: '2 of 3 devices activated' }).click();
      await page.getByRole('region', { name: /^Devices of/ }).waitFor();
      const label = viewport === MOBILE ? 'products-mobile' : 'products-desktop';
      await expectAccessible(page, label);
      // Nothing sticks out sideways at 360 px.
      expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    }
  });

  it('moves through the login form by keyboard alone', async () => {
    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    // Enter submits once the app runs: the sent form's submit is disabled until then (ADR 0024).
    await appStarted(page);
    await page.getByLabel('Email').focus();
    await page.keyboard.type('nobody@example.com');
    await page.keyboard.press('Tab');
    await page.keyboard.type('some-password');
    await page.keyboard.press('Enter');
    await page.getByRole('alert').getByText("We don't recognize this user.").waitFor();
  });

  // ── Voice AI buy page and card checkout (voice-buy) ──
  it('the buy page and the sandbox checkout pass axe at desktop and mobile width', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'buy-a11y');
    const page = await browser.newPage();
    await signInByCookie(page, browser.baseUrl, account, '/products/voice-ai');
    await page.getByRole('heading', { level: 1, name: 'Choose Perpetual or Pay-as-you-go' }).waitFor();
    await page.getByRole('button', { name: 'Start 7-day free trial' }).waitFor();
    // The storefront answers with the price, or the card says it cannot: either way it has settled.
    await page.getByText('Loading price…').waitFor({ state: 'detached' });
    await expectAccessible(page, 'voice-ai-buy');
    await page.setViewportSize(MOBILE);
    await expectAccessible(page, 'voice-ai-buy-mobile');

    await page.getByRole('button', { name: 'Buy tokens' }).first().click();
    await page.getByLabel('Card number').waitFor();
    await expectAccessible(page, 'checkout-sandbox-mobile');
  });
});
