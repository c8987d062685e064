import { callSchemas, operatorQueries } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { Fault } from '../../lib/fault';
import { findUserByEmail, findUserById } from '../accounts/users-repo';
import type { AuditTrail } from '../operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../operators/operator-guard';
import type { StorefrontRefunds } from './operator-refunds';
import { storefrontOrderSummaries } from './order-summaries';

/**
 * Support's view of a customer's storefront orders (`npm run admin -- orders --email …`): the
 * orders bought with that address or granted to that account, with their keys in full and
 * where each is registered now. Finance refunds one through the store (`refund-order`, ADR 0059).
 */
export const storefrontAdminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  guard: OperatorGuard;
  audit: AuditTrail;
  /** Undefined without a storefront (production without SHOPIFY_*). */
  refunds: StorefrontRefunds | undefined;
}> = async (app, { db, guard, audit, refunds }) => {
  app.get(
    '/api/admin/storefront-orders',
    {
      schema: { querystring: operatorQueries.AdminStorefrontOrders, ...callSchemas.AdminStorefrontOrders },
      onRequest: guard.for('AdminStorefrontOrders'),
    },
    async (request) => {
      const email = request.query.email.toLowerCase();
      const user = await findUserByEmail(db, email);
      return { Success: true as const, Result: await storefrontOrderSummaries(db, { email, userId: user?.id }) };
    },
  );

  app.post(
    '/api/admin/refund-storefront-order',
    { schema: callSchemas.AdminRefundStorefrontOrder, onRequest: guard.for('AdminRefundStorefrontOrder') },
    async (request) => {
      if (!refunds) throw new Fault('StorefrontRefundsUnavailable');
      const { order, quantity, reference, reason } = request.body;
      const actor = operatorOf(request);
      // The store refunds first (it cannot join our transaction); its refund is applied, and
      // the licences taken back, in the transaction of the audit entry (ADR 0045, 0059).
      const result = await refunds.refundOrder({ order, quantity, reference }, actor, async (tx, refund) => {
        const owner = refund.order.userId ? await findUserById(tx, refund.order.userId) : undefined;
        const buyer = owner ?? (refund.order.email ? await findUserByEmail(tx, refund.order.email) : undefined);
        await audit.append(tx, {
          actor,
          action: 'AdminRefundStorefrontOrder',
          outcome: 'done',
          target: { type: 'storefront-order', id: refund.order.orderId },
          ...(buyer ? { customer: { id: buyer.id, email: buyer.email } } : {}),
          before: refund.before,
          after: {
            ...refund.after,
            refundId: refund.refundId,
            reference: refund.reference,
            refundedNow: refund.quantity,
            order: refund.order.name,
          },
          reason,
          origin: originOf(request),
        });
      });
      return { Success: true as const, Result: result };
    },
  );
};
