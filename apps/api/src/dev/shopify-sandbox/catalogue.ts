/**
 * What the sandbox storefront sells: the voice AI perpetual licence, with Shopify-style ids
 * (numeric, shown to Storefront API clients as GIDs). Store settings hand the product GID to
 * the buy page; order webhooks carry the numeric ids, which the licence grant maps back.
 */

/** The sandbox's public Storefront access token (public like Shopify's: it only reads the catalogue and makes carts). */
export const SANDBOX_STOREFRONT_TOKEN = 'sandbox-storefront-token';

export interface SandboxVariant {
  id: number;
  title: string;
  sku: string;
  priceCents: number;
  compareAtPriceCents: number | null;
  availableForSale: boolean;
}

export interface SandboxProduct {
  id: number;
  handle: string;
  title: string;
  description: string;
  vendor: string;
  productType: string;
  currency: 'USD';
  variants: SandboxVariant[];
}

export const SANDBOX_VOICE_AI_PRODUCT: SandboxProduct = {
  id: 1001,
  handle: 'soundid-voiceai-perpetual',
  title: 'SoundID VoiceAI Perpetual',
  description: 'Perpetual mode for SoundID VoiceAI: unlimited local processing on your own computer.',
  vendor: 'Sonarworks',
  productType: 'Software license',
  currency: 'USD',
  variants: [
    {
      id: 2001,
      title: 'Default Title',
      sku: 'SID-VOICEAI-PERPETUAL',
      priceCents: 9900,
      compareAtPriceCents: 14900,
      availableForSale: true,
    },
  ],
};

export const SANDBOX_PRODUCTS: readonly SandboxProduct[] = [SANDBOX_VOICE_AI_PRODUCT];

export const productGid = (id: number) => `gid://shopify/Product/${id}`;
export const variantGid = (id: number) => `gid://shopify/ProductVariant/${id}`;

/** The GIDs store settings name as the voice AI products, and the grant matches against. */
export const SANDBOX_VOICE_AI_PRODUCT_IDS = [productGid(SANDBOX_VOICE_AI_PRODUCT.id)];

export function findSandboxProduct(id: number): SandboxProduct | undefined {
  return SANDBOX_PRODUCTS.find((p) => p.id === id);
}

export function findSandboxVariant(id: number): { product: SandboxProduct; variant: SandboxVariant } | undefined {
  for (const product of SANDBOX_PRODUCTS) {
    const variant = product.variants.find((v) => v.id === id);
    if (variant) return { product, variant };
  }
  return undefined;
}
