import { type CallResult, licenceKeyEnding, refundableLicences, storefrontOrderDigits } from '@soundid/contracts';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../../db/client';
import { licenseKeys } from '../../db/licences-schema';
import {
  type StorefrontOrderRow,
  storefrontOperatorRefunds,
  storefrontOrderKeys,
  storefrontOrders,
} from '../../db/storefront-schema';
import type { ShopifyAdmin } from '../../integrations/shopify/admin-api';
import type { Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { StorefrontOrderService } from './order-fulfilment';
import { storefrontOrderNamed } from './order-summaries';

/** Where an order stands, as the audit entry keeps it before and after a refund. */
export interface StorefrontOrderState {
  status: StorefrontOrderRow['status'];
  quantity: number;
  refundedQuantity: number;
  /** The order's keys not taken back yet, by their last group (ADR 0045: never a key in full). */
  liveKeys: string[];
}

/** What a refund finance asked for did: for its audit entry, in the transaction that keeps it. */
export interface StorefrontOperatorRefund {
  order: StorefrontOrderRow;
  refundId: string;
  reference: string;
  /** Licences asked for now. */
  quantity: number;
  before: StorefrontOrderState;
  after: StorefrontOrderState;
}

type RefundAnswer = CallResult<'AdminRefundStorefrontOrder'>;

export interface StorefrontRefundsDeps {
  db: Database;
  clock: Clock;
  orders: StorefrontOrderService;
  /** The store's Admin API (or the sandbox store); undefined: a real store without SHOPIFY_ADMIN_TOKEN. */
  store: ShopifyAdmin | undefined;
}

/**
 * Finance refunds a storefront order's perpetual licences (AdminRefundStorefrontOrder, ADR 0059):
 * through the store, which refunds the money and sends its refunds/create as for any refund.
 * Once per reference (also the store's idempotency key, so a retry or a double click that the
 * first has not answered yet refunds once too). What the store answers is applied at once by
 * the webhook's own code (the licences taken back), in the transaction of the audit entry that
 * `record` writes; the webhook then finds it done.
 */
export class StorefrontRefunds {
  constructor(private readonly deps: StorefrontRefundsDeps) {}

  async refundOrder(
    request: { order: string; quantity?: number | undefined; reference: string },
    operator: { id: string; email: string },
    record: (tx: Transaction, refunded: StorefrontOperatorRefund) => Promise<void>,
  ): Promise<RefundAnswer> {
    const { db, store, orders } = this.deps;
    const order = await findOrder(db, request.order);
    if (!order) throw new Fault('StorefrontOrderNotFound');
    const { reference } = request;
    const [made] = await db
      .select({ refundId: storefrontOperatorRefunds.refundId })
      .from(storefrontOperatorRefunds)
      .where(
        and(eq(storefrontOperatorRefunds.orderId, order.orderId), eq(storefrontOperatorRefunds.reference, reference)),
      );
    if (made) return answerOf(order);
    if (order.status === 'pending') throw new Fault('StorefrontOrderNotPaid');
    const left = refundableLicences(answerOf(order));
    if (left === 0) throw new Fault('StorefrontOrderRefunded');
    const quantity = request.quantity ?? left;
    if (quantity > left) throw new Fault('StorefrontRefundInvalid', { RefundableQuantity: String(left) });
    if (!store) throw new Fault('StorefrontRefundsUnavailable');
    const before = await stateOf(db, order);
    // The store refunds first (it cannot join our transaction); the same key makes one refund.
    const refund = await store.refundLicences({
      orderId: order.orderId,
      quantity,
      idempotencyKey: `refund-${order.orderId}-${reference}`,
      note: `Refunded by ${operator.email} in My SoundID (reference ${reference}).`,
    });
    return db.transaction(async (tx) => {
      await orders.applyStoreRefund(tx, refund);
      const [now] = await tx.select().from(storefrontOrders).where(eq(storefrontOrders.orderId, order.orderId));
      const current = now ?? order;
      // The same reference at once: the store made one refund; the first to get here audits it.
      const [written] = await tx
        .insert(storefrontOperatorRefunds)
        .values({
          orderId: order.orderId,
          reference,
          refundId: refund.id,
          quantity,
          operatorId: operator.id,
          createdAt: this.deps.clock.now(),
        })
        .onConflictDoNothing()
        .returning({ refundId: storefrontOperatorRefunds.refundId });
      if (written) {
        await record(tx, {
          order: current,
          refundId: refund.id,
          reference,
          quantity,
          before,
          after: await stateOf(tx, current),
        });
      }
      return answerOf(current);
    });
  }
}

/** The order an operator named: by its number (#1001) or Shopify's order id, the id first. */
async function findOrder(db: Queryable, named: string): Promise<StorefrontOrderRow | undefined> {
  const digits = storefrontOrderDigits(named);
  if (!digits) return undefined;
  const found = await db.select().from(storefrontOrders).where(storefrontOrderNamed(digits)).limit(2);
  return found.find((o) => o.orderId === digits) ?? found[0];
}

async function stateOf(db: Queryable, order: StorefrontOrderRow): Promise<StorefrontOrderState> {
  const live = await db
    .select({ key: licenseKeys.key })
    .from(storefrontOrderKeys)
    .innerJoin(licenseKeys, eq(licenseKeys.id, storefrontOrderKeys.licenseKeyId))
    .where(and(eq(storefrontOrderKeys.orderId, order.orderId), isNull(storefrontOrderKeys.revokedAt)))
    .orderBy(asc(storefrontOrderKeys.position));
  return {
    status: order.status,
    quantity: order.quantity,
    refundedQuantity: order.refundedQuantity,
    liveKeys: live.map((k) => licenceKeyEnding(k.key)),
  };
}

function answerOf(order: StorefrontOrderRow): RefundAnswer {
  return {
    OrderId: order.orderId,
    Name: order.name,
    Quantity: order.quantity,
    RefundedQuantity: order.refundedQuantity,
    Status: order.status,
  };
}
