import type { VoiceAiProductList } from '@soundid/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { LicenceList } from '../licences/licence-list';
import { type CardCheckout, getTokenBundles } from './bundles';

/**
 * GetProducts (docs/requirements.md §3, Voice AI product list): the customer's trial offer and status line
 * from the licence list, and the token bundles on sale. When the payment provider cannot list
 * its prices (and no earlier list is cached), the page still loads, without bundles.
 */
export async function voiceAiProductList(
  userId: string,
  list: LicenceList,
  cardCheckout: CardCheckout | undefined,
  log: FastifyBaseLogger,
): Promise<VoiceAiProductList> {
  const [offer, bundles] = await Promise.all([
    list.voiceAiOffer(userId),
    getTokenBundles(cardCheckout).catch((error: unknown) => {
      log.warn({ err: error }, 'token bundles unavailable');
      return { TokenBundles: [], StripePublicKey: '' };
    }),
  ]);
  return { ...offer, ...bundles };
}
