import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/kit/test-app';

/** The CSP lets Stripe.js and the storefront in exactly when they are configured. */
function directives(csp: string): Record<string, string[]> {
  return Object.fromEntries(
    csp
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((words) => words[0])
      .map(([name, ...values]) => [name as string, values]),
  );
}

async function cspOf(t: TestApp): Promise<Record<string, string[]>> {
  const res = await t.app.inject('/api/health');
  return directives(String(res.headers['content-security-policy']));
}

describe('content security policy for checkout', () => {
  let sandbox: TestApp;
  let configured: TestApp;
  beforeAll(async () => {
    sandbox = await createTestApp();
    configured = await createTestApp({
      STRIPE_SECRET_KEY: 'sk_test_csp',
      STRIPE_PUBLISHABLE_KEY: 'pk_test_csp',
      STRIPE_WEBHOOK_SECRET: 'whsec_test_csp',
      SHOPIFY_STORE_DOMAIN: 'soundid-test.myshopify.com',
      SHOPIFY_STOREFRONT_TOKEN: 'storefront-token',
      SHOPIFY_WEBHOOK_SECRET: 'shopify-secret',
      SHOPIFY_VOICE_AI_PRODUCT_IDS: 'gid://shopify/Product/1',
    });
  });
  afterAll(async () => {
    await sandbox.close();
    await configured.close();
  });

  it('sandbox: no Stripe origin at all; the sandbox storefront and card form are this origin', async () => {
    const csp = await cspOf(sandbox);
    expect(
      Object.values(csp)
        .flat()
        .filter((source) => source.includes('stripe')),
    ).toEqual([]);
    expect(csp['connect-src']).toContain("'self'");
  });

  it('Stripe and Shopify configured: Stripe.js, its embedded Checkout frames and API, the store', async () => {
    const csp = await cspOf(configured);
    expect(csp['script-src']).toEqual(
      expect.arrayContaining(['https://js.stripe.com', 'https://*.js.stripe.com', 'https://checkout.stripe.com']),
    );
    expect(csp['frame-src']).toEqual(
      expect.arrayContaining([
        'https://js.stripe.com',
        'https://*.js.stripe.com',
        'https://hooks.stripe.com',
        'https://checkout.stripe.com',
      ]),
    );
    expect(csp['connect-src']).toEqual(
      expect.arrayContaining([
        'https://api.stripe.com',
        'https://checkout.stripe.com',
        'https://soundid-test.myshopify.com',
      ]),
    );
    expect(csp['script-src']).not.toContain('https://soundid-test.myshopify.com');
    expect(csp['frame-ancestors']).toEqual(["'none'"]);
  });
});
