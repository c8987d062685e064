import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { StepUpService } from './step-up';

const path = (call: string) => `/api/accounts/${call}`;

/** The calls that prove presence for the signed-in session (ADR 0040). */
export const stepUpRoutes: FastifyPluginAsyncZod<{ stepUp: StepUpService }> = async (app, { stepUp }) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.post(path('GetStepUpMethods'), { schema: callSchemas.GetStepUpMethods }, async (request) => {
    const auth = await app.requireSession(request);
    const [Methods, until] = await Promise.all([stepUp.methods(auth.user), stepUp.provenUntil(auth.sessionId)]);
    return ok({ Methods, ProvenUntil: until?.toISOString() ?? null });
  });

  app.post(path('BeginStepUpPasskey'), { schema: callSchemas.BeginStepUpPasskey }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await stepUp.beginPasskey(auth));
  });

  app.post(path('SendStepUpCode'), { schema: callSchemas.SendStepUpCode }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.sendCode(auth);
    return ok({});
  });

  app.post(path('StepUp'), { schema: callSchemas.StepUp }, async (request) => {
    const auth = await app.requireSession(request);
    const until = await stepUp.prove(auth, request.body);
    return ok({ ProvenUntil: until.toISOString() });
  });
};
