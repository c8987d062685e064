import type { Config } from '../../config';
import type { Random } from '../../lib/clock';
import { deriveSandboxWebhookSecret, SandboxCheckoutProvider } from './sandbox-provider';
import { StripeCheckoutProvider } from './stripe-provider';
import type { BundlePrice, CheckoutProvider } from './types';

export { clientSecretMatches, SandboxCheckoutProvider, sandboxSessionIdOf } from './sandbox-provider';
export { StripeCheckoutProvider } from './stripe-provider';
export type * from './types';

/**
 * Stripe when STRIPE_SECRET_KEY, STRIPE_PUBLISHABLE_KEY and STRIPE_WEBHOOK_SECRET are set;
 * otherwise the sandbox, except in production, where there is then no card checkout at all.
 */
export function createCheckoutProvider(
  config: Config,
  options: { random: Random; sandboxPrices: BundlePrice[] },
): CheckoutProvider | undefined {
  if (config.stripe) return new StripeCheckoutProvider(config.stripe);
  if (config.isProduction) return undefined;
  return new SandboxCheckoutProvider({
    prices: options.sandboxPrices,
    webhookSecret: deriveSandboxWebhookSecret(config.sessionSecret),
    random: options.random,
  });
}
