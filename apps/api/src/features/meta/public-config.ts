import type { PublicConfig } from '@soundid/contracts';
import type { Config } from '../../config';
import type { SocialVerifier } from '../accounts/social-verifier';

/**
 * What the SPA needs to know before it renders: build target, providers, dev mode. Answered by
 * GET /api/config and written into every page the service serves (plugins/spa.ts). Its shape is
 * packages/contracts' publicConfigSchema, which the SPA reads too.
 */
export type { PublicConfig };

export function publicConfigOf(config: Config, social: Pick<SocialVerifier, 'configuredPlatforms'>): PublicConfig {
  return {
    AppTarget: config.appTarget,
    SocialProviders: {
      ...(config.social.google && { Google: { ClientId: config.social.google.clientId } }),
      ...(config.social.apple && { Apple: { ClientId: config.social.apple.clientId } }),
      ...(config.social.facebook && { Facebook: { AppId: config.social.facebook.appId } }),
    },
    SupportChatScriptUrl: config.supportChatScriptUrl ?? null,
    DevelopmentEnv: !config.isProduction,
    OfflineActivation: config.offlineActivation,
    RedirectTargets: config.redirectTargets,
    ConfiguredSocialPlatforms: social.configuredPlatforms(),
    // The main host (PUBLIC_URL's): off it, the SPA names its own card-checkout return URL.
    MainHost: new URL(config.publicUrl).host,
  };
}
