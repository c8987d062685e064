import { callSchemas } from '@soundid/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SANDBOX_VOICE_AI_PRODUCT_IDS } from '../../integrations/shopify/sandbox/catalogue';
import { SandboxStorefront } from '../../integrations/shopify/sandbox/storefront';
import { deliveryFromRequest } from '../../integrations/shopify/webhook-delivery';
import { deriveSandboxShopifyWebhookSecret } from '../../integrations/shopify/webhook-signature';
import { LicenceService } from '../licences/service';
import { storefrontAdminRoutes } from './admin-routes';
import { StorefrontOrderService } from './order-fulfilment';
import { sandboxStorefrontRoutes } from './sandbox-routes';

/** Order payloads are a few KiB; a large order stays well under this. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * The perpetual licence through the storefront (ADR 0010): POST /api/webhooks/shopify, the
 * operator's order view and, outside production without SHOPIFY_*, the sandbox storefront,
 * whose orders reach the same webhook handler.
 */
export const storefrontRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, random, config, mailer } = app.deps;
  await app.register(storefrontAdminRoutes);

  const isSandbox = !config.shopify && !config.isProduction;
  if (!config.shopify && !isSandbox) return;
  const webhookSecret = config.shopify?.webhookSecret ?? deriveSandboxShopifyWebhookSecret(config.sessionSecret);
  const orders = new StorefrontOrderService({
    db,
    clock,
    licences: new LicenceService({ db, clock, random, appScheme: config.appLoginScheme }),
    mailer,
    log: app.log,
    publicUrl: config.publicUrl,
    webhookSecret,
    source: config.shopify ? 'shopify' : 'sandbox',
    voiceAiProductIds: config.shopify?.voiceAiProductIds ?? SANDBOX_VOICE_AI_PRODUCT_IDS,
  });
  await app.register(shopifyWebhookRoute(orders));

  if (!isSandbox) return;
  const store = new SandboxStorefront({
    db,
    clock,
    random,
    publicUrl: config.publicUrl,
    webhookSecret,
    deliver: (delivery) => orders.handleWebhook(delivery),
  });
  await app.register(sandboxStorefrontRoutes(store, config.publicUrl));
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
