import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Fault } from '../../lib/fault';
import { clientMeta } from '../accounts/routes';
import type { AccountService } from '../accounts/service';

/** The desktop-app API (`/api/apps/*`): apps sign in with the one-time token of the login deeplink. */
export const appRoutes: FastifyPluginAsyncZod<{ accounts: AccountService }> = async (app, { accounts }) => {
  app.post('/api/apps/ExchangeLoginToken', { schema: callSchemas.ExchangeLoginToken }, async (request, reply) => {
    const result = await accounts.exchangeAppLoginToken(request.body.token, clientMeta(request));
    // An app new to the account is mailed about once the answer is out (ADR 0041).
    reply.raw.once('close', () => accounts.announceNewDevice(result));
    return { Success: true as const, Token: result.session.token, Result: { User: result.user } };
  });

  /**
   * A portal link that opens the browser signed in as the app's customer (ADR 0029). Apps
   * only: signed in by AuthToken. A browser's cookie does not count here, or a script injected
   * into a page could turn the HttpOnly session into a link to send away (ASVS 3.3.4).
   */
  app.post('/api/apps/CreateWebLoginCode', { schema: callSchemas.CreateWebLoginCode }, async (request) => {
    const auth = await app.requireSession(request);
    if (auth.via !== 'header') throw new Fault('WebLoginCodeNeedsAppSession');
    return { Success: true as const, Result: await accounts.createWebLoginCode(auth.userId, request.body.path) };
  });
};
