import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { SecondFactorService } from './second-factor';
import type { StepUpService } from './step-up';

const path = (call: string) => `/api/accounts/${call}`;

/**
 * The profile's second-factor calls (ADR 0037), for the signed-in customer. Every change to
 * them needs a recent proof of presence (step-up, ADR 0040) besides its own code.
 */
export const secondFactorRoutes: FastifyPluginAsyncZod<{
  secondFactor: SecondFactorService;
  stepUp: StepUpService;
}> = async (app, { secondFactor, stepUp }) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.post(path('GetSecondFactors'), { schema: callSchemas.GetSecondFactors }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await secondFactor.status(auth.userId));
  });

  app.post(path('BeginTotpSetup'), { schema: callSchemas.BeginTotpSetup }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    return ok(await secondFactor.beginSetup(auth.userId, auth.user.email));
  });

  app.post(path('ConfirmTotpSetup'), { schema: callSchemas.ConfirmTotpSetup }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await secondFactor.confirmSetup(auth.userId, request.body.code));
  });

  app.post(path('DisableTotp'), { schema: callSchemas.DisableTotp }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    await secondFactor.disable(auth.userId, auth.user.email, request.body.code);
    return ok({});
  });

  app.post(path('RegenerateRecoveryCodes'), { schema: callSchemas.RegenerateRecoveryCodes }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    return ok(await secondFactor.regenerateRecoveryCodes(auth.userId, request.body.code));
  });
};
