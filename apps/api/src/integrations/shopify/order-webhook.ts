import { isValidEmail } from '@soundid/contracts';
import { z } from 'zod';

/**
 * The fields of Shopify's order webhook payload (the REST Order resource, topics orders/create,
 * orders/paid, orders/updated) that the licence grant reads. Ids are numeric there, unlike
 * the Storefront API's GIDs; unknown fields are kept and ignored.
 */
const numericId = z
  .union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,19}$/)])
  .transform(String);
const optionalText = z.string().nullish();

const lineItemSchema = z.looseObject({
  id: numericId.nullish(),
  product_id: numericId.nullish(),
  variant_id: numericId.nullish(),
  title: optionalText,
  quantity: z.number().int().min(0).max(1_000_000),
});

const orderSchema = z.looseObject({
  id: numericId,
  name: optionalText,
  email: optionalText,
  contact_email: optionalText,
  customer: z.looseObject({ email: optionalText }).nullish(),
  financial_status: optionalText,
  test: z.boolean().nullish(),
  currency: optionalText,
  total_price: optionalText,
  created_at: optionalText,
  /** The store's page of the order, its receipt for the buyer (ADR 0058); kept only when it is an https URL. */
  order_status_url: optionalText,
  line_items: z.array(lineItemSchema).max(1000),
});

export type ShopifyOrder = z.infer<typeof orderSchema>;

/** The order in a verified delivery's body, or undefined when it is not an order we can read. */
export function parseShopifyOrder(rawBody: Buffer): ShopifyOrder | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = orderSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/** The order's status page (the store's receipt) when the payload gives an https URL of sane length. */
export function orderStatusUrlOf(order: ShopifyOrder): string | null {
  const url = order.order_status_url?.trim();
  if (!url || url.length > 2000 || !URL.canParse(url)) return null;
  return new URL(url).protocol === 'https:' ? url : null;
}

/** The order webhook topics whose payload is an order (X-Shopify-Topic). */
export const ORDER_TOPICS = ['orders/create', 'orders/paid', 'orders/updated'] as const;

/** The cancellation of an order: its payload is the order; every licence of it is taken back (ADR 0032). */
export const ORDER_CANCELLED_TOPIC = 'orders/cancelled';

/** A refund of an order: its payload is a Refund resource (ADR 0032). */
export const REFUND_TOPIC = 'refunds/create';

const refundSchema = z.looseObject({
  id: numericId,
  order_id: numericId,
  refund_line_items: z
    .array(
      z.looseObject({
        quantity: z.number().int().min(0).max(1_000_000),
        line_item: z.looseObject({ product_id: numericId.nullish() }).nullish(),
      }),
    )
    .max(1000),
});

export type ShopifyRefund = z.infer<typeof refundSchema>;

/** The refund in a verified refunds/create delivery, or undefined when it is not one we can read. */
export function parseShopifyRefund(rawBody: Buffer): ShopifyRefund | undefined {
  let json: unknown;
  try {
    json = JSON.parse(rawBody.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = refundSchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
}

/**
 * Units of the given products that a refund gives back (its refund line items, by their line
 * item's numeric product id). A refund of an amount only (no line items) gives back none.
 */
export function refundedQuantityOf(refund: ShopifyRefund, numericProductIds: ReadonlySet<string>): number {
  return refund.refund_line_items
    .filter((item) => item.line_item?.product_id && numericProductIds.has(item.line_item.product_id))
    .reduce((sum, item) => sum + item.quantity, 0);
}

export function isOrderTopic(topic: string): boolean {
  return (ORDER_TOPICS as readonly string[]).includes(topic);
}

/** The buyer's address as the order gives it, trimmed and lower-cased. */
export function orderEmail(order: ShopifyOrder): string | undefined {
  const raw = order.email || order.contact_email || order.customer?.email;
  const email = raw?.trim().toLowerCase();
  return email && isValidEmail(email) ? email : undefined;
}

/** Units of the given products in the order (line items match by their numeric product id). */
export function quantityOfProducts(order: ShopifyOrder, numericProductIds: ReadonlySet<string>): number {
  return order.line_items
    .filter((item) => item.product_id && numericProductIds.has(item.product_id))
    .reduce((sum, item) => sum + item.quantity, 0);
}

/** A paid order: the only state in which licences are issued (never on a pending payment). */
export function isPaid(order: ShopifyOrder): boolean {
  return order.financial_status === 'paid';
}

/** The number inside a Shopify GID of the given type (gid://shopify/Product/123 → '123'). */
export function numericIdOfGid(gid: string, type: string): string | undefined {
  const match = /^gid:\/\/shopify\/([A-Za-z]+)\/(\d+)(?:\?.*)?$/.exec(gid.trim());
  return match && match[1] === type ? match[2] : undefined;
}
