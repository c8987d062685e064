import { vi } from 'vitest';

export interface StorefrontCall {
  url: string;
  headers: Headers;
  query: string;
  variables: Record<string, unknown>;
}

type Respond = (call: StorefrontCall) => unknown;

/**
 * A local stand-in of the Shopify Storefront API: requests to any `…/graphql.json` are answered
 * by `respond` (a GraphQL response body); everything else goes on to the fetch stubbed before
 * (mockApi). Install it after mockApi.
 */
export function storefrontStandIn(respond: Respond) {
  const calls: StorefrontCall[] = [];
  const apiFetch = globalThis.fetch;
  vi.stubGlobal('fetch', async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = String(input);
    if (!url.endsWith('/graphql.json')) return apiFetch(input, init);
    const body = JSON.parse(String(init.body)) as { query: string; variables?: Record<string, unknown> };
    const call = { url, headers: new Headers(init.headers), query: body.query, variables: body.variables ?? {} };
    calls.push(call);
    return new Response(JSON.stringify(respond(call)), {
      status: 200,
      headers: { 'content-type': 'application/json' },
    });
  });
  return calls;
}

/** Shopify's answer to the first-variant query (Storefront API 2025-01 shapes). */
export function productWithVariant(variant: {
  id: string;
  price: { amount: string; currencyCode: string };
  compareAtPrice: { amount: string; currencyCode: string } | null;
}) {
  return { data: { product: { id: 'gid://shopify/Product/1001', variants: { edges: [{ node: variant }] } } } };
}

/** Shopify's answer to cartCreate. */
export function cartCreated(
  checkoutUrl: string,
  userErrors: { field: string[]; message: string; code: string }[] = [],
) {
  return {
    data: {
      cartCreate: {
        cart: userErrors.length ? null : { id: 'gid://shopify/Cart/c1', checkoutUrl },
        userErrors,
      },
    },
  };
}
