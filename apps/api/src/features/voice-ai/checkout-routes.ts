import { callSchemas } from '@soundid/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { CardCheckout } from './bundles';
import type { CheckoutService } from './checkout';

/** Stripe's events are a few KiB; this leaves room without taking any size. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Card checkout of token bundles: prepare, status and the Stripe webhook (the sandbox card
 * form's calls are a development stand-in: dev/stripe-sandbox).
 */
export const checkoutRoutes: FastifyPluginAsyncZod<{
  checkout: CheckoutService;
  cardCheckout: CardCheckout | undefined;
}> = async (app, { checkout: service, cardCheckout: checkout }) => {
  app.post(
    '/api/voiceai/PrepareTokenPurchaseCheckout',
    { schema: callSchemas.PrepareTokenPurchaseCheckout },
    async (request) => {
      const auth = await app.requireSession(request);
      const { priceId, metadata, returnUrl } = request.body;
      return {
        Success: true as const,
        Result: await service.prepare(auth.user, {
          priceId,
          ...(metadata && { metadata }),
          ...(returnUrl && { returnUrl }),
        }),
      };
    },
  );

  app.post('/api/voiceai/GetPaymentStatus', { schema: callSchemas.GetPaymentStatus }, async (request) => {
    const auth = await app.requireSession(request);
    return { Success: true as const, Result: await service.paymentStatus(auth.userId, request.body.invoiceTag) };
  });

  if (!checkout) return;
  await app.register(stripeWebhookRoute(service));
};

/**
 * POST /api/webhooks/stripe in its own plugin context, whose JSON parser keeps the raw bytes:
 * the signature is over the body exactly as sent. Other routes keep the global parser.
 */
function stripeWebhookRoute(service: CheckoutService) {
  return async (app: FastifyInstance) => {
    app.removeContentTypeParser('application/json');
    app.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    app.post(
      '/api/webhooks/stripe',
      { bodyLimit: WEBHOOK_BODY_LIMIT, schema: callSchemas.StripeWebhook },
      async (request) => {
        const rawBody = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
        const signature = request.headers['stripe-signature'];
        const result = await service.handleWebhook(rawBody, typeof signature === 'string' ? signature : undefined);
        return { Success: true as const, Result: result };
      },
    );
  };
}
