import { callSchemas, STOREFRONT_API_VERSION } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Config } from '../../config';
import type { DatabaseHandle } from '../../db/client';
import { Fault } from '../../lib/fault';
import type { PublicConfig } from './public-config';

/** Probes, public configuration for the SPA, feature flags and store settings. */
export const metaRoutes: FastifyPluginAsyncZod<{
  config: Config;
  database: DatabaseHandle;
  publicConfig: PublicConfig;
  /** The sandbox storefront's public settings (dev/shopify-sandbox), answered outside production without SHOPIFY_*. */
  sandboxStore: { accessToken: string; voiceAiProductIds: string[] };
}> = async (app, { config, database, publicConfig, sandboxStore }) => {
  app.get('/api/health', { schema: callSchemas.Health }, async () => ({
    Success: true as const,
    Result: { Status: 'up' },
  }));

  app.get('/api/ready', { schema: callSchemas.Ready }, async (_request, reply) => {
    const ready = await database.ping();
    if (!ready) reply.code(503);
    return ready
      ? { Success: true as const, Result: { Status: 'ready', Database: database.kind } }
      : {
          Success: false as const,
          Fault: {
            ExceptionName: 'ServiceUnavailable',
            ExceptionType: 50,
            ExceptionCode: 503,
            ExceptionUserText: 'The database cannot be reached.',
            ExceptionVariables: [],
          },
        };
  });

  app.get('/api/config', { schema: callSchemas.GetPublicConfig }, async () => ({
    Success: true as const,
    Result: publicConfig,
  }));

  app.get('/api/accounts/features', { schema: callSchemas.GetFeatures }, async () => ({
    Success: true as const,
    Result: { CoProducer: config.features.coProducer },
  }));

  /**
   * The storefront the buy page talks to. Without SHOPIFY_* the sandbox storefront served by
   * this service stands in (its public access token is not a secret, as with Shopify's);
   * production without SHOPIFY_* has no storefront at all (ADR 0010).
   */
  app.get('/api/shopify/store-settings', { schema: callSchemas.GetStoreSettings }, async () => {
    if (!config.shopify && config.isProduction) throw new Fault('StorefrontUnavailable');
    return {
      Success: true as const,
      Result: config.shopify
        ? {
            StoreDomain: config.shopify.storeDomain,
            StorefrontAccessToken: config.shopify.storefrontToken,
            VoiceAiProductIds: config.shopify.voiceAiProductIds,
            ApiVersion: STOREFRONT_API_VERSION,
            Sandbox: false,
          }
        : {
            StoreDomain: new URL(config.publicUrl).host,
            StorefrontAccessToken: sandboxStore.accessToken,
            VoiceAiProductIds: sandboxStore.voiceAiProductIds,
            ApiVersion: STOREFRONT_API_VERSION,
            Sandbox: true,
          },
    };
  });
};
