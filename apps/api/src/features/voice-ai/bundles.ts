import {
  type CheckoutTokenBundle,
  formatPrice,
  NEW_PRICE_TEXT_KEY,
  type TokenBundle,
  TokenBundleMetadataKey,
} from '@soundid/contracts';
import type { BundlePrice, CheckoutProvider } from '../../integrations/stripe';
import type { Clock } from '../../lib/clock';

/** How long a list of Stripe Prices is reused before it is fetched again. */
const CATALOGUE_TTL_MS = 60_000;

/**
 * The bundles on sale: the provider's prices, cached briefly; when a refresh fails the last
 * list that was fetched is kept (a Stripe outage does not empty the buy page).
 */
export class TokenBundleCatalogue {
  private cached: { prices: BundlePrice[]; fetchedAt: number } | undefined;
  private inFlight: Promise<BundlePrice[]> | undefined;

  constructor(
    private readonly provider: CheckoutProvider,
    private readonly clock: Clock,
    private readonly ttlMs = CATALOGUE_TTL_MS,
  ) {}

  async list(): Promise<BundlePrice[]> {
    const now = this.clock.now().getTime();
    if (this.cached && now - this.cached.fetchedAt < this.ttlMs) return this.cached.prices;
    this.inFlight ??= this.provider
      .listPrices()
      .then((prices) => {
        this.cached = { prices, fetchedAt: this.clock.now().getTime() };
        return prices;
      })
      .catch((error) => {
        if (this.cached) return this.cached.prices;
        throw error;
      })
      .finally(() => {
        this.inFlight = undefined;
      });
    return this.inFlight;
  }

  async find(priceId: string): Promise<BundlePrice | undefined> {
    return (await this.list()).find((price) => price.priceId === priceId);
  }
}

/** A bundle as the product list shows it (docs/requirements.md §3, Token bundle (list)). */
export function toTokenBundle(price: BundlePrice): TokenBundle {
  const amount = price.amountInCents / 100;
  return {
    PriceId: price.priceId,
    PriceText: formatPrice(amount, price.currency),
    PriceAmount: amount,
    PriceAmountInCents: price.amountInCents,
    Currency: price.currency,
    Metadata: [
      { Key: TokenBundleMetadataKey.Title, Value: price.title },
      { Key: TokenBundleMetadataKey.Contents, Value: price.contents },
      { Key: TokenBundleMetadataKey.Description, Value: price.description },
      { Key: TokenBundleMetadataKey.UiFlags, Value: price.uiFlags.join(',') },
    ],
    PriceMetadata: price.newPriceText ? [{ Key: NEW_PRICE_TEXT_KEY, Value: price.newPriceText }] : [],
  };
}

/** A bundle as the checkout screen shows it (docs/requirements.md §3, Token bundle (checkout)). */
export function toCheckoutTokenBundle(price: BundlePrice): CheckoutTokenBundle {
  return {
    SKU: price.priceId,
    Title: price.title,
    Currency: price.currency,
    PriceAmountInCents: price.amountInCents,
  };
}

export interface CardCheckout {
  provider: CheckoutProvider;
  catalogue: TokenBundleCatalogue;
}

/**
 * The card checkout of one app instance (one provider, one catalogue cache), or undefined in
 * production without STRIPE_*: then no bundles are offered. Built once, by the composition
 * root (services.ts).
 */
export function createCardCheckout(provider: CheckoutProvider | undefined, clock: Clock): CardCheckout | undefined {
  return provider && { provider, catalogue: new TokenBundleCatalogue(provider, clock) };
}

/**
 * For GetProducts (docs/requirements.md §3, Voice AI product list): the bundles on sale and the key the SPA
 * initialises the checkout with (`pk_sandbox_…` means: show the sandbox card form).
 */
export async function getTokenBundles(
  checkout: CardCheckout | undefined,
): Promise<{ TokenBundles: TokenBundle[]; StripePublicKey: string }> {
  if (!checkout) return { TokenBundles: [], StripePublicKey: '' };
  const prices = await checkout.catalogue.list();
  return { TokenBundles: prices.map(toTokenBundle), StripePublicKey: checkout.provider.publishableKey };
}
