import { apiGet } from '../lib/api-client';

export interface RedirectTarget {
  Id: string;
  Name: string;
  CallbackUrl: string;
}

/** GET /api/config: what the service lets the browser know about this deployment. */
export interface PublicConfig {
  AppTarget: string;
  SocialProviders: {
    Google?: { ClientId: string };
    Apple?: { ClientId: string };
    Facebook?: { AppId: string };
  };
  SupportChatScriptUrl?: string | null;
  DevelopmentEnv: boolean;
  RedirectTargets: RedirectTarget[];
  /** The service's main host (PUBLIC_URL's); a checkout started elsewhere sends its own return URL. */
  MainHost?: string;
  /** The Licenses & Devices page offers offline activation (development, or configured: ADR 0013). */
  OfflineActivation: boolean;
}

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
};

/** The service's answer over the fallback: what it leaves out stays off. */
export function withFallbacks(config: Partial<PublicConfig>): PublicConfig {
  return { ...FALLBACK_CONFIG, ...config, SocialProviders: config.SocialProviders ?? {} };
}

export async function fetchPublicConfig(): Promise<PublicConfig> {
  try {
    const { Result } = await apiGet<PublicConfig>('/api/config', { silent: true });
    return withFallbacks(Result);
  } catch {
    return FALLBACK_CONFIG;
  }
}
