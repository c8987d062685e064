import { and, asc, eq, isNotNull, isNull, sql, sum } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client';
import { users } from '../../db/schema';
import {
  type ShopifyWebhookOutcome,
  type StorefrontOrderRow,
  shopifyWebhookEvents,
  storefrontOrderKeys,
  storefrontOrderRefunds,
  storefrontOrders,
} from '../../db/storefront-schema';
import {
  isOrderTopic,
  isPaid,
  numericIdOfGid,
  ORDER_CANCELLED_TOPIC,
  orderEmail,
  orderStatusUrlOf,
  parseShopifyOrder,
  parseShopifyRefund,
  quantityOfProducts,
  REFUND_TOPIC,
  refundedQuantityOf,
  type ShopifyOrder,
  type ShopifyRefund,
} from '../../integrations/shopify/order-webhook';
import type { ShopifyWebhookDelivery } from '../../integrations/shopify/webhook-delivery';
import { isShopifyWebhookSignatureValid } from '../../integrations/shopify/webhook-signature';
import type { Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { VOICE_AI_PRODUCT_CODE } from '../licences/catalogue';
import { revokeRefundedKeys } from '../licences/refund-revocation';
import type { LicenceService } from '../licences/service';
import type { Mailer } from '../mail/mailer';
import type { TokenLedger } from '../tokens/ledger';
import { licenceMail } from './licence-mail';

export interface ShopifyWebhookResult {
  WebhookId: string;
  /** A replay of a delivery already handled: nothing changed. */
  Duplicate: boolean;
  Outcome: ShopifyWebhookOutcome;
}

export interface StorefrontOrderServiceDeps {
  db: Database;
  clock: Clock;
  licences: LicenceService;
  ledger: TokenLedger;
  mailer: Mailer;
  log: FastifyBaseLogger;
  publicUrl: string;
  /** SHOPIFY_WEBHOOK_SECRET, or the sandbox's derived secret. */
  webhookSecret: string;
  /** Who sends the webhooks (recorded on each order). */
  source: 'shopify' | 'sandbox';
  /** Product GIDs of the voice AI perpetual licence (store settings' VoiceAiProductIds). */
  voiceAiProductIds: string[];
}

interface Effect {
  outcome: ShopifyWebhookOutcome;
  orderId?: string;
  reason?: string;
  /** Keys issued by this delivery: the order mail goes out once the transaction has committed. */
  /** `userId`: the account the keys went to, or null when the address has no verified account. */
  /** `statusUrl`: the store's receipt and order status page, when it sent one (ADR 0058). */
  issued?: { email: string; orderName: string; keys: string[]; userId: string | null; statusUrl: string | null };
}

/** Webhook ids are UUIDs; anything much longer is not Shopify's. */
const MAX_WEBHOOK_ID_LENGTH = 100;

/**
 * Storefront orders → voice AI perpetual licences. Each signed order webhook is applied once
 * (its X-Shopify-Webhook-Id claimed in the transaction of its effect), and each order grants
 * once whatever the deliveries (its row locked, keys issued only while it is pending): a
 * paid order's keys go to the verified account with the order's e-mail, or, with no such
 * account, stay unowned and are mailed to the buyer to register (ADR 0010).
 */
export class StorefrontOrderService {
  private readonly productIds: ReadonlySet<string>;
  private readonly ledger: TokenLedger;

  constructor(private readonly deps: StorefrontOrderServiceDeps) {
    this.ledger = deps.ledger;
    this.productIds = new Set(
      deps.voiceAiProductIds.map((gid) => numericIdOfGid(gid, 'Product')).filter((id): id is string => !!id),
    );
  }

  async handleWebhook(delivery: ShopifyWebhookDelivery): Promise<ShopifyWebhookResult> {
    if (!isShopifyWebhookSignatureValid(delivery.rawBody, delivery.hmac, this.deps.webhookSecret)) {
      throw new Fault('WebhookSignatureInvalid');
    }
    const webhookId = delivery.webhookId?.trim();
    if (!webhookId || webhookId.length > MAX_WEBHOOK_ID_LENGTH) throw new Fault('StorefrontWebhookIdMissing');
    const topic = (delivery.topic ?? 'unknown').slice(0, 100);
    const receivedAt = this.deps.clock.now();
    const order =
      isOrderTopic(topic) || topic === ORDER_CANCELLED_TOPIC ? parseShopifyOrder(delivery.rawBody) : undefined;
    const refund = topic === REFUND_TOPIC ? parseShopifyRefund(delivery.rawBody) : undefined;

    let effect: Effect | undefined;
    try {
      const result = await this.deps.db.transaction(async (tx) => {
        // Claims the webhook id; a concurrent delivery of the same id waits here on the key and
        // then finds it taken. A delivery whose handling failed earlier may be claimed again.
        const claimed = await tx
          .insert(shopifyWebhookEvents)
          .values({ webhookId, topic, outcome: 'processing', receivedAt })
          .onConflictDoUpdate({
            target: shopifyWebhookEvents.webhookId,
            set: { outcome: 'processing', attempts: sql`${shopifyWebhookEvents.attempts} + 1`, receivedAt },
            setWhere: eq(shopifyWebhookEvents.outcome, 'error'),
          })
          .returning({ webhookId: shopifyWebhookEvents.webhookId });
        if (claimed.length === 0) {
          const [prior] = await tx
            .select({ outcome: shopifyWebhookEvents.outcome })
            .from(shopifyWebhookEvents)
            .where(eq(shopifyWebhookEvents.webhookId, webhookId));
          return { WebhookId: webhookId, Duplicate: true, Outcome: prior?.outcome ?? 'ignored' };
        }
        effect =
          topic === REFUND_TOPIC || topic === ORDER_CANCELLED_TOPIC
            ? await this.applyRefund(tx, topic, refund, order, receivedAt)
            : await this.apply(tx, topic, order, receivedAt);
        await tx
          .update(shopifyWebhookEvents)
          .set({ outcome: effect.outcome, orderId: effect.orderId ?? null, failureReason: effect.reason ?? null })
          .where(eq(shopifyWebhookEvents.webhookId, webhookId));
        return { WebhookId: webhookId, Duplicate: false, Outcome: effect.outcome };
      });
      if (effect?.issued) await this.mailKeys(effect.issued);
      return result;
    } catch (error) {
      this.deps.log.error({ err: error, webhookId, topic }, 'shopify webhook failed');
      await this.recordError(webhookId, topic, receivedAt, error);
      throw error instanceof Fault ? error : new Fault('ServiceUnavailable');
    }
  }

  private async apply(
    tx: Transaction,
    topic: string,
    order: ShopifyOrder | undefined,
    receivedAt: Date,
  ): Promise<Effect> {
    if (!isOrderTopic(topic)) return { outcome: 'ignored', reason: 'unhandled_topic' };
    if (!order) {
      this.deps.log.warn({ topic }, 'shopify order webhook without a readable order');
      return { outcome: 'ignored', reason: 'unreadable_order' };
    }
    const orderId = order.id;
    const quantity = quantityOfProducts(order, this.productIds);
    if (quantity === 0) return { outcome: 'ignored', orderId, reason: 'no_licence_items' };

    const email = orderEmail(order) ?? null;
    const financialStatus = (order.financial_status ?? 'unknown').slice(0, 50);
    const statusUrl = orderStatusUrlOf(order);
    await lockOrder(tx, orderId);
    await tx
      .insert(storefrontOrders)
      .values({
        orderId,
        source: this.deps.source,
        name: (order.name ?? `#${orderId}`).slice(0, 100),
        email,
        status: 'pending',
        quantity,
        financialStatus,
        isTest: order.test === true,
        currency: order.currency?.slice(0, 10) ?? null,
        totalPrice: order.total_price?.slice(0, 30) ?? null,
        statusUrl,
        orderedAt: parseDate(order.created_at),
        receivedAt,
      })
      .onConflictDoNothing();
    // Every delivery about this order waits here for the one before it: the grant happens once.
    const [row] = await tx.select().from(storefrontOrders).where(eq(storefrontOrders.orderId, orderId)).for('update');
    if (!row) throw new Error(`order ${orderId} vanished`);
    // A later delivery may be the first to carry the store's page of the order.
    if (statusUrl && row.statusUrl !== statusUrl) {
      await tx.update(storefrontOrders).set({ statusUrl }).where(eq(storefrontOrders.orderId, orderId));
    }
    if (row.status !== 'pending') return { outcome: 'ignored', orderId, reason: 'already_fulfilled' };
    if (!isPaid(order)) {
      await tx.update(storefrontOrders).set({ financialStatus, quantity }).where(eq(storefrontOrders.orderId, orderId));
      return { outcome: 'recorded', orderId, reason: `financial_status ${financialStatus}` };
    }

    // Refunds or a cancellation that arrived before the payment: only the rest is granted.
    const refundedQuantity = Math.min(quantity, await this.refundedUnits(tx, orderId));
    if (refundedQuantity === quantity) {
      await tx
        .update(storefrontOrders)
        .set({ status: 'refunded', email, quantity, refundedQuantity, financialStatus, fulfilledAt: receivedAt })
        .where(eq(storefrontOrders.orderId, orderId));
      return { outcome: 'recorded', orderId, reason: 'refunded_before_grant' };
    }
    const account = email ? await this.verifiedAccount(tx, email) : undefined;
    const keys = await this.deps.licences.issuePurchasedKeys(
      tx,
      VOICE_AI_PRODUCT_CODE,
      quantity - refundedQuantity,
      account ? { userId: account.id, registeredAt: receivedAt } : undefined,
    );
    await tx
      .insert(storefrontOrderKeys)
      .values(keys.map((key, i) => ({ orderId, position: i + 1, licenseKeyId: key.id })));
    await tx
      .update(storefrontOrders)
      .set({
        status: account ? 'granted' : 'unclaimed',
        userId: account?.id ?? null,
        email,
        quantity,
        refundedQuantity,
        financialStatus,
        fulfilledAt: receivedAt,
      })
      .where(eq(storefrontOrders.orderId, orderId));
    if (!email) this.deps.log.warn({ orderId }, 'paid storefront order without an e-mail: keys issued unowned');
    return {
      outcome: 'granted',
      orderId,
      ...(account ? {} : { reason: 'no_verified_account' }),
      ...(email
        ? {
            issued: {
              email,
              orderName: row.name,
              keys: keys.map((k) => k.key),
              userId: account?.id ?? null,
              statusUrl: statusUrl ?? row.statusUrl,
            },
          }
        : {}),
    };
  }

  /**
   * refunds/create and orders/cancelled (ADR 0032): the licence units given back are recorded
   * once per refund (a cancellation gives back every unit), then as many of the order's keys
   * are revoked, newest first, with their devices released. Before the order is granted the
   * refund waits: the grant issues only what is not refunded. One order at a time (its lock).
   */
  private async applyRefund(
    tx: Transaction,
    topic: string,
    refund: ShopifyRefund | undefined,
    cancelled: ShopifyOrder | undefined,
    receivedAt: Date,
  ): Promise<Effect> {
    const given =
      topic === REFUND_TOPIC
        ? refund && {
            orderId: refund.order_id,
            refundId: refund.id,
            quantity: refundedQuantityOf(refund, this.productIds),
          }
        : cancelled && {
            orderId: cancelled.id,
            refundId: 'cancel',
            quantity: quantityOfProducts(cancelled, this.productIds),
          };
    if (!given) {
      this.deps.log.warn({ topic }, 'shopify refund webhook without a readable refund');
      return { outcome: 'ignored', reason: 'unreadable_refund' };
    }
    const { orderId } = given;
    if (given.quantity === 0) return { outcome: 'ignored', orderId, reason: 'no_licence_items' };
    await lockOrder(tx, orderId);
    const recorded = await tx
      .insert(storefrontOrderRefunds)
      .values({ orderId, refundId: given.refundId, quantity: given.quantity, receivedAt })
      .onConflictDoNothing()
      .returning({ refundId: storefrontOrderRefunds.refundId });
    if (recorded.length === 0) return { outcome: 'ignored', orderId, reason: 'refund_already_recorded' };
    const [row] = await tx.select().from(storefrontOrders).where(eq(storefrontOrders.orderId, orderId)).for('update');
    if (!row) return { outcome: 'recorded', orderId, reason: 'refund_before_order' };
    return this.revokeRefunded(tx, row);
  }

  /**
   * A refund the store made at our own asking (AdminRefundStorefrontOrder, ADR 0059), as its
   * answer gives it: applied in the caller's transaction by the code of its refunds/create, which
   * then finds it recorded (or came first, and this finds it recorded).
   */
  async applyStoreRefund(tx: Transaction, refund: ShopifyRefund): Promise<void> {
    await this.applyRefund(tx, REFUND_TOPIC, refund, undefined, this.deps.clock.now());
  }

  /** Revokes the order's keys that its refunds call for and are not revoked yet. */
  private async revokeRefunded(tx: Transaction, row: StorefrontOrderRow): Promise<Effect> {
    const orderId = row.orderId;
    const refundedQuantity = Math.min(row.quantity, await this.refundedUnits(tx, orderId));
    if (row.status === 'pending' || row.status === 'refunded') {
      await tx
        .update(storefrontOrders)
        .set({ refundedQuantity, ...(refundedQuantity === row.quantity ? { status: 'refunded' as const } : {}) })
        .where(eq(storefrontOrders.orderId, orderId));
      return { outcome: 'recorded', orderId, reason: `refunded ${refundedQuantity}/${row.quantity} before grant` };
    }
    const live = await tx
      .select({ licenseKeyId: storefrontOrderKeys.licenseKeyId, position: storefrontOrderKeys.position })
      .from(storefrontOrderKeys)
      .where(and(eq(storefrontOrderKeys.orderId, orderId), isNull(storefrontOrderKeys.revokedAt)))
      .orderBy(asc(storefrontOrderKeys.position));
    // Units granted = quantity - what was refunded before the grant; the refunds beyond that take keys.
    const toRevoke = Math.max(0, live.length - (row.quantity - refundedQuantity));
    const chosen = live.slice(live.length - toRevoke);
    const now = this.deps.clock.now();
    await revokeRefundedKeys(
      tx,
      { clock: this.deps.clock, ledger: this.ledger },
      chosen.map((key) => key.licenseKeyId),
    );
    for (const key of chosen) {
      await tx
        .update(storefrontOrderKeys)
        .set({ revokedAt: now })
        .where(and(eq(storefrontOrderKeys.orderId, orderId), eq(storefrontOrderKeys.position, key.position)));
    }
    await tx
      .update(storefrontOrders)
      .set({ refundedQuantity, ...(toRevoke === live.length ? { status: 'refunded' as const } : {}) })
      .where(eq(storefrontOrders.orderId, orderId));
    return {
      outcome: toRevoke > 0 ? 'revoked' : 'recorded',
      orderId,
      reason: `refunded ${refundedQuantity}/${row.quantity}: ${toRevoke} key(s) revoked`,
    };
  }

  /** Licence units the order's refunds gave back so far (not capped). */
  private async refundedUnits(tx: Transaction, orderId: string): Promise<number> {
    const [row] = await tx
      .select({ total: sum(storefrontOrderRefunds.quantity) })
      .from(storefrontOrderRefunds)
      .where(eq(storefrontOrderRefunds.orderId, orderId));
    return Number(row?.total ?? 0);
  }

  /** The account whose verified e-mail is the order's (an unverified sign-up proves nothing). */
  private async verifiedAccount(tx: Transaction, email: string): Promise<{ id: string } | undefined> {
    const [user] = await tx
      .select({ id: users.id })
      .from(users)
      .where(and(eq(users.email, email), isNotNull(users.emailVerifiedAt)))
      .limit(1);
    return user;
  }

  private async mailKeys(issued: NonNullable<Effect['issued']>): Promise<void> {
    const { email: to, orderName, keys, userId, statusUrl } = issued;
    try {
      await this.deps.mailer.send(
        licenceMail({ to, orderName, keys, publicUrl: this.deps.publicUrl, isInAccount: userId !== null, statusUrl }),
        userId ? { userId } : undefined,
      );
    } catch (error) {
      // The keys stand; support can look the order up (npm run admin -- orders) and send them.
      this.deps.log.error({ err: error, order: issued.orderName }, 'storefront licence mail not sent');
    }
  }

  /** After a failed attempt: remembered as an error, so that Shopify's retry may claim it again. */
  private async recordError(webhookId: string, topic: string, receivedAt: Date, error: unknown): Promise<void> {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    try {
      await this.deps.db
        .insert(shopifyWebhookEvents)
        .values({ webhookId, topic, outcome: 'error', failureReason: reason, receivedAt })
        .onConflictDoUpdate({
          target: shopifyWebhookEvents.webhookId,
          set: { failureReason: reason, receivedAt },
          setWhere: eq(shopifyWebhookEvents.outcome, 'error'),
        });
    } catch (recordError) {
      this.deps.log.error({ err: recordError, webhookId }, 'shopify webhook error not recorded');
    }
  }
}

/**
 * One order's webhook effects at a time (grant, refunds, cancellation), even before its row
 * exists: a transaction-scoped lock on its id.
 */
async function lockOrder(tx: Transaction, orderId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`shopify-order:${orderId}`}, 0))`);
}

function parseDate(value: string | null | undefined): Date | null {
  if (!value) return null;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? null : date;
}
