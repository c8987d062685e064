import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { SANDBOX_STOREFRONT_GRAPHQL_PATH } from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { deliverShopifyWebhook, shopifyOrder, storeSettings } from '../../../test/storefront';
import { ConfigError, loadConfig } from '../../config';
import { storefrontOrders } from '../../db/storefront-schema';
import { deriveSandboxShopifyWebhookSecret } from '../../dev/shopify-sandbox/webhook-secret';

/**
 * With SHOPIFY_* set the real store is used: nothing of the sandbox is mounted, and the order
 * webhook verifies with SHOPIFY_WEBHOOK_SECRET and maps the configured product GIDs to the
 * numeric ids of order line items. Production without SHOPIFY_* has no storefront at all.
 */
const SHOPIFY = {
  SHOPIFY_STORE_DOMAIN: 'soundid-store.myshopify.com',
  SHOPIFY_STOREFRONT_TOKEN: 'e3f1c0ffee0123456789abcdef012345',
  SHOPIFY_WEBHOOK_SECRET: 'shpss_0123456789abcdef0123456789abcdef',
  SHOPIFY_VOICE_AI_PRODUCT_IDS: 'gid://shopify/Product/7981234567890, gid://shopify/Product/7981234567891',
};

describe('with SHOPIFY_* set (the real store)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(SHOPIFY);
  });
  afterAll(() => t.close());

  it('store settings name the store; the sandbox storefront and checkout page are not there', async () => {
    expect(await storeSettings(t.app)).toEqual({
      StoreDomain: 'soundid-store.myshopify.com',
      StorefrontAccessToken: 'e3f1c0ffee0123456789abcdef012345',
      VoiceAiProductIds: ['gid://shopify/Product/7981234567890', 'gid://shopify/Product/7981234567891'],
      ApiVersion: '2025-01',
      Sandbox: false,
    });
    const graphql = await t.app.inject({
      method: 'POST',
      url: SANDBOX_STOREFRONT_GRAPHQL_PATH,
      payload: { query: '{ __typename }' },
      headers: { 'x-shopify-storefront-access-token': 'sandbox-storefront-token' },
    });
    expect(graphql.statusCode).toBe(404);
    expect((await t.app.inject('/sandbox/shopify/cart/c/abc?key=def')).statusCode).toBe(404);
    // The buy page's browser may talk to the store.
    const res = await t.app.inject('/api/health');
    expect(res.headers['content-security-policy']).toContain('connect-src');
    expect(res.headers['content-security-policy']).toContain('https://soundid-store.myshopify.com');
  });

  it('the webhook verifies with SHOPIFY_WEBHOOK_SECRET and grants for the configured products', async () => {
    const token = await signUpVerified(t, 'real@example.com');
    const order = shopifyOrder({
      email: 'real@example.com',
      lines: [
        { productId: 7981234567891, variantId: 43000000000001, quantity: 1 },
        // The sandbox's product id means nothing to the real store.
        { productId: 1001, variantId: 2001, quantity: 3 },
      ],
    });
    const sandboxSigned = await deliverShopifyWebhook(t.app, {
      body: order,
      secret: deriveSandboxShopifyWebhookSecret('test-session-secret-0123456789abcdef0123456789'),
    });
    expect(faultOf(sandboxSigned)).toBe('WebhookSignatureInvalid');

    const res = await deliverShopifyWebhook(t.app, { body: order, secret: SHOPIFY.SHOPIFY_WEBHOOK_SECRET });
    expect(res.json().Result.Outcome).toBe('granted');
    const [row] = await t.database.db
      .select()
      .from(storefrontOrders)
      .where(eq(storefrontOrders.orderId, String(order.id)));
    expect(row).toMatchObject({ source: 'shopify', quantity: 1, status: 'granted', isTest: false });
    const list = (await t.call('/api/licenses/GetAccountLicensesByProductLine', {}, token)).json().Result;
    expect(list.VoiceAIProducts.LicenseStatus.OfflineLicenseKey).toEqual(
      expect.stringMatching(/^\*{6}-\*{6}-\*{6}-\w{6}$/),
    );
  });

  it("without SHOPIFY_ADMIN_TOKEN (outside production only), finance's refund says to refund in the Shopify admin (503), and changes nothing; the sandbox store stays out", async () => {
    await signUpVerified(t, 'no-admin@example.com');
    const order = shopifyOrder({
      email: 'no-admin@example.com',
      lines: [{ productId: 7981234567890, variantId: 43000000000001, quantity: 1 }],
    });
    await deliverShopifyWebhook(t.app, { body: order, secret: SHOPIFY.SHOPIFY_WEBHOOK_SECRET });
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/refund-storefront-order',
      payload: { order: order.name, reference: 'T-1', reason: 'customer asked' },
      headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
    });
    expect([res.statusCode, faultOf(res)]).toEqual([503, 'StorefrontRefundsUnavailable']);
    expect(t.services.dev?.sandboxStoreAdmin).toBeUndefined();
    const [row] = await t.database.db
      .select()
      .from(storefrontOrders)
      .where(eq(storefrontOrders.orderId, String(order.id)));
    expect(row).toMatchObject({ status: 'granted', refundedQuantity: 0 });
  });
});

describe('in production without SHOPIFY_*', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: 'https://my.soundid.test',
    });
  });
  afterAll(() => t.close());

  it('there is no storefront: store settings say so, no sandbox, no webhook', async () => {
    const settings = await t.app.inject('/api/shopify/store-settings');
    expect(settings.statusCode).toBe(503);
    expect(faultOf(settings)).toBe('StorefrontUnavailable');
    const graphql = await t.app.inject({ method: 'POST', url: SANDBOX_STOREFRONT_GRAPHQL_PATH, payload: {} });
    expect(graphql.statusCode).toBe(404);
    const webhook = await deliverShopifyWebhook(t.app, { body: shopifyOrder({}), secret: 'anything' });
    expect(webhook.statusCode).toBe(404);
  });
});

describe('configuration', () => {
  const base = () => ({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soundid-config-')) });

  it('SHOPIFY_* is all or nothing: a partial setup stops the service naming what is missing', () => {
    try {
      loadConfig({ ...base(), SHOPIFY_STORE_DOMAIN: 'x.myshopify.com', SHOPIFY_STOREFRONT_TOKEN: 'tok' });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message).toContain('SHOPIFY_WEBHOOK_SECRET');
      expect((error as Error).message).toContain('SHOPIFY_VOICE_AI_PRODUCT_IDS');
    }
  });

  it('SHOPIFY_VOICE_AI_PRODUCT_IDS must be product GIDs (the buy page queries product(id:) with them)', () => {
    for (const ids of ['7981234567890', 'gid://shopify/ProductVariant/1', 'gid://shopify/Product/1,']) {
      expect(() => loadConfig({ ...base(), ...SHOPIFY, SHOPIFY_VOICE_AI_PRODUCT_IDS: ids }), ids).toThrow(
        /SHOPIFY_VOICE_AI_PRODUCT_IDS/,
      );
    }
    expect(loadConfig({ ...base(), ...SHOPIFY }).shopify?.voiceAiProductIds).toEqual([
      'gid://shopify/Product/7981234567890',
      'gid://shopify/Product/7981234567891',
    ]);
  });
});
