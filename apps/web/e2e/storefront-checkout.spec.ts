import { createStorefrontApiClient } from '@shopify/storefront-api-client';
import { SANDBOX_STOREFRONT_GRAPHQL_PATH } from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import { apiResult, apiToken, createVerifiedAccount } from './accounts';
import { expectAccessible, MOBILE, useBrowser } from './browser';

/**
 * The perpetual licence through the sandbox storefront, in Chromium: a cart made with Shopify's
 * Storefront API client (as the buy page makes it), its checkout page opened and paid, and the
 * licence then in the customer's account (read through the API: the Licenses & Devices page
 * is another engineer's).
 */
describe('perpetual licence through the sandbox storefront', () => {
  const browser = useBrowser();

  async function cartFor(email: string): Promise<string> {
    const base = browser.baseUrl;
    const settings = (await (await fetch(`${base}/api/shopify/store-settings`)).json()).Result as {
      StoreDomain: string;
      StorefrontAccessToken: string;
      VoiceAiProductIds: string[];
      ApiVersion: string;
      Sandbox: boolean;
    };
    expect(settings.Sandbox).toBe(true);
    const client = createStorefrontApiClient({
      storeDomain: settings.StoreDomain,
      apiVersion: settings.ApiVersion,
      publicAccessToken: settings.StorefrontAccessToken,
      // The client forces https on the store domain; in sandbox mode requests go to this service.
      customFetchApi: (_url, init) => fetch(`${base}${SANDBOX_STOREFRONT_GRAPHQL_PATH}`, init),
      logger: () => {},
    });
    const product = await client.request(
      'query ($id: ID!) { product(id: $id) { variants(first: 1) { nodes { id price { amount currencyCode } compareAtPrice { amount currencyCode } } } } }',
      { variables: { id: settings.VoiceAiProductIds[0] } },
    );
    const variant = product.data?.product?.variants?.nodes?.[0];
    expect(variant?.price).toEqual({ amount: '99.0', currencyCode: 'USD' });
    const created = await client.request(
      'mutation ($input: CartInput!) { cartCreate(input: $input) { cart { id checkoutUrl } userErrors { field message } } }',
      { variables: { input: { lines: [{ merchandiseId: variant.id, quantity: 1 }], buyerIdentity: { email } } } },
    );
    expect(created.data?.cartCreate?.userErrors).toEqual([]);
    return created.data.cartCreate.cart.checkoutUrl as string;
  }

  async function perpetualKeyOf(account: { email: string; password: string }): Promise<string | null> {
    const token = await apiToken(browser.baseUrl, account);
    const list = await apiResult<{ VoiceAIProducts: { LicenseStatus: { OfflineLicenseKey: string | null } } }>(
      browser.baseUrl,
      '/api/licenses/GetAccountLicensesByProductLine',
      {},
      token,
    );
    return list.VoiceAIProducts.LicenseStatus.OfflineLicenseKey;
  }

  it('pays the checkout page and the licence is in the account', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'perpetual');
    expect(await perpetualKeyOf(account)).toBeNull();
    const checkoutUrl = await cartFor(account.email);

    const page = await browser.newPage();
    await page.goto(checkoutUrl);
    await page.getByRole('heading', { level: 1, name: 'Checkout' }).waitFor();
    const summary = page.getByRole('region', { name: 'Order summary' });
    expect(await summary.getByText('SoundID VoiceAI Perpetual').count()).toBe(1);
    expect(await summary.getByText('$149.00').count()).toBe(1);
    expect(await page.getByLabel('Email').inputValue()).toBe(account.email);
    await expectAccessible(page, 'sandbox-checkout');

    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('heading', { level: 1, name: 'Thank you for your purchase!' }).waitFor();
    expect(await page.getByRole('status').textContent()).toMatch(/Your order #\d+ is confirmed\./);
    const toProducts = page.getByRole('link', { name: 'Go to Licenses & Devices' });
    expect(await toProducts.getAttribute('href')).toBe(`${browser.baseUrl}/products`);
    await expectAccessible(page, 'sandbox-checkout-thank-you');

    expect(await perpetualKeyOf(account)).toMatch(/^\*{6}-\*{6}-\*{6}-[A-Z0-9]{6}$/);

    // The way back leads to Licenses & Devices (through the sign-in when this browser is signed out).
    await toProducts.click();
    await page.waitForURL((url) => url.pathname === '/products' || url.pathname === '/login');
  });

  it('works at 360 px, and an invalid e-mail is refused next to the field', async () => {
    const checkoutUrl = await cartFor(`mobile-${Date.now()}@example.com`);
    const page = await browser.newPage(MOBILE);
    await page.goto(checkoutUrl);
    await page.getByLabel('Email').fill('not-an-address');
    await page.getByRole('button', { name: 'Pay now' }).click();
    await page.getByRole('alert').waitFor();
    expect(await page.getByRole('alert').textContent()).toBe('Email address is not in a correct format.');
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
    await expectAccessible(page, 'sandbox-checkout-mobile');

    await page.getByRole('link', { name: 'Cancel and return to the store' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/products') || url.pathname === '/login');
  });
});
