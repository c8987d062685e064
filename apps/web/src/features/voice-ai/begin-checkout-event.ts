import { TOKEN_BUNDLE_ITEM_CATEGORY, type TokenBundle } from '@soundid/contracts';
import type { DataLayerEvent } from '../../lib/analytics';
import { bundleView } from './token-bundle';

/**
 * The data layer's begin_checkout event of a token bundle (docs/requirements.md §7): the price is
 * PriceAmountInCents / 100 with two decimals, the item category One-off.
 */
export function beginCheckoutEvent(bundle: TokenBundle): DataLayerEvent {
  const price = Number((bundle.PriceAmountInCents / 100).toFixed(2));
  return {
    event: 'begin_checkout',
    ecommerce: {
      currency: bundle.Currency,
      value: price,
      items: [
        {
          item_id: bundle.PriceId,
          item_name: bundleView(bundle).title,
          item_category: TOKEN_BUNDLE_ITEM_CATEGORY,
          price,
          quantity: 1,
        },
      ],
    },
  };
}
