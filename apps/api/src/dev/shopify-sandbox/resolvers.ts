import { GraphQLError } from 'graphql';
import type { SandboxCartRow } from '../../db/storefront-schema';
import { escapeHtml } from '../../integrations/mail/layout';
import {
  findSandboxProduct,
  findSandboxVariant,
  productGid,
  SANDBOX_PRODUCTS,
  type SandboxProduct,
  type SandboxVariant,
  variantGid,
} from './catalogue';
import { type CartInput, parseCartGid, type SandboxStorefront } from './storefront';

/**
 * The sandbox's answers to Storefront API fields, as plain objects: graphql-js reads a property,
 * or calls it with the field's arguments when it is a function; __typename picks the type of
 * an interface or union.
 */

/** When the sandbox catalogue was "published" (fixed, so answers are stable). */
const CATALOGUE_DATE = '2025-01-01T00:00:00Z';
/** Shopify's largest page of a connection. */
const MAX_PAGE = 250;

type Fields = Record<string, unknown>;

/** Cents as Shopify's Decimal scalar writes them: "99.0", "9.9", "9.99". */
export function toShopifyDecimal(cents: number): string {
  const sign = cents < 0 ? '-' : '';
  const abs = Math.abs(cents);
  const units = Math.floor(abs / 100);
  const fraction = String(abs % 100)
    .padStart(2, '0')
    .replace(/0$/, '');
  return `${sign}${units}.${fraction || '0'}`;
}

const money = (cents: number, currencyCode: string) => ({ amount: toShopifyDecimal(cents), currencyCode });

interface ConnectionArgs {
  first?: number | null;
  last?: number | null;
  after?: string | null;
  before?: string | null;
  reverse?: boolean | null;
}

/** A Relay connection over a list, paged as Shopify pages: first/after or last/before, required. */
export function connection<T>(items: T[], args: ConnectionArgs): Fields {
  const { first, last, after, before, reverse } = args;
  if (first == null && last == null) throw new GraphQLError('you must provide one of first or last');
  for (const [name, value] of [
    ['first', first],
    ['last', last],
  ] as const) {
    if (value != null && (value < 0 || value > MAX_PAGE)) {
      throw new GraphQLError(`${name} must be between 0 and ${MAX_PAGE}`);
    }
  }
  const ordered = reverse ? [...items].reverse() : items;
  let start = 0;
  let end = ordered.length;
  if (after != null) start = Math.max(start, cursorIndex(after) + 1);
  if (before != null) end = Math.min(end, cursorIndex(before));
  if (first != null) end = Math.min(end, start + first);
  if (last != null) start = Math.max(start, end - last);
  const page = ordered.slice(start, Math.max(start, end)).map((node, i) => ({ node, cursor: cursorOf(start + i) }));
  return {
    edges: page,
    nodes: page.map((edge) => edge.node),
    pageInfo: {
      hasNextPage: end < ordered.length,
      hasPreviousPage: start > 0,
      startCursor: page[0]?.cursor ?? null,
      endCursor: page[page.length - 1]?.cursor ?? null,
    },
  };
}

const cursorOf = (index: number) => Buffer.from(`cursor:${index}`).toString('base64url');

function cursorIndex(cursor: string): number {
  const match = /^cursor:(\d{1,6})$/.exec(Buffer.from(cursor, 'base64url').toString('utf8'));
  if (!match) throw new GraphQLError(`Invalid cursor '${cursor}'`);
  return Number(match[1]);
}

export function productNode(product: SandboxProduct): Fields {
  const prices = product.variants.map((v) => v.priceCents);
  const compareAts = product.variants.map((v) => v.compareAtPriceCents ?? 0);
  const range = (values: number[]) => ({
    minVariantPrice: money(Math.min(...values), product.currency),
    maxVariantPrice: money(Math.max(...values), product.currency),
  });
  return {
    __typename: 'Product',
    id: productGid(product.id),
    handle: product.handle,
    title: product.title,
    description: ({ truncateAt }: { truncateAt?: number | null }) =>
      truncateAt != null && truncateAt >= 0 && product.description.length > truncateAt
        ? `${product.description.slice(0, truncateAt)}…`
        : product.description,
    descriptionHtml: `<p>${escapeHtml(product.description)}</p>`,
    vendor: product.vendor,
    productType: product.productType,
    tags: [],
    availableForSale: product.variants.some((v) => v.availableForSale),
    onlineStoreUrl: null,
    createdAt: CATALOGUE_DATE,
    updatedAt: CATALOGUE_DATE,
    publishedAt: CATALOGUE_DATE,
    priceRange: range(prices),
    compareAtPriceRange: range(compareAts),
    variants: (args: ConnectionArgs) =>
      connection(
        product.variants.map((variant) => variantNode(product, variant)),
        args,
      ),
  };
}

export function variantNode(product: SandboxProduct, variant: SandboxVariant): Fields {
  return {
    __typename: 'ProductVariant',
    id: variantGid(variant.id),
    title: variant.title,
    sku: variant.sku,
    availableForSale: variant.availableForSale,
    currentlyNotInStock: false,
    quantityAvailable: null,
    requiresShipping: false,
    price: money(variant.priceCents, product.currency),
    compareAtPrice: variant.compareAtPriceCents == null ? null : money(variant.compareAtPriceCents, product.currency),
    selectedOptions: [{ name: 'Title', value: variant.title }],
    product: () => productNode(product),
  };
}

export function cartNode(store: SandboxStorefront, cart: SandboxCartRow, key: string): Fields {
  const currency = 'USD';
  const lines = cart.lines.flatMap((line) => {
    const found = findSandboxVariant(line.variantId);
    if (!found) return [];
    const { product, variant } = found;
    const subtotal = variant.priceCents * line.quantity;
    return [
      {
        subtotal,
        node: {
          __typename: 'CartLine',
          id: `gid://shopify/CartLine/${line.lineId}?cart=${cart.token}`,
          quantity: line.quantity,
          merchandise: variantNode(product, variant),
          attributes: [],
          cost: {
            amountPerQuantity: money(variant.priceCents, product.currency),
            compareAtAmountPerQuantity:
              variant.compareAtPriceCents == null ? null : money(variant.compareAtPriceCents, product.currency),
            subtotalAmount: money(subtotal, product.currency),
            totalAmount: money(subtotal, product.currency),
          },
        },
      },
    ];
  });
  const total = money(
    lines.reduce((sum, line) => sum + line.subtotal, 0),
    currency,
  );
  return {
    __typename: 'Cart',
    id: store.cartGid(cart.token, key),
    checkoutUrl: store.checkoutUrl(cart.token, key),
    createdAt: cart.createdAt.toISOString(),
    updatedAt: cart.updatedAt.toISOString(),
    note: cart.note,
    attributes: cart.attributes.map((a) => ({ key: a.key, value: a.value })),
    buyerIdentity: { email: cart.buyerEmail, phone: null, countryCode: cart.buyerCountry },
    cost: {
      checkoutChargeAmount: total,
      subtotalAmount: total,
      subtotalAmountEstimated: false,
      totalAmount: total,
      totalAmountEstimated: false,
      totalDutyAmount: null,
      totalDutyAmountEstimated: false,
      totalTaxAmount: null,
      totalTaxAmountEstimated: false,
    },
    totalQuantity: cart.lines.reduce((sum, line) => sum + line.quantity, 0),
    lines: (args: ConnectionArgs) =>
      connection(
        lines.map((line) => line.node),
        args,
      ),
  };
}

/** The node behind a GID; null for a well-formed id of nothing, an error for a malformed one. */
async function nodeOf(store: SandboxStorefront, id: string): Promise<Fields | null> {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/([^/?]+)(\?.*)?$/.exec(id);
  if (!match)
    throw new GraphQLError(`Invalid global id '${id}'`, { extensions: { code: 'argumentLiteralsIncompatible' } });
  const [, type, value] = match;
  const numeric = /^\d{1,15}$/.test(value ?? '') ? Number(value) : undefined;
  if (type === 'Product' && numeric !== undefined) {
    const product = findSandboxProduct(numeric);
    return product ? productNode(product) : null;
  }
  if (type === 'ProductVariant' && numeric !== undefined) {
    const found = findSandboxVariant(numeric);
    return found ? variantNode(found.product, found.variant) : null;
  }
  if (type === 'Cart') {
    const cart = await store.findCart(id);
    const key = parseCartGid(id)?.key;
    return cart && key ? cartNode(store, cart, key) : null;
  }
  return null;
}

/** The root fields of the sandbox's QueryRoot and Mutation. */
export function rootResolvers(store: SandboxStorefront): Fields {
  return {
    product: async ({ id, handle }: { id?: string | null; handle?: string | null }) => {
      if (id != null) {
        const node = await nodeOf(store, id);
        return node?.__typename === 'Product' ? node : null;
      }
      if (handle != null) {
        const product = SANDBOX_PRODUCTS.find((p) => p.handle === handle);
        return product ? productNode(product) : null;
      }
      throw new GraphQLError('Either id or handle must be specified');
    },
    cart: async ({ id }: { id: string }) => {
      const cart = await store.findCart(id);
      const key = parseCartGid(id)?.key;
      return cart && key ? cartNode(store, cart, key) : null;
    },
    node: ({ id }: { id: string }) => nodeOf(store, id),
    nodes: async ({ ids }: { ids: string[] }) => {
      if (ids.length > MAX_PAGE) throw new GraphQLError(`The ids argument may hold at most ${MAX_PAGE} ids`);
      return Promise.all(ids.map((id) => nodeOf(store, id)));
    },
    cartCreate: async ({ input }: { input?: CartInput | null }) => {
      const { created, userErrors } = await store.createCart(input);
      return {
        cart: created ? cartNode(store, created.cart, created.key) : null,
        userErrors,
        warnings: [],
      };
    },
  };
}
