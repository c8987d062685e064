import { callSchemas, operatorQueries } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { findUserByEmail } from '../accounts/users-repo';
import type { OperatorGuard } from '../operators/operator-guard';
import { storefrontOrderSummaries } from './order-summaries';

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
      return { Success: true as const, Result: await storefrontOrderSummaries(db, { email, userId: user?.id }) };
    },
  );
};
