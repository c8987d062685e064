import type { PublicConfig } from '@soundid/contracts';
import { callAt } from '../lib/api-client';

/** GET /api/config (packages/contracts: the one PublicConfig the service sends and the SPA reads). */
export type { PublicConfig, RedirectTarget } from '@soundid/contracts';

/**
 * Used when the configuration cannot be read: every optional integration stays off, and the
 * root follows the service's own default target.
 */
export const FALLBACK_CONFIG: PublicConfig = {
  AppTarget: 'reference',
  SocialProviders: {},
  DevelopmentEnv: false,
  RedirectTargets: [],
  OfflineActivation: false,
  ConfiguredSocialPlatforms: [],
};

/** The service's answer over the fallback: what it leaves out stays off. */
export function withFallbacks(config: Partial<PublicConfig>): PublicConfig {
  return { ...FALLBACK_CONFIG, ...config, SocialProviders: config.SocialProviders ?? {} };
}

export async function fetchPublicConfig(): Promise<PublicConfig> {
  try {
    const { Result } = await callAt('GetPublicConfig', { method: 'GET', path: '/api/config' }, { silent: true });
    return withFallbacks(Result);
  } catch {
    return FALLBACK_CONFIG;
  }
}
