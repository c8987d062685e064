import { callSchemas } from '@soundid/contracts';
import type { FastifyInstance } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireOperator } from '../admin/operator-auth';
import { cardCheckoutFor } from './bundles';
import { CheckoutService } from './checkout';
import { TokenLedger } from './ledger';

/** Stripe's events are a few KiB; this leaves room without taking any size. */
const WEBHOOK_BODY_LIMIT = 1024 * 1024;

/**
 * Card checkout of token bundles: prepare, status, the Stripe webhook and (outside production,
 * without STRIPE_*) the sandbox card form's two calls.
 */
export const checkoutRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, clock, random, config } = app.deps;
  const checkout = cardCheckoutFor(app.deps);
  const service = new CheckoutService({
    db,
    clock,
    random,
    config,
    ledger: new TokenLedger(db, clock),
    checkout,
    log: app.log,
  });

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

  if (checkout.provider.kind !== 'sandbox' || config.isProduction) return;
  // The client secret is what pays a session (as with Stripe's embedded form): no sign-in needed.
  app.post('/api/sandbox/checkout/session', { schema: callSchemas.SandboxCheckoutSession }, async (request) => ({
    Success: true as const,
    Result: await service.sandboxSession(request.body.clientSecret),
  }));
  app.post('/api/sandbox/checkout/pay', { schema: callSchemas.SandboxCheckoutPay }, async (request) => ({
    Success: true as const,
    Result: await service.sandboxPay(request.body),
  }));
  // The merchant's refund (Stripe's dashboard or API): operator token, as the other /api/admin routes.
  app.post(
    '/api/sandbox/checkout/refund',
    { schema: callSchemas.SandboxCheckoutRefund, onRequest: requireOperator(app) },
    async (request) => ({
      Success: true as const,
      Result: await service.sandboxRefund({
        invoiceTag: request.body.invoiceTag,
        ...(request.body.amountInCents && { amountInCents: request.body.amountInCents }),
      }),
    }),
  );
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
