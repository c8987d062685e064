import type { FastifyInstance } from 'fastify';
import type { Config } from '../config';
import type { Database } from '../db/client';
import type { AuditTrail } from '../features/operators/audit-trail';
import type { OperatorGuard } from '../features/operators/operator-guard';
import type { StorefrontOrderService } from '../features/storefront/order-fulfilment';
import type { CheckoutService } from '../features/voice-ai/checkout';
import type { Clock, Random } from '../lib/clock';
import { devMailboxRoutes } from './mailbox-routes';
import { SandboxStoreAdmin } from './shopify-sandbox/admin';
import { SANDBOX_STOREFRONT_TOKEN, SANDBOX_VOICE_AI_PRODUCT_IDS } from './shopify-sandbox/catalogue';
import { sandboxStorefrontRoutes } from './shopify-sandbox/routes';
import { SandboxStorefront } from './shopify-sandbox/storefront';
import { deriveSandboxShopifyWebhookSecret } from './shopify-sandbox/webhook-secret';
import { SANDBOX_BUNDLES } from './stripe-sandbox/bundles';
import { SandboxCardForm } from './stripe-sandbox/card-form';
import { deriveSandboxWebhookSecret, SandboxCheckoutProvider } from './stripe-sandbox/provider';
import { sandboxCheckoutRoutes } from './stripe-sandbox/routes';

/**
 * The development stand-ins (never in production, ADR 0033): Stripe's sandbox checkout without
 * STRIPE_*, Shopify's sandbox storefront without SHOPIFY_*, and the dev mailbox without
 * SMTP_URL. The demo customer (demo-seed.ts) is seeded by server.ts. Production code receives
 * a stand-in only through the composition root (services.ts), as it would the real provider.
 */
/** The sandbox storefront's public settings, as the buy page reads Shopify's (not secrets, as with Shopify's). */
export const SANDBOX_STORE_SETTINGS = {
  accessToken: SANDBOX_STOREFRONT_TOKEN,
  voiceAiProductIds: [...SANDBOX_VOICE_AI_PRODUCT_IDS],
};

export interface DevProviders {
  /** Stands in for Stripe when STRIPE_* is unset. */
  checkoutProvider: SandboxCheckoutProvider | undefined;
  /** Stands in for Shopify when SHOPIFY_* is unset: the webhook secret and products of its orders. */
  storefront: { source: 'sandbox'; webhookSecret: string; voiceAiProductIds: string[] } | undefined;
}

/** The providers the stand-ins replace, or undefined in production (no stand-in at all). */
export function devProvidersFor(config: Config, random: Random): DevProviders | undefined {
  if (config.isProduction) return undefined;
  return {
    checkoutProvider: config.stripe
      ? undefined
      : new SandboxCheckoutProvider({
          prices: [...SANDBOX_BUNDLES],
          webhookSecret: deriveSandboxWebhookSecret(config.sessionSecret),
          random,
        }),
    storefront: config.shopify
      ? undefined
      : {
          source: 'sandbox',
          webhookSecret: deriveSandboxShopifyWebhookSecret(config.sessionSecret),
          voiceAiProductIds: [...SANDBOX_VOICE_AI_PRODUCT_IDS],
        },
  };
}

export interface DevServices {
  /** The sandbox card form's calls (with the Stripe stand-in). */
  sandboxCardForm: SandboxCardForm | undefined;
  /** The sandbox storefront (with the Shopify stand-in). */
  sandboxStorefront: SandboxStorefront | undefined;
  /** The sandbox store's refunds, as Shopify's Admin API makes them (with the Shopify stand-in, ADR 0059). */
  sandboxStoreAdmin: SandboxStoreAdmin | undefined;
  /** The dev outbox is served (no SMTP_URL: mails stay in the database). */
  mailbox: boolean;
}

export function createDevServices(
  providers: DevProviders,
  deps: {
    config: Config;
    db: Database;
    clock: Clock;
    random: Random;
    checkout: CheckoutService;
    storefrontOrders: StorefrontOrderService | undefined;
  },
): DevServices {
  const { config, db, clock, random, checkout, storefrontOrders } = deps;
  const { checkoutProvider, storefront } = providers;
  // The sandbox processor's refunds read its payments and deliver to the webhook handler.
  checkoutProvider?.connect({ db, clock, deliver: (rawBody, signature) => checkout.handleWebhook(rawBody, signature) });
  const sandboxStore = storefront && storefrontOrders && { storefront, orders: storefrontOrders };
  return {
    sandboxCardForm: checkoutProvider && new SandboxCardForm({ db, clock, provider: checkoutProvider, checkout }),
    sandboxStorefront:
      sandboxStore &&
      new SandboxStorefront({
        db,
        clock,
        random,
        publicUrl: config.publicUrl,
        webhookSecret: sandboxStore.storefront.webhookSecret,
        deliver: (delivery) => sandboxStore.orders.handleWebhook(delivery),
      }),
    sandboxStoreAdmin:
      sandboxStore &&
      new SandboxStoreAdmin({
        db,
        clock,
        random,
        storeDomain: new URL(config.publicUrl).host,
        webhookSecret: sandboxStore.storefront.webhookSecret,
        voiceAiProductIds: sandboxStore.storefront.voiceAiProductIds,
        deliver: (delivery) => sandboxStore.orders.handleWebhook(delivery),
      }),
    mailbox: !config.smtpUrl,
  };
}

/** The stand-ins' HTTP surface: each only when its stand-in is in use. */
export async function registerDevRoutes(
  app: FastifyInstance,
  dev: DevServices,
  options: { db: Database; guard: OperatorGuard; audit: AuditTrail; publicUrl: string },
): Promise<void> {
  if (dev.sandboxCardForm) {
    await app.register(sandboxCheckoutRoutes, {
      service: dev.sandboxCardForm,
      guard: options.guard,
      audit: options.audit,
    });
  }
  if (dev.sandboxStorefront) await app.register(sandboxStorefrontRoutes(dev.sandboxStorefront, options.publicUrl));
  if (dev.mailbox) await app.register(devMailboxRoutes, { db: options.db });
}
