import { SANDBOX_STOREFRONT_GRAPHQL_PATH } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import {
  CART_CREATE_MUTATION,
  createSandboxCart,
  FIRST_VARIANT_QUERY,
  sandboxClient,
  storeSettings,
} from '../../../test/storefront';

/**
 * The sandbox Storefront API, driven by Shopify's own @shopify/storefront-api-client with the
 * buy page's queries: answers in the Storefront API's shapes, errors in GraphQL's.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (payload: string, headers: Record<string, string> = {}) =>
  t.app.inject({
    method: 'POST',
    url: SANDBOX_STOREFRONT_GRAPHQL_PATH,
    payload,
    headers: {
      'content-type': 'application/json',
      'x-shopify-storefront-access-token': 'sandbox-storefront-token',
      ...headers,
    },
  });

describe('store settings and catalogue', () => {
  it('names the sandbox storefront, and its product id resolves to the perpetual licence', async () => {
    const settings = await storeSettings(t.app);
    expect(settings).toEqual({
      StoreDomain: 'localhost:3000',
      StorefrontAccessToken: 'sandbox-storefront-token',
      VoiceAiProductIds: ['gid://shopify/Product/1001'],
      ApiVersion: '2025-01',
      Sandbox: true,
    });
    const client = await sandboxClient(t.app);
    const { data, errors } = await client.request(FIRST_VARIANT_QUERY, {
      variables: { id: settings.VoiceAiProductIds[0] },
    });
    expect(errors).toBeUndefined();
    expect(data).toEqual({
      product: {
        variants: {
          nodes: [
            {
              id: 'gid://shopify/ProductVariant/2001',
              price: { amount: '99.0', currencyCode: 'USD' },
              compareAtPrice: { amount: '149.0', currencyCode: 'USD' },
            },
          ],
        },
      },
    });
  });

  it('answers the other documented product fields, by id or handle, through edges and pageInfo', async () => {
    const client = await sandboxClient(t.app);
    const { data, errors } = await client.request(
      `query ($handle: String!) @inContext(country: DE) {
        product(handle: $handle) {
          id title handle availableForSale
          priceRange { minVariantPrice { amount currencyCode } }
          variants(first: 5) {
            edges { cursor node { title availableForSale sku product { id } } }
            pageInfo { hasNextPage hasPreviousPage }
          }
        }
        missing: product(id: "gid://shopify/Product/999") { id }
      }`,
      { variables: { handle: 'soundid-voiceai-perpetual' } },
    );
    expect(errors).toBeUndefined();
    expect(data.product).toMatchObject({
      id: 'gid://shopify/Product/1001',
      title: 'SoundID VoiceAI Perpetual',
      availableForSale: true,
      priceRange: { minVariantPrice: { amount: '99.0', currencyCode: 'USD' } },
      variants: {
        edges: [
          {
            cursor: expect.any(String),
            node: { title: 'Default Title', availableForSale: true, product: { id: 'gid://shopify/Product/1001' } },
          },
        ],
        pageInfo: { hasNextPage: false, hasPreviousPage: false },
      },
    });
    expect(data.missing).toBeNull();
  });
});

describe('carts', () => {
  it('cartCreate as the buy page sends it gives a cart id and a checkout URL on this service', async () => {
    const { cartId, checkoutUrl } = await createSandboxCart(t.app, 'Buyer@Example.com');
    expect(cartId).toMatch(/^gid:\/\/shopify\/Cart\/[\w-]+\?key=[0-9a-f]{32}$/);
    expect(checkoutUrl).toMatch(/^http:\/\/localhost:3000\/sandbox\/shopify\/cart\/c\/[\w-]+\?key=[0-9a-f]{32}$/);

    const client = await sandboxClient(t.app);
    const { data, errors } = await client.request(
      `query ($id: ID!) {
        cart(id: $id) {
          id checkoutUrl totalQuantity
          buyerIdentity { email }
          cost { subtotalAmount { amount currencyCode } totalAmount { amount currencyCode } }
          lines(first: 10) {
            nodes {
              quantity
              merchandise { ... on ProductVariant { id title product { title } } }
              cost { amountPerQuantity { amount } compareAtAmountPerQuantity { amount } totalAmount { amount } }
            }
          }
        }
      }`,
      { variables: { id: cartId } },
    );
    expect(errors).toBeUndefined();
    expect(data.cart).toEqual({
      id: cartId,
      checkoutUrl,
      totalQuantity: 1,
      buyerIdentity: { email: 'buyer@example.com' },
      cost: {
        subtotalAmount: { amount: '99.0', currencyCode: 'USD' },
        totalAmount: { amount: '99.0', currencyCode: 'USD' },
      },
      lines: {
        nodes: [
          {
            quantity: 1,
            merchandise: {
              id: 'gid://shopify/ProductVariant/2001',
              title: 'Default Title',
              product: { title: 'SoundID VoiceAI Perpetual' },
            },
            cost: {
              amountPerQuantity: { amount: '99.0' },
              compareAtAmountPerQuantity: { amount: '149.0' },
              totalAmount: { amount: '99.0' },
            },
          },
        ],
      },
    });
  });

  it('a cart id with the wrong key, or an unknown cart, is null', async () => {
    const { cartId } = await createSandboxCart(t.app, undefined);
    const client = await sandboxClient(t.app);
    const wrongKey = cartId.replace(/key=\w+/, `key=${'0'.repeat(32)}`);
    const { data } = await client.request(
      'query ($a: ID!, $b: ID!) { a: cart(id: $a) { id } b: cart(id: $b) { id } }',
      {
        variables: { a: wrongKey, b: 'gid://shopify/Cart/unknown?key=abc' },
      },
    );
    expect(data).toEqual({ a: null, b: null });
  });

  it('lapses after 10 days', async () => {
    const { cartId } = await createSandboxCart(t.app, undefined);
    const client = await sandboxClient(t.app);
    t.clock.advanceHours(10 * 24 + 1);
    const { data } = await client.request('query ($id: ID!) { cart(id: $id) { id } }', { variables: { id: cartId } });
    expect(data).toEqual({ cart: null });
  });

  it("refuses bad lines and e-mails with Shopify's userErrors and no cart", async () => {
    const client = await sandboxClient(t.app);
    const { data, errors } = await client.request(
      `mutation ($input: CartInput!) { cartCreate(input: $input) { cart { id } userErrors { code field message } warnings { code } } }`,
      {
        variables: {
          input: {
            lines: [
              { merchandiseId: 'gid://shopify/ProductVariant/999', quantity: 1 },
              { merchandiseId: 'gid://shopify/ProductVariant/2001', quantity: 0 },
              { merchandiseId: 'gid://shopify/ProductVariant/2001', quantity: 11 },
            ],
            buyerIdentity: { email: 'not-an-email' },
          },
        },
      },
    );
    expect(errors).toBeUndefined();
    expect(data.cartCreate).toEqual({
      cart: null,
      warnings: [],
      userErrors: [
        {
          code: 'INVALID',
          field: ['input', 'lines', '0', 'merchandiseId'],
          message: 'The merchandise with id gid://shopify/ProductVariant/999 does not exist.',
        },
        {
          code: 'INVALID',
          field: ['input', 'lines', '1', 'quantity'],
          message: 'The quantity must be greater than 0.',
        },
        {
          code: 'MAXIMUM_EXCEEDED',
          field: ['input', 'lines', '2', 'quantity'],
          message: 'The maximum quantity for this item is 10.',
        },
        { code: 'INVALID', field: ['input', 'buyerIdentity', 'email'], message: 'Email is invalid' },
      ],
    });
  });

  it('merges lines of the same variant and counts them', async () => {
    const client = await sandboxClient(t.app);
    const { data } = await client.request(
      `mutation ($input: CartInput!) { cartCreate(input: $input) { cart { totalQuantity lines(first: 5) { nodes { quantity } } cost { totalAmount { amount } } } userErrors { message } } }`,
      {
        variables: {
          input: {
            lines: [
              { merchandiseId: 'gid://shopify/ProductVariant/2001', quantity: 2 },
              { merchandiseId: 'gid://shopify/ProductVariant/2001' },
            ],
          },
        },
      },
    );
    expect(data.cartCreate).toEqual({
      cart: { totalQuantity: 3, lines: { nodes: [{ quantity: 3 }] }, cost: { totalAmount: { amount: '297.0' } } },
      userErrors: [],
    });
  });

  it('the client reads the mutation the buy page sends, with cart and userErrors', async () => {
    const client = await sandboxClient(t.app);
    const { data } = await client.request(CART_CREATE_MUTATION, {
      variables: { input: { lines: [{ merchandiseId: 'gid://shopify/ProductVariant/2001', quantity: 1 }] } },
    });
    expect(data.cartCreate.userErrors).toEqual([]);
    expect(data.cartCreate.cart.checkoutUrl).toContain('/sandbox/shopify/cart/c/');
  });
});

describe("errors in GraphQL's shape", () => {
  it('a missing or wrong access token is a 401 the client reports', async () => {
    const client = await sandboxClient(t.app, 'wrong-token');
    const { data, errors } = await client.request(FIRST_VARIANT_QUERY, {
      variables: { id: 'gid://shopify/Product/1001' },
    });
    expect(data).toBeUndefined();
    expect(errors?.networkStatusCode).toBe(401);
    const res = await post('{"query":"{ product(id: \\"gid://shopify/Product/1001\\") { id } }"}', {
      'x-shopify-storefront-access-token': '',
    });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual({ errors: [{ message: expect.any(String), extensions: { code: 'UNAUTHORIZED' } }] });
  });

  it('syntax and validation errors come back with 200 and located errors, as graphQLErrors in the client', async () => {
    const client = await sandboxClient(t.app);
    const invalid = await client.request('{ product(id: "gid://shopify/Product/1001") { id inventoryLevel } }');
    expect(invalid.errors?.graphQLErrors).toEqual([
      expect.objectContaining({
        message: 'Cannot query field "inventoryLevel" on type "Product".',
        locations: [{ line: 1, column: 50 }],
      }),
    ]);
    const syntax = await post(JSON.stringify({ query: '{ product(id: ' }));
    expect(syntax.statusCode).toBe(200);
    expect(syntax.json().errors[0]).toMatchObject({
      message: expect.stringContaining('Syntax Error'),
      locations: [expect.any(Object)],
    });
  });

  it('field errors carry their path; a malformed id and a connection without first or last are refused', async () => {
    const res = await post(
      JSON.stringify({
        query:
          '{ a: product(id: "1001") { id } b: product(id: "gid://shopify/Product/1001") { variants { nodes { id } } } }',
      }),
    );
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      data: { a: null, b: null },
      errors: [
        expect.objectContaining({ message: "Invalid global id '1001'", path: ['a'] }),
        expect.objectContaining({ message: 'you must provide one of first or last', path: ['b', 'variants'] }),
      ],
    });
  });

  it('bodies that are not GraphQL requests are 400s in the same shape, never a 5xx', async () => {
    for (const payload of [
      '{not json',
      '[]',
      '{"query": 5}',
      '{"query":"{ cart }","variables":"x"}',
      '"text"',
      '{"__proto__":{}}',
    ]) {
      const res = await post(payload);
      expect(res.statusCode, payload).toBe(400);
      expect(res.json().errors[0].message, payload).toEqual(expect.any(String));
    }
    const other = await t.app.inject({
      method: 'POST',
      url: SANDBOX_STOREFRONT_GRAPHQL_PATH,
      payload: 'x=1',
      headers: { 'content-type': 'text/plain', 'x-shopify-storefront-access-token': 'sandbox-storefront-token' },
    });
    expect(other.statusCode).toBe(400);
    expect(other.json().errors).toHaveLength(1);
  });

  it('bounds the cost of a query: depth and size', async () => {
    const deep = `{ product(id: "gid://shopify/Product/1001") { ${'variants(first: 1) { nodes { product { '.repeat(5)} id ${'} } }'.repeat(5)} } }`;
    const tooDeep = await post(JSON.stringify({ query: deep }));
    expect(tooDeep.json().errors[0].extensions.code).toBe('MAX_DEPTH_EXCEEDED');
    const huge = await post(JSON.stringify({ query: `{ ${'__typename '.repeat(3000)} }` }));
    expect(huge.statusCode).toBe(200);
    expect(huge.json().errors[0].message).toMatch(/more that 2000 tokens/);
  });

  it('stays out of the OpenAPI document (it stands in for Shopify, not for this API)', async () => {
    const doc = (await t.app.inject('/api/docs')).json() as { paths: Record<string, unknown> };
    expect(Object.keys(doc.paths).some((path) => path.includes('/sandbox/shopify'))).toBe(false);
    expect(Object.keys(doc.paths)).toContain('/api/webhooks/shopify');
  });
});
