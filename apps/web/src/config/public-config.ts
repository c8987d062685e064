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
};

export async function fetchPublicConfig(): Promise<PublicConfig> {
  try {
    const { Result } = await apiGet<PublicConfig>('/api/config', { silent: true });
    return { ...FALLBACK_CONFIG, ...Result, SocialProviders: Result.SocialProviders ?? {} };
  } catch {
    return FALLBACK_CONFIG;
  }
}
