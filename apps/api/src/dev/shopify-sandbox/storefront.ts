import { createHash, timingSafeEqual } from 'node:crypto';
import { isValidEmail, STOREFRONT_API_VERSION } from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  type SandboxCartLine,
  type SandboxCartRow,
  type SandboxOrderLine,
  type SandboxOrderRow,
  type SandboxWebhookDelivery,
  sandboxCarts,
  sandboxOrders,
} from '../../db/storefront-schema';
import { SHOPIFY_WEBHOOK_HEADERS, type ShopifyWebhookDelivery } from '../../integrations/shopify/webhook-delivery';
import { signShopifyWebhook } from '../../integrations/shopify/webhook-signature';
import { addDays, type Clock, type Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { findSandboxVariant } from './catalogue';

/** Shopify keeps an untouched cart for 10 days. */
export const SANDBOX_CART_LIFETIME_DAYS = 10;
/** Most units of one line the sandbox accepts (a buyer needs one licence per seat pool). */
export const SANDBOX_MAX_LINE_QUANTITY = 10;
const MAX_LINES = 25;
const MAX_NOTE_LENGTH = 5000;
const MAX_ATTRIBUTES = 50;
/** Where the sandbox's order numbers start (#1001, as in a new Shopify store). */
const ORDER_ID_BASE = 5_000_000_000_000;
const FIRST_ORDER_NUMBER = 1000;

/** Shopify's CartUserError. */
export interface CartUserError {
  code: string;
  field: string[];
  message: string;
}

export interface CartInput {
  lines?:
    | { merchandiseId: string; quantity?: number | null; attributes?: unknown; sellingPlanId?: string | null }[]
    | null;
  buyerIdentity?: {
    email?: string | null;
    phone?: string | null;
    countryCode?: string | null;
    customerAccessToken?: string | null;
  } | null;
  attributes?: { key: string; value: string }[] | null;
  note?: string | null;
  discountCodes?: string[] | null;
}

export interface SandboxStorefrontDeps {
  db: Database;
  clock: Clock;
  random: Random;
  publicUrl: string;
  /** The secret that signs the sandbox's order webhooks. */
  webhookSecret: string;
  /** The order webhook handler: the same function POST /api/webhooks/shopify calls. */
  deliver(delivery: ShopifyWebhookDelivery): Promise<unknown>;
}

/** What the checkout page shows for a cart. */
export type CheckoutState =
  | { kind: 'open'; cart: SandboxCartRow }
  | { kind: 'ordered'; cart: SandboxCartRow; order: SandboxOrderRow };

/**
 * The built-in stand-in for a Shopify store (never in production, never with SHOPIFY_* set):
 * carts made through the Storefront API live in this service's database, its checkout page
 * places orders, and each order travels as Shopify's signed order webhooks to the same
 * handler that real deliveries reach.
 */
export class SandboxStorefront {
  constructor(private readonly deps: SandboxStorefrontDeps) {}

  get storeDomain(): string {
    return new URL(this.deps.publicUrl).host;
  }

  // ── Carts (Storefront API) ───────────────────────────────────────────────

  /** cartCreate: the new cart and its key (the secret half of its id), or Shopify's userErrors and no cart. */
  async createCart(
    input: CartInput | null | undefined,
  ): Promise<{ created?: { cart: SandboxCartRow; key: string }; userErrors: CartUserError[] }> {
    const { lines, userErrors } = this.validateCartInput(input ?? {});
    if (userErrors.length > 0) return { userErrors };
    const now = this.deps.clock.now();
    const key = this.deps.random.bytes(16).toString('hex');
    const [cart] = await this.deps.db
      .insert(sandboxCarts)
      .values({
        token: this.randomToken(18),
        // Only the key's hash is kept: whoever holds the cart id may read and pay the cart.
        keyHash: hashKey(key),
        lines,
        buyerEmail: input?.buyerIdentity?.email?.trim().toLowerCase() || null,
        buyerCountry: input?.buyerIdentity?.countryCode ?? null,
        note: input?.note ?? null,
        attributes: input?.attributes ?? [],
        createdAt: now,
        updatedAt: now,
        expiresAt: addDays(now, SANDBOX_CART_LIFETIME_DAYS),
      })
      .returning();
    if (!cart) throw new Error('cart not stored');
    return { created: { cart, key }, userErrors: [] };
  }

  /** cart(id): the live cart behind a full cart GID (token and key), else undefined. */
  async findCart(cartGid: string): Promise<SandboxCartRow | undefined> {
    const parsed = parseCartGid(cartGid);
    if (!parsed) return undefined;
    const cart = await this.cartByTokenAndKey(parsed.token, parsed.key);
    return cart && cart.expiresAt > this.deps.clock.now() ? cart : undefined;
  }

  cartGid(token: string, key: string): string {
    return `gid://shopify/Cart/${token}?key=${key}`;
  }

  checkoutUrl(token: string, key: string): string {
    return `${this.deps.publicUrl}${sandboxCheckoutPath(token)}?key=${encodeURIComponent(key)}`;
  }

  private validateCartInput(input: CartInput): { lines: SandboxCartLine[]; userErrors: CartUserError[] } {
    const userErrors: CartUserError[] = [];
    const error = (code: string, field: string[], message: string) => userErrors.push({ code, field, message });
    const lines: SandboxCartLine[] = [];
    const requested = input.lines ?? [];
    if (requested.length > MAX_LINES) {
      error('INVALID', ['input', 'lines'], `The cart can't have more than ${MAX_LINES} lines.`);
    }
    requested.slice(0, MAX_LINES).forEach((line, i) => {
      const field = (name: string) => ['input', 'lines', String(i), name];
      const variantId = Number(/^gid:\/\/shopify\/ProductVariant\/(\d{1,15})$/.exec(line.merchandiseId)?.[1]);
      const found = Number.isSafeInteger(variantId) ? findSandboxVariant(variantId) : undefined;
      const quantity = line.quantity ?? 1;
      if (!found) {
        error('INVALID', field('merchandiseId'), `The merchandise with id ${line.merchandiseId} does not exist.`);
      } else if (!found.variant.availableForSale) {
        error('MERCHANDISE_OUT_OF_STOCK', field('merchandiseId'), 'The merchandise is out of stock.');
      } else if (line.sellingPlanId) {
        error('INVALID', field('sellingPlanId'), 'The selling plan is not available for this merchandise.');
      } else if (quantity < 1) {
        error('INVALID', field('quantity'), 'The quantity must be greater than 0.');
      } else {
        const same = lines.find((l) => l.variantId === variantId);
        const total = (same?.quantity ?? 0) + quantity;
        if (total > SANDBOX_MAX_LINE_QUANTITY) {
          error(
            'MAXIMUM_EXCEEDED',
            field('quantity'),
            `The maximum quantity for this item is ${SANDBOX_MAX_LINE_QUANTITY}.`,
          );
        } else if (same) {
          // Shopify merges lines of the same merchandise.
          same.quantity = total;
        } else {
          lines.push({ lineId: this.uuid(), variantId, quantity });
        }
      }
    });
    const buyer = input.buyerIdentity;
    if (buyer?.email && !isValidEmail(buyer.email)) {
      error('INVALID', ['input', 'buyerIdentity', 'email'], 'Email is invalid');
    }
    if (buyer?.customerAccessToken) {
      error('INVALID', ['input', 'buyerIdentity', 'customerAccessToken'], 'Customer access token is invalid.');
    }
    if (input.note && input.note.length > MAX_NOTE_LENGTH) {
      error('NOTE_TOO_LONG', ['input', 'note'], `The note can't be longer than ${MAX_NOTE_LENGTH} characters.`);
    }
    if ((input.attributes?.length ?? 0) > MAX_ATTRIBUTES) {
      error('INVALID', ['input', 'attributes'], `The cart can't have more than ${MAX_ATTRIBUTES} attributes.`);
    }
    return { lines, userErrors };
  }

  // ── Checkout page ───────────────────────────────────────────────────────

  /**
   * The checkout behind a checkout URL. A paid cart shows its order (and delivers any order
   * webhook that did not get through, as Shopify retries); an unknown or lapsed one is not found.
   */
  async checkout(token: string, key: string): Promise<CheckoutState> {
    const cart = await this.cartByTokenAndKey(token, key);
    if (!cart) throw new Fault('StorefrontCheckoutNotFound');
    const order = await this.orderOfCart(token);
    if (order) {
      return { kind: 'ordered', cart, order: order.deliveredAt ? order : await this.deliverOrder(order) };
    }
    if (cart.expiresAt <= this.deps.clock.now()) throw new Fault('StorefrontCheckoutNotFound');
    return { kind: 'open', cart };
  }

  /**
   * Places the cart's order (once: paying again returns the same order) and delivers it as
   * Shopify does: orders/create and orders/paid, each signed, to the order webhook handler.
   */
  async pay(token: string, key: string, emailInput: string): Promise<SandboxOrderRow> {
    const email = emailInput.trim().toLowerCase();
    if (!isValidEmail(email)) throw new Fault('UserEmailInvalid');
    const order = await this.deps.db.transaction(async (tx) => {
      const [cart] = await tx.select().from(sandboxCarts).where(eq(sandboxCarts.token, token)).for('update');
      if (!cart || !keyMatches(key, cart.keyHash)) throw new Fault('StorefrontCheckoutNotFound');
      const [existing] = await tx.select().from(sandboxOrders).where(eq(sandboxOrders.cartToken, token));
      if (existing) return existing;
      const now = this.deps.clock.now();
      if (cart.expiresAt <= now) throw new Fault('StorefrontCheckoutNotFound');
      if (cart.lines.length === 0) throw new Fault('StorefrontCartEmpty');
      const lines = orderLines(cart.lines);
      const [created] = await tx
        .insert(sandboxOrders)
        .values({
          cartToken: token,
          email,
          lines,
          currency: 'USD',
          totalCents: lines.reduce((sum, line) => sum + line.unitPriceCents * line.quantity, 0),
          deliveries: ['orders/create', 'orders/paid'].map((topic) => ({
            topic,
            webhookId: this.uuid(),
            eventId: this.uuid(),
          })),
          createdAt: now,
        })
        .returning();
      if (!created) throw new Error('order not stored');
      return created;
    });
    return order.deliveredAt ? order : this.deliverOrder(order);
  }

  /** Sends the order's webhooks (a retry reuses their ids, so the handler applies each once). */
  private async deliverOrder(order: SandboxOrderRow): Promise<SandboxOrderRow> {
    for (const delivery of order.deliveries) {
      await this.deps.deliver(
        deliveryOf(this.webhookRequest(order, delivery.topic, delivery.webhookId, delivery.eventId)),
      );
    }
    const deliveredAt = this.deps.clock.now();
    await this.deps.db.update(sandboxOrders).set({ deliveredAt }).where(eq(sandboxOrders.id, order.id));
    return { ...order, deliveredAt };
  }

  /** A Shopify order webhook request for a sandbox order: the body, signed, and every X-Shopify-* header. */
  webhookRequest(order: SandboxOrderRow, topic: string, webhookId: string, eventId: string): SandboxWebhookRequest {
    return sandboxWebhookRequest(sandboxOrderPayload(order, this.storeDomain), {
      delivery: { topic, webhookId, eventId },
      at: order.createdAt,
      secret: this.deps.webhookSecret,
      storeDomain: this.storeDomain,
    });
  }

  // ── Helpers ─────────────────────────────────────────────────────────────

  private async cartByTokenAndKey(token: string, key: string): Promise<SandboxCartRow | undefined> {
    if (!/^[A-Za-z0-9_-]{1,64}$/.test(token)) return undefined;
    const [cart] = await this.deps.db.select().from(sandboxCarts).where(eq(sandboxCarts.token, token)).limit(1);
    return cart && keyMatches(key, cart.keyHash) ? cart : undefined;
  }

  private async orderOfCart(token: string): Promise<SandboxOrderRow | undefined> {
    const [order] = await this.deps.db.select().from(sandboxOrders).where(eq(sandboxOrders.cartToken, token)).limit(1);
    return order;
  }

  private randomToken(bytes: number): string {
    return this.deps.random.bytes(bytes).toString('base64url');
  }

  private uuid(): string {
    return sandboxUuid(this.deps.random);
  }
}

/** A version-4 UUID from the injected randomness (deterministic in tests). */
export function sandboxUuid(random: Random): string {
  const b = random.bytes(16);
  b[6] = ((b[6] ?? 0) & 0x0f) | 0x40;
  b[8] = ((b[8] ?? 0) & 0x3f) | 0x80;
  const hex = b.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

/** A webhook request as Shopify sends it: the raw body and every X-Shopify-* header. */
export interface SandboxWebhookRequest {
  rawBody: Buffer;
  headers: Record<string, string>;
}

/** A sandbox webhook: the payload serialised, signed with the sandbox secret, with Shopify's headers. */
export function sandboxWebhookRequest(
  payload: Record<string, unknown>,
  options: { delivery: SandboxWebhookDelivery; at: Date; secret: string; storeDomain: string },
): SandboxWebhookRequest {
  const { delivery, at, secret, storeDomain } = options;
  const rawBody = Buffer.from(JSON.stringify(payload));
  const h = SHOPIFY_WEBHOOK_HEADERS;
  return {
    rawBody,
    headers: {
      'Content-Type': 'application/json',
      [h.topic]: delivery.topic,
      [h.hmac]: signShopifyWebhook(rawBody, secret),
      [h.shopDomain]: storeDomain,
      [h.apiVersion]: STOREFRONT_API_VERSION,
      [h.webhookId]: delivery.webhookId,
      [h.eventId]: delivery.eventId,
      [h.triggeredAt]: at.toISOString(),
    },
  };
}

/** The delivery the webhook handler reads from a request (what POST /api/webhooks/shopify would). */
export function deliveryOf(request: SandboxWebhookRequest): ShopifyWebhookDelivery {
  const h = SHOPIFY_WEBHOOK_HEADERS;
  return {
    rawBody: request.rawBody,
    hmac: request.headers[h.hmac],
    topic: request.headers[h.topic],
    webhookId: request.headers[h.webhookId],
    shopDomain: request.headers[h.shopDomain],
  };
}

/** The checkout page of a cart (the key travels in the query, as in Shopify's checkout URLs). */
export function sandboxCheckoutPath(token: string): string {
  return `/sandbox/shopify/cart/c/${token}`;
}

/** gid://shopify/Cart/<token>?key=<key> → its parts. */
export function parseCartGid(gid: string): { token: string; key: string } | undefined {
  const match = /^gid:\/\/shopify\/Cart\/([A-Za-z0-9_-]{1,64})\?key=([A-Za-z0-9]{1,64})$/.exec(gid);
  return match ? { token: match[1] as string, key: match[2] as string } : undefined;
}

export function orderNumber(order: SandboxOrderRow): number {
  return order.id - ORDER_ID_BASE + FIRST_ORDER_NUMBER;
}

export function orderName(order: SandboxOrderRow): string {
  return `#${orderNumber(order)}`;
}

/** Cents as Shopify's REST payloads write money: "99.00". */
export const restMoney = (cents: number) => (cents / 100).toFixed(2);

function orderLines(lines: SandboxCartLine[]): SandboxOrderLine[] {
  return lines.map((line, i) => {
    const found = findSandboxVariant(line.variantId);
    if (!found) throw new Fault('StorefrontCartEmpty');
    return {
      lineItemId: i + 1,
      productId: found.product.id,
      variantId: found.variant.id,
      title: found.product.title,
      variantTitle: found.variant.title,
      sku: found.variant.sku,
      quantity: line.quantity,
      unitPriceCents: found.variant.priceCents,
    };
  });
}

/**
 * The order as Shopify's order webhooks carry it (the REST Order resource): numeric ids,
 * money as strings, the buyer's e-mail, financial_status paid (the sandbox takes no real payment).
 */
export function sandboxOrderPayload(order: SandboxOrderRow, storeDomain: string): Record<string, unknown> {
  const at = order.createdAt.toISOString();
  const total = restMoney(order.totalCents);
  const money = (amount: string) => ({
    shop_money: { amount, currency_code: order.currency },
    presentment_money: { amount, currency_code: order.currency },
  });
  return {
    id: order.id,
    admin_graphql_api_id: `gid://shopify/Order/${order.id}`,
    name: orderName(order),
    order_number: orderNumber(order),
    number: orderNumber(order) - FIRST_ORDER_NUMBER,
    email: order.email,
    contact_email: order.email,
    created_at: at,
    updated_at: at,
    processed_at: at,
    currency: order.currency,
    presentment_currency: order.currency,
    financial_status: 'paid',
    fulfillment_status: null,
    confirmed: true,
    test: true,
    gateway: 'bogus',
    payment_gateway_names: ['bogus'],
    source_name: 'web',
    cart_token: order.cartToken,
    order_status_url: `https://${storeDomain}/orders/${order.id}`,
    subtotal_price: total,
    total_price: total,
    total_price_set: money(total),
    total_tax: '0.00',
    total_discounts: '0.00',
    taxes_included: false,
    customer: { email: order.email, verified_email: true },
    line_items: order.lines.map((line) => {
      const lineItemId = order.id * 10 + line.lineItemId;
      return {
        id: lineItemId,
        admin_graphql_api_id: `gid://shopify/LineItem/${lineItemId}`,
        product_id: line.productId,
        variant_id: line.variantId,
        title: line.title,
        variant_title: line.variantTitle,
        name: line.title,
        sku: line.sku,
        quantity: line.quantity,
        current_quantity: line.quantity,
        fulfillable_quantity: line.quantity,
        price: restMoney(line.unitPriceCents),
        price_set: money(restMoney(line.unitPriceCents)),
        requires_shipping: false,
        taxable: true,
        gift_card: false,
        product_exists: true,
        vendor: 'Sonarworks',
      };
    }),
  };
}

function hashKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

function keyMatches(key: string, hash: string): boolean {
  if (!hash) return false;
  const given = Buffer.from(hashKey(key), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}
