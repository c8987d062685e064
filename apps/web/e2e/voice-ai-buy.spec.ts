import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifiedAccount } from './accounts';
import { expectAccessible, useBrowser } from './browser';
import { buyTokens, openBuyPage, payWithCard } from './checkout';
import { adminCli, adminPost, apiToken, appSimulator, issueKeys, registerKey } from './licences';

/**
 * Buying tokens in the sandbox as a customer does — buy page, checkout screen with the test
 * cards, post-checkout result, purchase history — and spending them from the app simulator
 * (`npm run app`) as the VoiceAI plugin does, then reading the usage history; Perpetual mode
 * bought from the buy page's card through the sandbox storefront, and the seven-day trial
 * started from the buy page.
 */
const stateDir = mkdtempSync(path.join(tmpdir(), 'soundid-e2e-app-'));
afterAll(() => rmSync(stateDir, { recursive: true, force: true }));

/** The app simulator (`npm run app`, licences.ts), its state kept in this file's folder. */
const simulate = async (baseUrl: string, ...args: string[]) =>
  (await appSimulator(baseUrl, path.join(stateDir, 'app.json'), ...args)).trim();

describe('voice AI buy page and card checkout', () => {
  const browser = useBrowser();

  it('buys a bundle with 4242 4242 4242 4242: Payment successful!, the tokens in the purchase history', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'buyer');
    const page = await browser.newPage();
    await openBuyPage(page, account);
    expect(await page.title()).toBe('My SoundID | SoundID VoiceAI Tokens');
    await page.getByText('No active license. Start the free trial, buy Perpetual mode or tokens.').waitFor();
    const producer = page.getByRole('listitem').filter({ has: page.getByRole('heading', { name: 'Producer' }) });
    await producer.getByText('Most popular').waitFor();
    await producer.getByText('$39.99').waitFor();

    await buyTokens(page, 'Producer');
    const events = await page.evaluate(() =>
      ((window as { dataLayer?: { event: string; page_path?: string }[] }).dataLayer ?? []).map((e) =>
        e.event === 'page_view' ? `page_view ${e.page_path}` : e.event,
      ),
    );
    // One begin_checkout, then the page views of the checkout and of its outcome (ADR 0026).
    expect(events.filter((event) => !event.startsWith('page_view'))).toEqual(['begin_checkout']);
    expect(events.slice(events.indexOf('begin_checkout'))).toEqual([
      'begin_checkout',
      'page_view /products/checkout',
      'page_view /products/post-checkout',
    ]);

    await page.goto('/products/transactions');
    const purchases = page.getByRole('table');
    await purchases.getByRole('cell', { name: 'Purchased' }).waitFor();
    expect(await purchases.getByRole('cell', { name: '5,000' }).count()).toBe(2); // amount and remaining

    // The token line reads once (ADR 0056).
    await page.goto('/products/voice-ai');
    await page.getByText('Your tokens: 5,000 (about 8 minutes of processing).', { exact: true }).waitFor();
  });

  it('a declined card (4000 0000 0000 0002) ends on Payment unsuccessful, and credits nothing', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'declined');
    const page = await browser.newPage();
    await openBuyPage(page, account);
    await payWithCard(page, 'Starter', '4000 0000 0000 0002');
    await page.getByRole('heading', { level: 1, name: 'Payment unsuccessful' }).waitFor();
    await page
      .getByText('Looks like there was an issue with your payment. Please try again later or contact our support team!')
      .waitFor();

    await page.goto('/products/transactions');
    await page.getByRole('table').getByRole('cell', { name: 'Nothing here yet.' }).waitFor();
  });

  it('tokens spent from the app simulator show in the usage history', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'spender');
    const page = await browser.newPage();
    await openBuyPage(page, account);
    await buyTokens(page, 'Starter');

    const base = browser.baseUrl;
    expect(await simulate(base, 'login', '--email', account.email, '--password', account.password)).toMatch(
      /^signed in as /,
    );
    expect(await simulate(base, 'activate', '--product', 'SoundIDVoiceAI', '--machine', 'e2e-vocal-booth')).toMatch(
      /1 of 2 devices activated/,
    );
    expect(await simulate(base, 'spend', '--seconds', '12.4', '--request', 'e2e-take-1')).toBe(
      'spent 130 tokens for 12.4 s (request e2e-take-1); 870 left',
    );

    await page.goto('/products/transactions');
    await page.getByRole('tab', { name: 'Usage history' }).click();
    const usage = page.getByRole('table');
    await usage.getByRole('cell', { name: '130' }).waitFor();
    expect(await usage.getByRole('cell', { name: 'Purchased' }).count()).toBe(1);
  });

  it("buys Perpetual mode from the buy page's card through the sandbox storefront; Licenses & Devices shows it", async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'perpetual-card');
    const page = await browser.newPage();
    await openBuyPage(page, account);
    const card = page.getByRole('region', { name: 'Perpetual mode' });
    await card.getByText('Price: $99.00').waitFor();
    // The compare-at price, struck through.
    expect(await card.locator('s').textContent()).toBe('Regular price: $149.00');

    await card.getByRole('button', { name: 'Buy Perpetual mode' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/sandbox/shopify/cart/c/'));
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    const summary = page.getByRole('region', { name: 'Order summary' });
    expect(await summary.getByText('SoundID VoiceAI Perpetual').count()).toBe(1);
    expect(await summary.getByText('Quantity 1').count()).toBe(1);
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you for your purchase!' }).waitFor();

    await page.getByRole('link', { name: 'Go to Licenses & Devices' }).click();
    await page.waitForURL((url) => url.pathname === '/products');
    const voice = page.getByRole('region', { name: 'SoundID VoiceAI' });
    await voice.getByText('Perpetual mode is active.').waitFor();
    const orders = await adminCli(browser.baseUrl, 'orders', '--email', account.email);
    const key = /^\s+([A-Z0-9]{6}-[A-Z0-9]{6}-[A-Z0-9]{6}-([A-Z0-9]{6}))\s+(\S+)$/m.exec(orders);
    expect(key?.[3]).toBe(account.email);
    await voice.getByText(`******-******-******-${key?.[2]}`).waitFor();
    await voice.getByRole('link', { name: 'Buy tokens' }).waitFor();
    expect(await voice.getByRole('link', { name: 'Buy Perpetual mode or tokens' }).count()).toBe(0);
  });

  it('a Perpetual owner with tokens: the mode is active, no Buy Perpetual mode, the tokens once (ADR 0056)', async () => {
    const base = browser.baseUrl;
    const account = await createVerifiedAccount(base, 'perpetual-tokens');
    await adminPost(base, 'grant-tokens', { email: account.email, amount: 4110 });
    const [key] = await issueKeys(base, 'voice-ai');
    await registerKey(base, await apiToken(base, account.email, account.password), key as string);

    const page = await browser.newPage();
    await openBuyPage(page, account);
    const card = page.getByRole('region', { name: 'Perpetual mode' });
    await card.getByText('Perpetual mode is active').waitFor();
    expect(await page.getByRole('button', { name: 'Buy Perpetual mode' }).count()).toBe(0);
    const tokens = page.getByRole('region', { name: 'Pay-as-you-go' });
    await tokens.getByText('Your tokens: 4,110 (about 6 minutes of processing).', { exact: true }).waitFor();
    expect(await page.getByText(/Your tokens: Pay-as-you-go/).count()).toBe(0);
    await expectAccessible(page, 'voice-ai-buy-perpetual-owner');
  });

  it('starts the seven-day free trial from the buy page, which then offers it no more', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'buy-trial');
    const page = await browser.newPage();
    await openBuyPage(page, account);
    const offer = page.getByRole('region', { name: 'Try it free for seven days' });
    await offer.getByText('Start your seven-day free trial of SoundID VoiceAI. No credit card required.').waitFor();

    await offer.getByRole('button', { name: 'Start 7-day free trial' }).click();
    await page.getByRole('heading', { level: 1, name: 'How to activate SoundID VoiceAI' }).waitFor();
    const activate = new URL(page.url());
    expect(activate.pathname).toBe('/products/voice-ai/activate');
    expect(activate.searchParams.get('activationType')).toBe('trial');
    expect(activate.searchParams.get('deeplink')).toMatch(/^soundid:\/\/starttrial\?/);

    await page.goBack();
    await page.getByText('Free trial: 7 days left.', { exact: true }).waitFor();
    expect(await offer.count()).toBe(0);
    await page.goto('/products');
    await page.getByText('Your free trial of SoundID VoiceAI ends in 7 days.').waitFor();
  });
});
