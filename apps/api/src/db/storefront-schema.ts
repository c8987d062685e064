import type { StorefrontOrderStatus } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { licenseKeys } from './licences-schema';
import { users } from './schema';

/**
 * The perpetual licence bought through the storefront (ADR 0010): the orders this service
 * fulfilled from Shopify's order webhooks, and, for the built-in sandbox storefront only, the
 * carts and orders that Shopify itself would keep.
 */

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A storefront order that contained the voice AI perpetual licence, by Shopify's order id.
 * One row per order, locked while an order webhook is applied: the keys are issued once.
 */
export const storefrontOrders = pgTable(
  'storefront_orders',
  {
    /** Shopify's numeric order id, as text (ids are 64-bit). */
    orderId: text('order_id').primaryKey(),
    /** 'shopify' or 'sandbox': where the order webhook came from. */
    source: text('source').$type<'shopify' | 'sandbox'>().notNull(),
    /** The order's name in the store, e.g. #1001. */
    name: text('name').notNull(),
    /** The buyer's e-mail, trimmed and lower-cased; null when the order has none. */
    email: text('email'),
    /** The account the keys were registered to; null while unclaimed (or after its deletion). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    status: text('status').$type<StorefrontOrderStatus>().notNull(),
    /** Perpetual licences in the order (sum of the matching line items' quantities). */
    quantity: integer('quantity').notNull(),
    /** Licences taken back by refunds or the order's cancellation (ADR 0032), at most quantity. */
    refundedQuantity: integer('refunded_quantity').notNull().default(0),
    financialStatus: text('financial_status').notNull(),
    isTest: boolean('is_test').notNull().default(false),
    currency: text('currency'),
    totalPrice: text('total_price'),
    /** The store's own receipt and order status page (order_status_url, ADR 0058); null: none sent. */
    statusUrl: text('status_url'),
    /** When the store created the order (its created_at). */
    orderedAt: ts('ordered_at'),
    receivedAt: ts('received_at').notNull(),
    fulfilledAt: ts('fulfilled_at'),
  },
  (t) => [
    index('storefront_orders_email_idx').on(t.email),
    index('storefront_orders_user_idx').on(t.userId),
    /** The operators' search by order number (#1001). */
    index('storefront_orders_name_idx').on(t.name),
    check('storefront_orders_quantity_positive', sql`${t.quantity} > 0`),
  ],
);

/** The keys an order issued: at most one per unit (order, position), each key for one order. */
export const storefrontOrderKeys = pgTable(
  'storefront_order_keys',
  {
    orderId: text('order_id')
      .notNull()
      .references(() => storefrontOrders.orderId, { onDelete: 'cascade' }),
    /** 1 … quantity. */
    position: integer('position').notNull(),
    licenseKeyId: uuid('license_key_id')
      .notNull()
      .references(() => licenseKeys.id),
    /** When a refund of the order took this key back. */
    revokedAt: ts('revoked_at'),
  },
  (t) => [
    primaryKey({ columns: [t.orderId, t.position] }),
    uniqueIndex('storefront_order_keys_key_key').on(t.licenseKeyId),
  ],
);

/**
 * The refunds of a storefront order (Shopify's refunds/create, by refund id; `cancel` for
 * orders/cancelled, which takes back every licence): how many licences each took back. Recorded
 * even before the order is granted, so that the grant issues only what is not refunded.
 */
export const storefrontOrderRefunds = pgTable(
  'storefront_order_refunds',
  {
    orderId: text('order_id').notNull(),
    /** Shopify's numeric refund id, or 'cancel'. */
    refundId: text('refund_id').notNull(),
    /** Licence units refunded (refund line items of the voice AI product; all for a cancellation). */
    quantity: integer('quantity').notNull(),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.refundId] })],
);

/**
 * The refunds finance asked the store for (AdminRefundStorefrontOrder, ADR 0059), one per order
 * and reference: the same reference again refunds nothing more. What the refund did to the order
 * is in storefront_order_refunds, as for any refund.
 */
export const storefrontOperatorRefunds = pgTable(
  'storefront_operator_refunds',
  {
    orderId: text('order_id').notNull(),
    /** The operator's reference (the console makes one per form). */
    reference: text('reference').notNull(),
    /** The store's numeric refund id, as its refunds/create carries it. */
    refundId: text('refund_id').notNull(),
    /** Licences this refund gave back. */
    quantity: integer('quantity').notNull(),
    operatorId: uuid('operator_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.orderId, t.reference] })],
);

export const SHOPIFY_WEBHOOK_OUTCOMES = ['processing', 'granted', 'recorded', 'ignored', 'error', 'revoked'] as const;
export type ShopifyWebhookOutcome = (typeof SHOPIFY_WEBHOOK_OUTCOMES)[number];

/**
 * Every order webhook handled, by X-Shopify-Webhook-Id: a delivery whose id is here (and did
 * not end in an error) is a replay and changes nothing. Written in the transaction of its effect.
 */
export const shopifyWebhookEvents = pgTable(
  'shopify_webhook_events',
  {
    webhookId: text('webhook_id').primaryKey(),
    topic: text('topic').notNull(),
    orderId: text('order_id'),
    /**
     * granted: keys issued · recorded: order noted, not paid (or a refund noted) · ignored: nothing
     * of ours · error: retry allowed · revoked: a refund took keys back.
     */
    outcome: text('outcome').$type<ShopifyWebhookOutcome>().notNull(),
    failureReason: text('failure_reason'),
    attempts: integer('attempts').notNull().default(1),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [index('shopify_webhook_events_order_idx').on(t.orderId)],
);

// ── The sandbox storefront's own data (what Shopify keeps; never used with SHOPIFY_* set) ──

/** A line of a sandbox cart or order. */
export interface SandboxCartLine {
  /** The line's id (a UUID; the GID is gid://shopify/CartLine/<id>?cart=<token>). */
  lineId: string;
  /** Numeric ProductVariant id of the sandbox catalogue. */
  variantId: number;
  quantity: number;
}

/** A cart of the sandbox storefront; only the SHA-256 of its key (the secret half of its id) is kept. */
export const sandboxCarts = pgTable('shopify_sandbox_carts', {
  token: text('token').primaryKey(),
  keyHash: text('key_hash').notNull(),
  lines: jsonb('lines').$type<SandboxCartLine[]>().notNull(),
  buyerEmail: text('buyer_email'),
  buyerCountry: text('buyer_country'),
  note: text('note'),
  attributes: jsonb('attributes').$type<{ key: string; value: string }[]>().notNull().default([]),
  createdAt: ts('created_at').notNull(),
  updatedAt: ts('updated_at').notNull(),
  expiresAt: ts('expires_at').notNull(),
});

/** An order line as the sandbox froze it when the order was placed. */
export interface SandboxOrderLine {
  lineItemId: number;
  productId: number;
  variantId: number;
  title: string;
  variantTitle: string;
  sku: string;
  quantity: number;
  unitPriceCents: number;
}

/** One order webhook delivery of a sandbox order; a retry reuses its ids. */
export interface SandboxWebhookDelivery {
  topic: string;
  webhookId: string;
  eventId: string;
}

/** An order placed through the sandbox checkout: one per cart. */
export const sandboxOrders = pgTable(
  'shopify_sandbox_orders',
  {
    /** Shopify-like numeric order id. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity({ startWith: 5_000_000_000_001 }),
    cartToken: text('cart_token')
      .notNull()
      .references(() => sandboxCarts.token),
    email: text('email').notNull(),
    lines: jsonb('lines').$type<SandboxOrderLine[]>().notNull(),
    currency: text('currency').notNull(),
    totalCents: integer('total_cents').notNull(),
    deliveries: jsonb('deliveries').$type<SandboxWebhookDelivery[]>().notNull(),
    createdAt: ts('created_at').notNull(),
    /** When every order webhook was accepted by the handler; null: deliver again. */
    deliveredAt: ts('delivered_at'),
  },
  (t) => [uniqueIndex('shopify_sandbox_orders_cart_key').on(t.cartToken)],
);

/** An order line a sandbox refund gave back: the line's number in the order and its units. */
export interface SandboxRefundLine {
  lineItemId: number;
  quantity: number;
}

/**
 * A refund of a sandbox order, made as Shopify's refundCreate makes one (ADR 0059): once per
 * idempotency key, then told to the service by its signed refunds/create.
 */
export const sandboxRefunds = pgTable(
  'shopify_sandbox_refunds',
  {
    /** Shopify-like numeric refund id. */
    id: bigint('id', { mode: 'number' }).primaryKey().generatedAlwaysAsIdentity({ startWith: 7_000_000_000_001 }),
    orderId: bigint('order_id', { mode: 'number' })
      .notNull()
      .references(() => sandboxOrders.id),
    /** refundCreate's @idempotent key: the same key answers this refund again. */
    idempotencyKey: text('idempotency_key').notNull(),
    lines: jsonb('lines').$type<SandboxRefundLine[]>().notNull(),
    amountCents: integer('amount_cents').notNull(),
    note: text('note'),
    /** Its refunds/create delivery; a retry reuses the ids. */
    delivery: jsonb('delivery').$type<SandboxWebhookDelivery>().notNull(),
    createdAt: ts('created_at').notNull(),
    /** When the handler accepted its refunds/create; null: deliver again. */
    deliveredAt: ts('delivered_at'),
  },
  (t) => [
    uniqueIndex('shopify_sandbox_refunds_key').on(t.idempotencyKey),
    index('shopify_sandbox_refunds_order_idx').on(t.orderId),
  ],
);

export type StorefrontOrderRow = typeof storefrontOrders.$inferSelect;
export type SandboxCartRow = typeof sandboxCarts.$inferSelect;
export type SandboxOrderRow = typeof sandboxOrders.$inferSelect;
export type SandboxRefundRow = typeof sandboxRefunds.$inferSelect;
