import { eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  type SandboxOrderRow,
  type SandboxRefundLine,
  type SandboxRefundRow,
  sandboxOrders,
  sandboxRefunds,
} from '../../db/storefront-schema';
import type { ShopifyAdmin, StoreRefundRequest } from '../../integrations/shopify/admin-api';
import {
  numericIdOfGid,
  parseShopifyRefund,
  REFUND_TOPIC,
  type ShopifyRefund,
} from '../../integrations/shopify/order-webhook';
import type { ShopifyWebhookDelivery } from '../../integrations/shopify/webhook-delivery';
import type { Clock, Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { deliveryOf, restMoney, sandboxOrderPayload, sandboxUuid, sandboxWebhookRequest } from './storefront';

export interface SandboxStoreAdminDeps {
  db: Database;
  clock: Clock;
  random: Random;
  storeDomain: string;
  /** The secret that signs the sandbox's webhooks. */
  webhookSecret: string;
  /** Product GIDs of the voice AI perpetual licence (the sandbox catalogue's). */
  voiceAiProductIds: string[];
  /** The order webhook handler: the same function POST /api/webhooks/shopify calls. */
  deliver(delivery: ShopifyWebhookDelivery): Promise<unknown>;
}

/**
 * The sandbox store's side of Shopify's Admin API refundCreate (never in production, ADR 0059):
 * a refund of a sandbox order's licence lines is recorded once per idempotency key, never more
 * units than are left, then told to the service as Shopify tells it, by a signed refunds/create
 * delivered to the webhook handler before answering. The licences are taken back there.
 */
export class SandboxStoreAdmin implements ShopifyAdmin {
  private readonly productIds: ReadonlySet<number>;

  constructor(private readonly deps: SandboxStoreAdminDeps) {
    this.productIds = new Set(
      deps.voiceAiProductIds.map((gid) => Number(numericIdOfGid(gid, 'Product'))).filter(Number.isSafeInteger),
    );
  }

  async refundLicences(request: StoreRefundRequest): Promise<ShopifyRefund> {
    const orderId = Number(request.orderId);
    if (!Number.isSafeInteger(orderId)) throw new Fault('StorefrontOrderNotFound');
    const { order, refund } = await this.deps.db.transaction(async (tx) => {
      // One refund of an order at a time, as in the store's own ledger.
      const [order] = await tx.select().from(sandboxOrders).where(eq(sandboxOrders.id, orderId)).for('update');
      if (!order) throw new Fault('StorefrontOrderNotFound');
      const [known] = await tx
        .select()
        .from(sandboxRefunds)
        .where(eq(sandboxRefunds.idempotencyKey, request.idempotencyKey));
      if (known) {
        // Shopify refuses a key used again for something else.
        if (known.orderId !== order.id) throw new Fault('StorefrontRefundInvalid');
        return { order, refund: known };
      }
      const earlier = await tx.select().from(sandboxRefunds).where(eq(sandboxRefunds.orderId, order.id));
      const lines = this.licenceLines(order, earlier, request.quantity);
      const unitPrice = (line: SandboxRefundLine) =>
        order.lines.find((l) => l.lineItemId === line.lineItemId)?.unitPriceCents ?? 0;
      const [made] = await tx
        .insert(sandboxRefunds)
        .values({
          orderId: order.id,
          idempotencyKey: request.idempotencyKey,
          lines,
          amountCents: lines.reduce((sum, line) => sum + unitPrice(line) * line.quantity, 0),
          note: request.note,
          delivery: {
            topic: REFUND_TOPIC,
            webhookId: sandboxUuid(this.deps.random),
            eventId: sandboxUuid(this.deps.random),
          },
          createdAt: this.deps.clock.now(),
        })
        .returning();
      if (!made) throw new Error('sandbox refund not stored');
      return { order, refund: made };
    });
    // Delivered before answering, as the sandbox does with its orders; a retry delivers again
    // one that did not get through, under the same webhook id.
    const delivery = this.webhookRequest(order, refund);
    if (!refund.deliveredAt) {
      await this.deps.deliver(deliveryOf(delivery));
      await this.deps.db
        .update(sandboxRefunds)
        .set({ deliveredAt: this.deps.clock.now() })
        .where(eq(sandboxRefunds.id, refund.id));
    }
    const told = parseShopifyRefund(delivery.rawBody);
    if (!told) throw new Error('sandbox refund payload unreadable');
    return told;
  }

  /** The units to refund from the order's licence lines, first lines first; never more than are left. */
  private licenceLines(order: SandboxOrderRow, earlier: SandboxRefundRow[], quantity: number): SandboxRefundLine[] {
    const refunded = (lineItemId: number) =>
      earlier.flatMap((r) => r.lines).reduce((sum, l) => sum + (l.lineItemId === lineItemId ? l.quantity : 0), 0);
    const lines: SandboxRefundLine[] = [];
    let wanted = quantity;
    let refundable = 0;
    for (const line of order.lines) {
      if (!this.productIds.has(line.productId)) continue;
      const left = line.quantity - refunded(line.lineItemId);
      refundable += Math.max(0, left);
      const take = Math.min(wanted, Math.max(0, left));
      if (take > 0) lines.push({ lineItemId: line.lineItemId, quantity: take });
      wanted -= take;
    }
    if (wanted > 0) throw new Fault('StorefrontRefundInvalid', { RefundableQuantity: String(refundable) });
    return lines;
  }

  /** The refund as Shopify's refunds/create carries it (the REST Refund resource), signed. */
  private webhookRequest(order: SandboxOrderRow, refund: SandboxRefundRow) {
    const orderPayload = sandboxOrderPayload(order, this.deps.storeDomain);
    const lineItems = orderPayload.line_items as { id: number; price: string }[];
    const at = refund.createdAt.toISOString();
    const payload = {
      id: refund.id,
      admin_graphql_api_id: `gid://shopify/Refund/${refund.id}`,
      order_id: order.id,
      created_at: at,
      processed_at: at,
      note: refund.note,
      restock: false,
      user_id: null,
      refund_line_items: refund.lines.map((line, i) => {
        const lineItem = lineItems.find((item) => item.id === order.id * 10 + line.lineItemId);
        const unit = Math.round(Number(lineItem?.price ?? '0') * 100);
        return {
          id: refund.id * 10 + i + 1,
          line_item_id: order.id * 10 + line.lineItemId,
          quantity: line.quantity,
          restock_type: 'no_restock',
          subtotal: restMoney(unit * line.quantity),
          total_tax: '0.00',
          line_item: lineItem,
        };
      }),
      transactions: [
        {
          id: refund.id,
          order_id: order.id,
          kind: 'refund',
          gateway: 'bogus',
          status: 'success',
          amount: restMoney(refund.amountCents),
          currency: order.currency,
          test: true,
        },
      ],
      order_adjustments: [],
    };
    return sandboxWebhookRequest(payload, {
      delivery: refund.delivery,
      at: refund.createdAt,
      secret: this.deps.webhookSecret,
      storeDomain: this.deps.storeDomain,
    });
  }
}
