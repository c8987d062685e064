import { z } from 'zod';
import { STOREFRONT_API_VERSION } from './constants';

/**
 * The perpetual voice AI licence bought through the storefront (spec licenses-devices-tokens
 * docs/requirements.md §7, Perpetual purchase): Shopify's Storefront API when SHOPIFY_* is set, otherwise this
 * service's sandbox storefront (ADR 0010).
 */

/**
 * Where the SPA sends its Storefront GraphQL requests when store settings say Sandbox: true
 * (the path of Shopify's own endpoint, under /api/sandbox/shopify on this service).
 */
export const SANDBOX_STOREFRONT_GRAPHQL_PATH = `/api/sandbox/shopify/api/${STOREFRONT_API_VERSION}/graphql.json`;

/** The header that carries the public Storefront access token (Shopify's name). */
export const STOREFRONT_ACCESS_TOKEN_HEADER = 'X-Shopify-Storefront-Access-Token';

/** What the service records about a storefront order (operator view). */
export const STOREFRONT_ORDER_STATUSES = ['pending', 'granted', 'unclaimed', 'refunded'] as const;
export type StorefrontOrderStatus = (typeof STOREFRONT_ORDER_STATUSES)[number];

/**
 * Licences of a storefront order that a refund may still take back (ADR 0059): none while it is
 * not paid (pending) or once every licence is refunded or the order cancelled (refunded).
 */
export function refundableLicences(order: {
  Status: StorefrontOrderStatus;
  Quantity: number;
  RefundedQuantity: number;
}): number {
  return order.Status === 'granted' || order.Status === 'unclaimed'
    ? Math.max(0, order.Quantity - order.RefundedQuantity)
    : 0;
}

/** One storefront order as `npm run admin -- orders` shows it. */
export const storefrontOrderSummarySchema = z.object({
  OrderId: z.string(),
  Name: z.string(),
  Email: z.string().nullable(),
  /**
   * pending: not paid yet · granted: keys registered to Account · unclaimed: keys mailed, not
   * registered · refunded: every licence of the order refunded or cancelled (ADR 0032).
   */
  Status: z.enum(STOREFRONT_ORDER_STATUSES),
  Quantity: z.number(),
  /** Licences of the order taken back by refunds or its cancellation. */
  RefundedQuantity: z.number(),
  /** The account the keys were registered to when the order was fulfilled. */
  Account: z.string().nullable(),
  IsTest: z.boolean(),
  CreatedAt: z.string(),
  /** The store's own receipt and order status page (its order_status_url, ADR 0058); null: the store sent none. */
  ReceiptUrl: z.string().nullable().optional(),
  /** Revoked: refunded, unowned and never registrable again. */
  Keys: z.array(z.object({ Key: z.string(), RegisteredTo: z.string().nullable(), Revoked: z.boolean() })),
});
export type StorefrontOrderSummary = z.infer<typeof storefrontOrderSummarySchema>;

/** A storefront order as an operator types it: its number (`#1001` or `1001`) or Shopify's order id. */
const STOREFRONT_ORDER_NUMBER = /^#?\s*(\d{1,20})$/;

/** The digits of an order number or order id as typed (`#1001` → `1001`), or undefined when it is neither. */
export function storefrontOrderDigits(text: string): string | undefined {
  return STOREFRONT_ORDER_NUMBER.exec(text.trim())?.[1];
}

/** A storefront order named by an operator (ADR 0059), as the customer page and `orders` show it. */
export const storefrontOrderReferenceSchema = z
  .string()
  .trim()
  .max(25)
  .refine((text) => storefrontOrderDigits(text) !== undefined, 'an order number such as #1001, or the order id');

/** The most licences one refund of a storefront order names (a sandbox line holds at most 10). */
export const STOREFRONT_REFUND_MAX_QUANTITY = 1000;

/** What a Shopify order webhook delivery did (ADR 0010). */
export const shopifyWebhookResultSchema = z.object({
  WebhookId: z.string(),
  Duplicate: z.boolean(),
  Outcome: z.string(),
});

/** Words of the sandbox checkout page (served by the service at a cart's checkoutUrl). */
export const sandboxCheckoutText = {
  title: 'Checkout',
  sandboxNotice: 'Sandbox store: no payment is taken and no card is needed.',
  orderSummary: 'Order summary',
  quantity: (n: number) => `Quantity ${n}`,
  compareAt: 'Regular price',
  subtotal: 'Subtotal',
  total: 'Total',
  contact: 'Contact',
  emailLabel: 'Email',
  emailHint: 'Your license is registered to the SoundID account with this email address.',
  pay: 'Pay now',
  cancel: 'Cancel and return to the store',
  notFoundTitle: 'Checkout not found',
  backToStore: 'Return to the store',
  thankYouTitle: 'Thank you for your purchase!',
  orderConfirmed: (name: string) => `Your order ${name} is confirmed.`,
  licenceOnItsWay: (email: string) =>
    `Your SoundID VoiceAI perpetual license is being added to the SoundID account of ${email}. If there is no account with this address yet, the license key is on its way to it by email.`,
  // The way back to Licenses & Devices: licenceMessages.toProducts.
} as const;
