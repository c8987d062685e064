import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { AccountService } from '../accounts/service';
import type { SessionCookie } from '../accounts/session-cookie';
import type { AccountActivity } from './activity';

const path = (call: string) => `/api/accounts/${call}`;

/** My activity and its "This wasn't me" (docs/decisions/0055-my-activity.md), for the signed-in customer. */
export const activityRoutes: FastifyPluginAsyncZod<{
  activity: AccountActivity;
  accounts: AccountService;
  sessionCookie: SessionCookie;
}> = async (app, { activity, accounts, sessionCookie }) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.post(path('GetMyActivity'), { schema: callSchemas.GetMyActivity }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await activity.page(auth.userId, request.body.page));
  });

  /** Every session ends, this one too: the cookie goes with it (the customer is signed out). */
  app.post(path('ReportNotMe'), { schema: callSchemas.ReportNotMe }, async (request, reply) => {
    const auth = await app.requireSession(request);
    const { frozenUntil } = await accounts.reportNotMe(auth.userId, Number(request.body.eventId));
    sessionCookie.clear(reply);
    return ok({ FrozenUntil: frozenUntil.getTime() });
  });
};
