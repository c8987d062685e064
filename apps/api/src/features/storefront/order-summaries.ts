import type { StorefrontOrderSummary } from '@soundid/contracts';
import { asc, desc, eq, inArray, or, type SQL } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { licenseKeys } from '../../db/licences-schema';
import { users } from '../../db/schema';
import { storefrontOrderKeys, storefrontOrders } from '../../db/storefront-schema';
import { formatLicenseKey } from '../licences/codes';

/** The order of this number (`#1001`) or Shopify order id, as `storefrontOrderDigits` reads what an operator typed. */
export function storefrontOrderNamed(digits: string): SQL | undefined {
  return or(eq(storefrontOrders.name, `#${digits}`), eq(storefrontOrders.orderId, digits));
}

/**
 * The storefront orders bought with an address or granted to an account, with their keys in full
 * and where each is registered now: support's view (`npm run admin -- orders`, the customer page).
 * Oldest first; `newestFirst` with `limit` gives the newest ones.
 */
export async function storefrontOrderSummaries(
  db: Queryable,
  who: { email: string; userId?: string | undefined },
  options: { newestFirst?: boolean; limit?: number } = {},
): Promise<StorefrontOrderSummary[]> {
  const email = who.email.toLowerCase();
  const order = options.newestFirst
    ? [desc(storefrontOrders.receivedAt), desc(storefrontOrders.orderId)]
    : [asc(storefrontOrders.receivedAt), asc(storefrontOrders.orderId)];
  const query = db
    .select({ order: storefrontOrders, account: users.email })
    .from(storefrontOrders)
    .leftJoin(users, eq(users.id, storefrontOrders.userId))
    .where(
      who.userId
        ? or(eq(storefrontOrders.email, email), eq(storefrontOrders.userId, who.userId))
        : eq(storefrontOrders.email, email),
    )
    .orderBy(...order);
  const orders = options.limit === undefined ? await query : await query.limit(options.limit);
  const ids = orders.map((o) => o.order.orderId);
  const keys =
    ids.length === 0
      ? []
      : await db
          .select({
            orderId: storefrontOrderKeys.orderId,
            key: licenseKeys.key,
            owner: users.email,
            revokedAt: storefrontOrderKeys.revokedAt,
          })
          .from(storefrontOrderKeys)
          .innerJoin(licenseKeys, eq(licenseKeys.id, storefrontOrderKeys.licenseKeyId))
          .leftJoin(users, eq(users.id, licenseKeys.userId))
          .where(inArray(storefrontOrderKeys.orderId, ids))
          .orderBy(asc(storefrontOrderKeys.position));
  return orders.map(({ order, account }) => ({
    OrderId: order.orderId,
    Name: order.name,
    Email: order.email,
    Status: order.status,
    Quantity: order.quantity,
    RefundedQuantity: order.refundedQuantity,
    Account: account,
    IsTest: order.isTest,
    CreatedAt: (order.orderedAt ?? order.receivedAt).toISOString(),
    ReceiptUrl: order.statusUrl,
    Keys: keys
      .filter((k) => k.orderId === order.orderId)
      .map((k) => ({ Key: formatLicenseKey(k.key), RegisteredTo: k.owner, Revoked: k.revokedAt !== null })),
  }));
}
