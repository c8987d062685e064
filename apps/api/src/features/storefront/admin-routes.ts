import { callSchemas, operatorQueries, type StorefrontOrderSummary } from '@soundid/contracts';
import { asc, eq, inArray, or } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { licenseKeys } from '../../db/licences-schema';
import { users } from '../../db/schema';
import { storefrontOrderKeys, storefrontOrders } from '../../db/storefront-schema';
import { findUserByEmail } from '../accounts/users-repo';
import { formatLicenseKey } from '../licences/codes';
import type { OperatorGuard } from '../operators/operator-guard';

/**
 * Support's view of a customer's storefront orders (`npm run admin -- orders --email …`): the
 * orders bought with that address or granted to that account, with their keys in full and
 * where each is registered now.
 */
export const storefrontAdminRoutes: FastifyPluginAsyncZod<{ db: Database; guard: OperatorGuard }> = async (
  app,
  { db, guard },
) => {
  app.get(
    '/api/admin/storefront-orders',
    {
      schema: { querystring: operatorQueries.AdminStorefrontOrders, ...callSchemas.AdminStorefrontOrders },
      onRequest: guard.for('AdminStorefrontOrders'),
    },
    async (request) => {
      const email = request.query.email.toLowerCase();
      const user = await findUserByEmail(db, email);
      const orders = await db
        .select({ order: storefrontOrders, account: users.email })
        .from(storefrontOrders)
        .leftJoin(users, eq(users.id, storefrontOrders.userId))
        .where(
          user
            ? or(eq(storefrontOrders.email, email), eq(storefrontOrders.userId, user.id))
            : eq(storefrontOrders.email, email),
        )
        .orderBy(asc(storefrontOrders.receivedAt), asc(storefrontOrders.orderId));
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
      const result: StorefrontOrderSummary[] = orders.map(({ order, account }) => ({
        OrderId: order.orderId,
        Name: order.name,
        Email: order.email,
        Status: order.status,
        Quantity: order.quantity,
        RefundedQuantity: order.refundedQuantity,
        Account: account,
        IsTest: order.isTest,
        CreatedAt: (order.orderedAt ?? order.receivedAt).toISOString(),
        Keys: keys
          .filter((k) => k.orderId === order.orderId)
          .map((k) => ({ Key: formatLicenseKey(k.key), RegisteredTo: k.owner, Revoked: k.revokedAt !== null })),
      }));
      return { Success: true as const, Result: result };
    },
  );
};
