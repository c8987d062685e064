import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { users } from '../../db/schema';
import type { LicenceService } from './service';

/** Asks for a proof of presence (ADR 0040) before what matters: StepUpRequired until there is one. */
export interface StepUpGate {
  require(subject: { sessionId: string; user: typeof users.$inferSelect }): Promise<void>;
}

const idParams = z.object({ id: z.uuid() });
const productParams = z.object({
  product: z
    .string()
    .max(64)
    .regex(/^[A-Za-z0-9._-]+$/),
});

/**
 * The GET action URLs the licence list puts in its buttons (API contract: under /api/actions/,
 * signed in by AuthToken, or by the cookie with the Software header, so a link on another site
 * cannot trigger them). Another customer's id is a 404 fault, never their data (ASVS 8.2.2).
 */
export const actionRoutes: FastifyPluginAsyncZod<{ licences: LicenceService; stepUp: StepUpGate }> = async (
  app,
  { licences, stepUp },
) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.get(
    '/api/actions/devices/:id/deactivate',
    { schema: { params: idParams, ...callSchemas.InvokeAction } },
    async (request) => {
      const auth = await app.requireSession(request);
      // A seat freed from afar, where the machine may be someone else's now: a recent proof of
      // presence first (docs/decisions/0040-step-up.md, addendum), as for a lost report.
      await stepUp.require(auth);
      return ok(await licences.deactivateDevice(auth.userId, request.params.id));
    },
  );

  app.get(
    '/api/actions/licenses/:id/remove',
    { schema: { params: idParams, ...callSchemas.InvokeAction } },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok(await licences.removeKey(auth.userId, request.params.id, ['licence']));
    },
  );

  app.get(
    '/api/actions/voice-ai/perpetual/:id/remove',
    { schema: { params: idParams, ...callSchemas.InvokeAction } },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok(await licences.removeKey(auth.userId, request.params.id, ['voice-perpetual']));
    },
  );

  app.get(
    '/api/actions/voice-ai/asset-packs/:id/remove',
    { schema: { params: idParams, ...callSchemas.InvokeAction } },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok(await licences.removeKey(auth.userId, request.params.id, ['voice-asset-pack']));
    },
  );

  /** Server action '<code>-starttrial'. */
  app.get(
    '/api/actions/trials/:product/starttrial',
    { schema: { params: productParams, ...callSchemas.InvokeAction } },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok(await licences.startTrial(auth.userId, request.params.product));
    },
  );

  /** Server action '<code>-activate'. */
  app.get(
    '/api/actions/products/:product/activate',
    { schema: { params: productParams, ...callSchemas.InvokeAction } },
    async (request) => {
      const auth = await app.requireSession(request);
      return ok(await licences.confirmActivation(auth.userId, request.params.product));
    },
  );
};
