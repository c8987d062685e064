import { callSchemas } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { LicenceList } from '../licences/licence-list';
import type { TokenLedger } from '../tokens/ledger';
import type { CardCheckout } from './bundles';
import { voiceAiProductList } from './products';

/** The buy page's product list, token history for the portal and token spending for the apps. */
export const voiceAiRoutes: FastifyPluginAsyncZod<{
  ledger: TokenLedger;
  licenceList: LicenceList;
  cardCheckout: CardCheckout | undefined;
}> = async (app, { ledger, licenceList, cardCheckout }) => {
  app.post('/api/voiceai/GetProducts', { schema: callSchemas.GetProducts }, async (request) => {
    const auth = await app.requireSession(request);
    return {
      Success: true as const,
      Result: await voiceAiProductList(auth.userId, licenceList, cardCheckout, app.log),
    };
  });

  app.post('/api/voiceai/GetPurchaseHistory', { schema: callSchemas.GetPurchaseHistory }, async (request) => {
    const auth = await app.requireSession(request);
    return { Success: true as const, Result: await ledger.purchaseHistory(auth.userId, request.body.page) };
  });

  app.post('/api/voiceai/GetActionHistory', { schema: callSchemas.GetActionHistory }, async (request) => {
    const auth = await app.requireSession(request);
    return { Success: true as const, Result: await ledger.usageHistory(auth.userId, request.body.page) };
  });

  /** Apps bill processing time; the same requestId again spends nothing more. */
  app.post('/api/apps/ConsumeTokens', { schema: callSchemas.ConsumeTokens }, async (request) => {
    const auth = await app.requireSession(request);
    const { seconds, requestId } = request.body;
    return { Success: true as const, Result: await ledger.spend(auth.userId, seconds, requestId) };
  });
};
