import type { BundlePrice } from '../../integrations/stripe';

/** The sandbox's bundles (Stripe's come from its Prices tagged `metadata.soundid_tokens`). */
export const SANDBOX_BUNDLES: readonly BundlePrice[] = [
  {
    priceId: 'price_sandbox_tokens_1000',
    tokens: 1000,
    title: 'Starter',
    contents: '1,000 tokens',
    description: 'About 100 seconds of processing. Use within 12 months.',
    uiFlags: [],
    amountInCents: 999,
    currency: 'USD',
  },
  {
    priceId: 'price_sandbox_tokens_5000',
    tokens: 5000,
    title: 'Producer',
    contents: '5,000 tokens',
    description: 'About 8 minutes of processing. Use within 12 months.',
    uiFlags: ['IsMostPopular'],
    amountInCents: 3999,
    currency: 'USD',
    newPriceText: 'Save 20%',
  },
  {
    priceId: 'price_sandbox_tokens_20000',
    tokens: 20_000,
    title: 'Studio',
    contents: '20,000 tokens',
    description: 'About 33 minutes of processing. Use within 12 months.',
    uiFlags: [],
    amountInCents: 13_999,
    currency: 'USD',
  },
];
