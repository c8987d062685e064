import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { requireOperator } from '../../features/admin/operator-auth';
import type { SandboxCardForm } from './card-form';

/**
 * The sandbox card form's calls (outside production, without STRIPE_*): the session a client
 * secret opens, paying it with a test card, and the merchant's refund.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod<{ service: SandboxCardForm; adminToken: string }> = async (
  app,
  { service, adminToken },
) => {
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
    { schema: callSchemas.SandboxCheckoutRefund, onRequest: requireOperator(adminToken) },
    async (request) => ({
      Success: true as const,
      Result: await service.sandboxRefund({
        invoiceTag: request.body.invoiceTag,
        ...(request.body.amountInCents && { amountInCents: request.body.amountInCents }),
      }),
    }),
  );
};
