import { createStorefrontApiClient, type StorefrontApiClient } from '@shopify/storefront-api-client';
import type { StoreSettings } from '@soundid/contracts';
import { SOFTWARE_HEADER } from '../../../config/client';

/**
 * The perpetual licence through the Shopify Storefront API (docs/requirements.md §7), loaded by the buy page
 * only: the first variant of the voice AI product, and a one-line cart whose checkout URL the
 * buyer is sent to. Queries follow Shopify's documented Storefront API 2025-01 shapes.
 */

export interface StorefrontMoney {
  amount: string;
  currencyCode: string;
}

export interface PerpetualVariant {
  id: string;
  price: StorefrontMoney;
  compareAtPrice: StorefrontMoney | null;
}

export interface PerpetualStorefront {
  firstVariant(): Promise<PerpetualVariant>;
  /** Creates a cart of one variant, quantity 1, with the buyer's e-mail; answers its checkout URL. */
  checkoutUrl(variantId: string, buyerEmail: string | undefined): Promise<string>;
}

/** This service's sandbox storefront answers the Storefront API under this path (same origin). */
export const SANDBOX_STOREFRONT_PREFIX = '/api/sandbox/shopify';

const FIRST_VARIANT_QUERY = `#graphql
  query PerpetualVariant($id: ID!) {
    product(id: $id) {
      id
      variants(first: 1) {
        edges {
          node {
            id
            price { amount currencyCode }
            compareAtPrice { amount currencyCode }
          }
        }
      }
    }
  }
`;

const CART_CREATE_MUTATION = `#graphql
  mutation PerpetualCart($input: CartInput!) {
    cartCreate(input: $input) {
      cart { id checkoutUrl }
      userErrors { field message code }
    }
  }
`;

interface FirstVariantData {
  product: { id: string; variants: { edges: { node: PerpetualVariant }[] } } | null;
}

interface CartCreateData {
  cartCreate: {
    cart: { id: string; checkoutUrl: string } | null;
    userErrors: { field: string[] | null; message: string; code: string | null }[];
  } | null;
}

export class StorefrontError extends Error {
  override readonly name = 'StorefrontError';
  constructor(
    message: string,
    readonly details?: unknown,
  ) {
    super(message);
  }
}

/**
 * The client forces https on the store domain; the sandbox storefront lives on this origin,
 * so its requests are sent there instead (with the Software header every call of ours carries).
 */
function sandboxFetch(fetchApi: typeof fetch) {
  return (url: string, init?: { method?: string; headers?: HeadersInit; body?: string }) => {
    const { pathname } = new URL(url);
    const headers = new Headers(init?.headers);
    headers.set('Software', SOFTWARE_HEADER);
    return fetchApi(`${SANDBOX_STOREFRONT_PREFIX}${pathname}`, { ...init, headers, credentials: 'same-origin' });
  };
}

export function createStorefrontClient(settings: StoreSettings): StorefrontApiClient {
  return createStorefrontApiClient({
    storeDomain: settings.StoreDomain,
    apiVersion: settings.ApiVersion,
    publicAccessToken: settings.StorefrontAccessToken,
    clientName: 'my-soundid',
    ...(settings.Sandbox ? { customFetchApi: sandboxFetch(fetch) } : {}),
    // The pinned version (docs/requirements.md §9) may be older than the client's list of current ones.
    logger: (log) => {
      if (log.type !== 'Unsupported_Api_Version') console.debug('storefront', log);
    },
  });
}

/** Only http(s) checkout URLs are followed: a storefront answer must not run script here. */
function safeCheckoutUrl(url: string | undefined): string {
  if (!url || !URL.canParse(url, window.location.origin)) throw new StorefrontError('No checkout URL');
  const parsed = new URL(url, window.location.origin);
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw new StorefrontError('Bad checkout URL');
  return parsed.toString();
}

/** The Storefront API names products by GID; a numeric id (as order webhooks carry them) is made one. */
export function productGid(id: string): string {
  return /^\d+$/.test(id) ? `gid://shopify/Product/${id}` : id;
}

export function openPerpetualStorefront(settings: StoreSettings): PerpetualStorefront {
  const client = createStorefrontClient(settings);
  const first = settings.VoiceAiProductIds[0];
  const productId = first ? productGid(first.trim()) : undefined;
  return {
    async firstVariant() {
      if (!productId) throw new StorefrontError('No voice AI product in the store settings');
      const { data, errors } = await client.request<FirstVariantData>(FIRST_VARIANT_QUERY, {
        variables: { id: productId },
      });
      if (errors) throw new StorefrontError(errors.message ?? 'Storefront query failed', errors);
      const variant = data?.product?.variants.edges[0]?.node;
      if (!variant) throw new StorefrontError(`Product ${productId} has no variant`);
      return variant;
    },
    async checkoutUrl(variantId, buyerEmail) {
      const input = {
        lines: [{ merchandiseId: variantId, quantity: 1 }],
        ...(buyerEmail ? { buyerIdentity: { email: buyerEmail } } : {}),
      };
      const { data, errors } = await client.request<CartCreateData>(CART_CREATE_MUTATION, { variables: { input } });
      if (errors) throw new StorefrontError(errors.message ?? 'Cart creation failed', errors);
      const userErrors = data?.cartCreate?.userErrors ?? [];
      if (userErrors.length > 0) throw new StorefrontError(userErrors.map((e) => e.message).join('; '), userErrors);
      return safeCheckoutUrl(data?.cartCreate?.cart?.checkoutUrl);
    },
  };
}
