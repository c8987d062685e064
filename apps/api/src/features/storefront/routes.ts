import { callSchemas } from '@soundid/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database } from '../../db/client';
import { deliveryFromRequest } from '../../integrations/shopify/webhook-delivery';
import type { AuditTrail } from '../operators/audit-trail';
import type { OperatorGuard } from '../operators/operator-guard';
import { storefrontAdminRoutes } from './admin-routes';
import type { StorefrontRefunds } from './operator-refunds';
import type { StorefrontOrderService } from './order-fulfilment';

/** Order payloads are a few KiB; a large order stays well under this. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The perpetual licence through the storefront (ADR 0010): POST /api/webhooks/shopify, the
 * operator's order view and finance's refunds (ADR 0059). `orders` is undefined in production without SHOPIFY_*; outside
 * production without SHOPIFY_* the sandbox storefront (dev/shopify-sandbox) stands in for
 * Shopify, and its orders reach the same webhook handler.
 */
export const storefrontRoutes: FastifyPluginAsyncZod<{
  db: Database;
  orders: StorefrontOrderService | undefined;
  refunds: StorefrontRefunds | undefined;
  guard: OperatorGuard;
  audit: AuditTrail;
}> = async (app, { db, orders, refunds, guard, audit }) => {
  await app.register(storefrontAdminRoutes, { db, guard, audit, refunds });
  if (!orders) return;
  await app.register(shopifyWebhookRoute(orders));
};

/**
 * POST /api/webhooks/shopify in its own plugin context, whose JSON parser keeps the raw
 * bytes: the HMAC is over the body exactly as sent. Other routes keep the global parser.
 */
function shopifyWebhookRoute(orders: StorefrontOrderService) {
  return async (app: FastifyInstance) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.post(
      '/api/webhooks/shopify',
      { bodyLimit: WEBHOOK_BODY_LIMIT, schema: callSchemas.ShopifyWebhook },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const result = await orders.handleWebhook(deliveryFromRequest(rawBody, request.headers));
        return { Success: true as const, Result: result };
      },
    );
  };
}
