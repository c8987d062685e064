import { createStorefrontApiClient, type StorefrontApiClient } from '@shopify/storefront-api-client';
import { SANDBOX_STOREFRONT_GRAPHQL_PATH, STOREFRONT_API_VERSION } from '@soundid/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { SHOPIFY_WEBHOOK_HEADERS } from '../src/integrations/shopify/webhook-delivery';
import { signShopifyWebhook } from '../src/integrations/shopify/webhook-signature';

/**
 * Helpers of the storefront tests: Shopify's own Storefront API client pointed at the sandbox
 * (as the buy page does, through customFetchApi), the buy page's queries, and signed order
 * webhook deliveries.
 */

/** The settings the buy page reads first (GET /api/shopify/store-settings). */
export interface StoreSettings {
  StoreDomain: string;
  StorefrontAccessToken: string;
  VoiceAiProductIds: string[];
  ApiVersion: string;
  Sandbox: boolean;
}

export async function storeSettings(app: FastifyInstance): Promise<StoreSettings> {
  const res = await app.inject({ method: 'GET', url: '/api/shopify/store-settings' });
  return res.json().Result;
}

/**
 * A fetch that answers through app.inject. The client forces https://<StoreDomain>/api/<version>/graphql.json;
 * like the buy page in sandbox mode, it sends that request to the sandbox's path on this service.
 */
export function sandboxFetch(app: FastifyInstance) {
  return async (url: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const target = new URL(String(url));
    const path =
      target.pathname === `/api/${STOREFRONT_API_VERSION}/graphql.json`
        ? SANDBOX_STOREFRONT_GRAPHQL_PATH
        : target.pathname;
    const res = await app.inject({
      method: (init?.method ?? 'GET') as 'POST',
      url: path,
      headers: Object.fromEntries(new Headers(init?.headers).entries()),
      ...(init?.body ? { payload: String(init.body) } : {}),
    });
    const headers = new Headers();
    for (const [name, value] of Object.entries(res.headers)) {
      if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(', ') : String(value));
    }
    return new Response(res.body, { status: res.statusCode, statusText: res.statusMessage, headers });
  };
}

export async function sandboxClient(app: FastifyInstance, token?: string): Promise<StorefrontApiClient> {
  const settings = await storeSettings(app);
  return createStorefrontApiClient({
    storeDomain: settings.StoreDomain,
    apiVersion: settings.ApiVersion,
    publicAccessToken: token ?? settings.StorefrontAccessToken,
    customFetchApi: sandboxFetch(app),
    // 2025-01 may have left Shopify's support window; the client would only warn about it.
    logger: () => {},
  });
}

/** The buy page's query: the first variant of the voice product, with its price and compare-at price. */
export const FIRST_VARIANT_QUERY = `#graphql
  query FirstVariant($id: ID!) {
    product(id: $id) {
      variants(first: 1) {
        nodes {
          id
          price { amount currencyCode }
          compareAtPrice { amount currencyCode }
        }
      }
    }
  }
`;

/** The buy page's mutation: a cart with one line and the buyer's e-mail. */
export const CART_CREATE_MUTATION = `#graphql
  mutation CreateCart($input: CartInput!) {
    cartCreate(input: $input) {
      cart { id checkoutUrl }
      userErrors { field message }
    }
  }
`;

/** What the buy page does: find the variant, make the cart, return its id and checkout URL. */
export async function createSandboxCart(
  app: FastifyInstance,
  email: string | undefined,
  quantity = 1,
): Promise<{ cartId: string; checkoutUrl: string }> {
  const client = await sandboxClient(app);
  const settings = await storeSettings(app);
  const product = await client.request(FIRST_VARIANT_QUERY, { variables: { id: settings.VoiceAiProductIds[0] } });
  const variantId = product.data?.product?.variants?.nodes?.[0]?.id;
  if (!variantId) throw new Error(`no variant: ${JSON.stringify(product.errors ?? product.data)}`);
  const created = await client.request(CART_CREATE_MUTATION, {
    variables: {
      input: { lines: [{ merchandiseId: variantId, quantity }], ...(email ? { buyerIdentity: { email } } : {}) },
    },
  });
  const cart = created.data?.cartCreate?.cart;
  if (!cart) throw new Error(`cartCreate failed: ${JSON.stringify(created.errors ?? created.data)}`);
  return { cartId: cart.id, checkoutUrl: cart.checkoutUrl };
}

/** Pays a sandbox checkout through its page's form, as the buyer's browser would. */
export function payCheckout(app: FastifyInstance, checkoutUrl: string, email: string): Promise<LightMyRequestResponse> {
  const url = new URL(checkoutUrl);
  return app.inject({
    method: 'POST',
    url: `${url.pathname}/pay`,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams({ key: url.searchParams.get('key') ?? '', email }).toString(),
  });
}

export function openCheckout(app: FastifyInstance, checkoutUrl: string): Promise<LightMyRequestResponse> {
  const url = new URL(checkoutUrl);
  return app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
}

let orderCounter = 0;

/** A Shopify order payload (the REST Order resource's fields the grant reads, and a few more). */
export function shopifyOrder(overrides: {
  id?: number;
  email?: string | null;
  financialStatus?: string;
  lines?: { productId: number; variantId: number; quantity: number }[];
}) {
  orderCounter += 1;
  const id = overrides.id ?? 6_200_407_294_252 + orderCounter;
  return {
    id,
    admin_graphql_api_id: `gid://shopify/Order/${id}`,
    name: `#${9000 + orderCounter}`,
    email: overrides.email === undefined ? 'buyer@example.com' : overrides.email,
    created_at: '2026-01-15T10:00:00-05:00',
    currency: 'USD',
    financial_status: overrides.financialStatus ?? 'paid',
    total_price: '99.00',
    test: false,
    line_items: (overrides.lines ?? [{ productId: 1001, variantId: 2001, quantity: 1 }]).map((line, i) => ({
      id: id * 10 + i,
      product_id: line.productId,
      variant_id: line.variantId,
      title: 'SoundID VoiceAI Perpetual',
      quantity: line.quantity,
      price: '99.00',
    })),
  };
}

let webhookCounter = 0;
export function newWebhookId(): string {
  webhookCounter += 1;
  return `b54557e4-bdd9-4b37-8a5f-${String(webhookCounter).padStart(12, '0')}`;
}

/** POSTs an order webhook to /api/webhooks/shopify, signed with `secret` unless a header is given. */
export function deliverShopifyWebhook(
  app: FastifyInstance,
  options: {
    body: object | string;
    secret: string;
    topic?: string;
    webhookId?: string;
    hmac?: string | null;
  },
): Promise<LightMyRequestResponse> {
  const payload = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
  const h = SHOPIFY_WEBHOOK_HEADERS;
  const hmac = options.hmac === undefined ? signShopifyWebhook(Buffer.from(payload), options.secret) : options.hmac;
  return app.inject({
    method: 'POST',
    url: '/api/webhooks/shopify',
    payload,
    headers: {
      'content-type': 'application/json',
      [h.topic]: options.topic ?? 'orders/paid',
      [h.webhookId]: options.webhookId ?? newWebhookId(),
      [h.shopDomain]: 'soundid-store.myshopify.com',
      [h.apiVersion]: STOREFRONT_API_VERSION,
      ...(hmac === null ? {} : { [h.hmac]: hmac }),
    },
  });
}
