import { actionTokenSchema, callBody } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { clientMeta } from '../accounts/routes';

export const appCalls = {
  ExchangeLoginToken: callBody({ token: actionTokenSchema }),
};

/** The desktop-app API (`/api/apps/*`): apps sign in with the one-time token of the login deeplink. */
export const appRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post('/api/apps/ExchangeLoginToken', { schema: { body: appCalls.ExchangeLoginToken } }, async (request) => {
    const result = await app.deps.accounts.exchangeAppLoginToken(request.body.token, clientMeta(request));
    return { Success: true, Token: result.session.token, Result: { User: result.user } };
  });
};
