import { STOREFRONT_API_VERSION } from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** Probes, public configuration for the SPA, feature flags and store settings. */
export const metaRoutes: FastifyPluginAsyncZod = async (app) => {
  const { config, database, social } = app.deps;

  app.get('/api/health', async () => ({ Success: true, Result: { Status: 'up' } }));

  app.get('/api/ready', async (_request, reply) => {
    const ready = await database.ping();
    if (!ready) reply.code(503);
    return ready
      ? { Success: true, Result: { Status: 'ready', Database: database.kind } }
      : {
          Success: false,
          Fault: {
            ExceptionName: 'ServiceUnavailable',
            ExceptionType: 50,
            ExceptionCode: 503,
            ExceptionUserText: 'The database cannot be reached.',
            ExceptionVariables: [],
          },
        };
  });

  /** What the SPA needs to know before it renders: build target, providers, dev mode. */
  app.get('/api/config', async () => ({
    Success: true,
    Result: {
      AppTarget: config.appTarget,
      SocialProviders: {
        ...(config.social.google && { Google: { ClientId: config.social.google.clientId } }),
        ...(config.social.apple && { Apple: { ClientId: config.social.apple.clientId } }),
        ...(config.social.facebook && { Facebook: { AppId: config.social.facebook.appId } }),
      },
      SupportChatScriptUrl: config.supportChatScriptUrl ?? null,
      DevelopmentEnv: !config.isProduction,
      RedirectTargets: app.deps.redirectTargets,
      ConfiguredSocialPlatforms: social.configuredPlatforms(),
    },
  }));

  app.get('/api/accounts/features', async () => ({
    Success: true,
    Result: { CoProducer: config.features.coProducer },
  }));

  /**
   * The storefront the buy page talks to. Without SHOPIFY_* the sandbox storefront served by
   * this service stands in (its public access token is not a secret, as with Shopify's).
   */
  app.get('/api/shopify/store-settings', async () => ({
    Success: true,
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
          StorefrontAccessToken: 'sandbox-storefront-token',
          VoiceAiProductIds: ['gid://shopify/Product/1001'],
          ApiVersion: STOREFRONT_API_VERSION,
          Sandbox: true,
        },
  }));
};
