import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AuditTrail } from '../../features/operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../../features/operators/operator-guard';
import type { SandboxCardForm } from './card-form';

/**
 * The sandbox card form's calls (outside production, without STRIPE_*): the session a client
 * secret opens, paying it with a test card, and the merchant's refund.
 */
export const sandboxCheckoutRoutes: FastifyPluginAsyncZod<{
  service: SandboxCardForm;
  guard: OperatorGuard;
  audit: AuditTrail;
}> = async (app, { service, guard, audit }) => {
  // The client secret is what pays a session (as with Stripe's embedded form): no sign-in needed.
  app.post('/api/sandbox/checkout/session', { schema: callSchemas.SandboxCheckoutSession }, async (request) => ({
    Success: true as const,
    Result: await service.sandboxSession(request.body.clientSecret),
  }));
  app.post('/api/sandbox/checkout/pay', { schema: callSchemas.SandboxCheckoutPay }, async (request) => ({
    Success: true as const,
    Result: await service.sandboxPay(request.body),
  }));
  // The merchant's refund (Stripe's dashboard or API): a finance operator, audited (ADR 0045).
  app.post(
    '/api/sandbox/checkout/refund',
    { schema: callSchemas.SandboxCheckoutRefund, onRequest: guard.for('SandboxCheckoutRefund') },
    async (request) => {
      const { invoiceTag, amountInCents, reason } = request.body;
      const refund = await service.sandboxRefund({ invoiceTag, ...(amountInCents && { amountInCents }) });
      // The refund happens at the card processor (the sandbox stands in for it); its webhook
      // revokes the tokens. The entry records the operator's request.
      await audit.record({
        actor: operatorOf(request),
        action: 'SandboxCheckoutRefund',
        outcome: 'done',
        target: { type: 'payment', id: invoiceTag },
        after: refund,
        reason,
        origin: originOf(request),
      });
      return { Success: true as const, Result: refund };
    },
  );
};
