import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { TokenNotices } from './notices';

const path = (call: string) => `/api/accounts/${call}`;

/** The signed-in customer's choice of voice AI token mails (ADR 0057), on the profile. */
export const tokenNoticeRoutes: FastifyPluginAsyncZod<{ tokenNotices: TokenNotices }> = async (
  app,
  { tokenNotices },
) => {
  const ok = <T>(Result: T) => ({ Success: true as const, Result });

  app.post(path('GetNotificationPreferences'), { schema: callSchemas.GetNotificationPreferences }, async (request) => {
    const auth = await app.requireSession(request);
    return ok(await tokenNotices.preferences(auth.userId));
  });

  // A threshold that is no whole number of tokens above zero is refused by the body's schema
  // (RequestInvalid, the field named): nothing is saved.
  app.post(path('SetNotificationPreferences'), { schema: callSchemas.SetNotificationPreferences }, async (request) => {
    const auth = await app.requireSession(request);
    const { expiryNotices, lowBalanceNotices, lowBalanceThreshold } = request.body;
    return ok(
      await tokenNotices.setPreferences(auth.userId, { expiryNotices, lowBalanceNotices, lowBalanceThreshold }),
    );
  });
};
