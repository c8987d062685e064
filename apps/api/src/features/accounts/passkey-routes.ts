import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { PasskeyService } from './passkeys';
import type { StepUpService } from './step-up';

const path = (call: string) => `/api/accounts/${call}`;

/**
 * The profile's passkey calls and the start of a passkey sign-in (ADR 0039). FinishPasskeyLogin
 * answers as a sign-in does and lives with the other sign-ins in routes.ts. Adding or removing a
 * passkey changes how the account is entered: it needs a recent proof of presence (ADR 0040).
 */
export const passkeyRoutes: FastifyPluginAsyncZod<{ passkeys: PasskeyService; stepUp: StepUpService }> = async (
  app,
  { passkeys, stepUp },
) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.post(path('ListPasskeys'), { schema: callSchemas.ListPasskeys }, async (request) => {
    const auth = await app.requireSession(request);
    return ok({ Passkeys: await passkeys.list(auth.userId) });
  });

  app.post(path('BeginPasskeyRegistration'), { schema: callSchemas.BeginPasskeyRegistration }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    return ok({ Options: await passkeys.beginRegistration(auth.userId, auth.user.email) });
  });

  app.post(path('FinishPasskeyRegistration'), { schema: callSchemas.FinishPasskeyRegistration }, async (request) => {
    const auth = await app.requireSession(request);
    const { response, name } = request.body;
    const passkey = await passkeys.finishRegistration(auth.userId, response, name, request.headers['user-agent']);
    return ok({ Passkey: passkey });
  });

  app.post(path('RenamePasskey'), { schema: callSchemas.RenamePasskey }, async (request) => {
    const auth = await app.requireSession(request);
    return ok({ Passkey: await passkeys.rename(auth.userId, request.body.id, request.body.name) });
  });

  app.post(path('RemovePasskey'), { schema: callSchemas.RemovePasskey }, async (request) => {
    const auth = await app.requireSession(request);
    await stepUp.require(auth);
    await passkeys.remove(auth.userId, request.body.id);
    return ok({});
  });

  /** Anonymous: the options for the browser's passkey prompt and the id of their challenge. */
  app.post(path('BeginPasskeyLogin'), { schema: callSchemas.BeginPasskeyLogin }, async (request) =>
    ok(await passkeys.beginLogin(request.body.signInChallenge)),
  );
};
