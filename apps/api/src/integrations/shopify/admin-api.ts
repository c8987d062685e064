import { SHOPIFY_ADMIN_API_VERSION } from '@soundid/contracts';
import { Fault } from '../../lib/fault';
import { numericIdOfGid, type ShopifyRefund } from './order-webhook';

/**
 * Refunds of storefront orders asked by finance (AdminRefundStorefrontOrder, ADR 0059), behind
 * one interface: Shopify's Admin GraphQL API (this module), or the sandbox store
 * (dev/shopify-sandbox/admin.ts). Either answers the refund it made in the shape of the
 * refunds/create webhook that tells the service about it, so the licences are taken back by the
 * webhook's own code (ADR 0032), whichever arrives first.
 */

/** A refund of an order's perpetual licences, asked of the store. */
export interface StoreRefundRequest {
  /** Shopify's numeric order id. */
  orderId: string;
  /** Licence units to refund, from the order's lines of the voice AI products. */
  quantity: number;
  /** The same key makes the same refund once (refundCreate's @idempotent key). */
  idempotencyKey: string;
  /** Kept with the refund in the store: who asked, under which reference. */
  note: string;
}

export interface ShopifyAdmin {
  /**
   * Refunds `quantity` licence units of the order, money included (the store's own suggestion
   * for those lines: price and tax, to the payment they were paid with), and answers the refund
   * as refunds/create carries it. Faults: StorefrontOrderNotFound (the store has no such order),
   * StorefrontRefundInvalid (fewer units left, or the store refused), StorefrontUnavailable.
   */
  refundLicences(request: StoreRefundRequest): Promise<ShopifyRefund>;
}

/** The Admin API's header for an app's access token (Shopify's name). */
export const SHOPIFY_ADMIN_TOKEN_HEADER = 'X-Shopify-Access-Token';

/** The order's lines with what is left to refund of each. */
export const REFUNDABLE_LINES_QUERY = `#graphql
  query RefundableLines($id: ID!) {
    order(id: $id) {
      id
      lineItems(first: 100) {
        nodes { id refundableQuantity product { id } }
      }
    }
  }
`;

/** What the store would refund for these lines: the transactions to refund them to. */
export const SUGGESTED_REFUND_QUERY = `#graphql
  query SuggestedRefund($id: ID!, $lines: [RefundLineItemInput!]) {
    order(id: $id) {
      suggestedRefund(refundLineItems: $lines) {
        suggestedTransactions {
          gateway
          parentTransaction { id }
          amountSet { shopMoney { amount currencyCode } }
        }
      }
    }
  }
`;

/** The refund, made once per key however often it is sent. */
export const REFUND_CREATE_MUTATION = `#graphql
  mutation RefundLicences($input: RefundInput!, $key: String!) {
    refundCreate(input: $input) @idempotent(key: $key) {
      refund {
        id
        refundLineItems(first: 100) {
          nodes { quantity lineItem { id product { id } } }
        }
      }
      userErrors { field message }
    }
  }
`;

/** A refund line of the Admin API's input: a line item and its units, never restocked (a licence). */
interface RefundLineInput {
  lineItemId: string;
  quantity: number;
  restockType: 'NO_RESTOCK';
}

interface RefundableLines {
  order: {
    id: string;
    lineItems: { nodes: { id: string; refundableQuantity: number; product: { id: string } | null }[] };
  } | null;
}
interface SuggestedRefund {
  order: {
    suggestedRefund: {
      suggestedTransactions: {
        gateway: string;
        parentTransaction: { id: string } | null;
        amountSet: { shopMoney: { amount: string; currencyCode: string } };
      }[];
    };
  } | null;
}
interface RefundCreated {
  refundCreate: {
    refund: {
      id: string;
      refundLineItems: { nodes: { quantity: number; lineItem: { id: string; product: { id: string } | null } }[] };
    } | null;
    userErrors: { field: string[] | null; message: string }[];
  };
}

export interface ShopifyAdminClientOptions {
  storeDomain: string;
  /** SHOPIFY_ADMIN_TOKEN: a custom app's Admin API access token with write_orders. */
  accessToken: string;
  /** Product GIDs of the voice AI perpetual licence. */
  voiceAiProductIds: string[];
  /** Another base than https://<storeDomain> (a test stand-in). */
  baseUrl?: string;
  fetch?: typeof fetch;
  /** Each request's limit; the refund is idempotent, so a retry after a timeout refunds once. */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 15_000;

/** Shopify's Admin GraphQL API: the order's refundable licence lines, the suggested refund, refundCreate. */
export class ShopifyAdminClient implements ShopifyAdmin {
  private readonly endpoint: string;
  private readonly productIds: ReadonlySet<string>;
  private readonly fetch: typeof fetch;

  constructor(private readonly options: ShopifyAdminClientOptions) {
    const base = options.baseUrl ?? `https://${options.storeDomain}`;
    this.endpoint = `${base.replace(/\/$/, '')}/admin/api/${SHOPIFY_ADMIN_API_VERSION}/graphql.json`;
    this.productIds = new Set(options.voiceAiProductIds);
    this.fetch = options.fetch ?? fetch;
  }

  async refundLicences(request: StoreRefundRequest): Promise<ShopifyRefund> {
    const orderGid = `gid://shopify/Order/${request.orderId}`;
    const { order } = await this.graphql<RefundableLines>(REFUNDABLE_LINES_QUERY, { id: orderGid });
    if (!order) throw new Fault('StorefrontOrderNotFound');
    const lines = this.licenceLines(order.lineItems.nodes, request.quantity);
    const suggested = await this.graphql<SuggestedRefund>(SUGGESTED_REFUND_QUERY, {
      id: orderGid,
      lines: lines.map(({ lineItemId, quantity }) => ({ lineItemId, quantity })),
    });
    const transactions = (suggested.order?.suggestedRefund.suggestedTransactions ?? [])
      .filter((t) => Number(t.amountSet.shopMoney.amount) > 0)
      .map((t) => ({
        orderId: orderGid,
        gateway: t.gateway,
        kind: 'REFUND',
        amount: t.amountSet.shopMoney.amount,
        ...(t.parentTransaction ? { parentId: t.parentTransaction.id } : {}),
      }));
    const created = await this.graphql<RefundCreated>(REFUND_CREATE_MUTATION, {
      input: { orderId: orderGid, note: request.note, notify: true, refundLineItems: lines, transactions },
      key: request.idempotencyKey,
    });
    const { refund, userErrors } = created.refundCreate;
    if (userErrors.length > 0 || !refund) {
      const said = userErrors.map((e) => e.message).join(' ');
      throw new Fault('StorefrontRefundInvalid', {}, `The store refused the refund: ${said} Nothing was refunded.`);
    }
    const refundId = numericIdOfGid(refund.id, 'Refund');
    if (!refundId) throw unavailable(new Error(`refundCreate answered the refund id ${refund.id}`));
    return {
      id: refundId,
      order_id: request.orderId,
      refund_line_items: refund.refundLineItems.nodes.map((item) => ({
        quantity: item.quantity,
        line_item: {
          product_id: item.lineItem.product ? (numericIdOfGid(item.lineItem.product.id, 'Product') ?? null) : null,
        },
      })),
    };
  }

  /** The licence lines to refund, first lines first, or StorefrontRefundInvalid when fewer units are left. */
  private licenceLines(nodes: NonNullable<RefundableLines['order']>['lineItems']['nodes'], quantity: number) {
    const lines: RefundLineInput[] = [];
    let wanted = quantity;
    let refundable = 0;
    for (const line of nodes) {
      if (!line.product || !this.productIds.has(line.product.id) || line.refundableQuantity <= 0) continue;
      refundable += line.refundableQuantity;
      const take = Math.min(wanted, line.refundableQuantity);
      if (take > 0) lines.push({ lineItemId: line.id, quantity: take, restockType: 'NO_RESTOCK' });
      wanted -= take;
    }
    if (wanted > 0) throw new Fault('StorefrontRefundInvalid', { RefundableQuantity: String(refundable) });
    return lines;
  }

  /** One GraphQL request; anything but data (a transport failure, a status, `errors`) is StorefrontUnavailable. */
  private async graphql<T>(query: string, variables: Record<string, unknown>): Promise<T> {
    let response: Response;
    try {
      response = await this.fetch(this.endpoint, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/json',
          Accept: 'application/json',
          [SHOPIFY_ADMIN_TOKEN_HEADER]: this.options.accessToken,
        },
        body: JSON.stringify({ query, variables }),
        signal: AbortSignal.timeout(this.options.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      });
    } catch (error) {
      throw unavailable(error);
    }
    const text = await response.text().catch(() => '');
    if (!response.ok)
      throw unavailable(new Error(`Shopify Admin API answered ${response.status}: ${text.slice(0, 300)}`));
    let body: { data?: T; errors?: { message: string }[] };
    try {
      body = JSON.parse(text);
    } catch (error) {
      throw unavailable(error);
    }
    if (body.errors?.length || !body.data) {
      throw unavailable(new Error(`Shopify Admin API errors: ${JSON.stringify(body.errors ?? body).slice(0, 500)}`));
    }
    return body.data;
  }
}

function unavailable(cause: unknown): Fault {
  return Object.assign(new Fault('StorefrontUnavailable'), { cause });
}
