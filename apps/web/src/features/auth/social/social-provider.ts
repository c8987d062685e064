import type { SocialPlatform } from '@soundid/contracts';
import type { PublicConfig } from '../../../config/public-config';

/**
 * One provider's sign-in: `prepare` loads its script (on the login screen only), `requestToken`
 * opens its popup and resolves with the token for LoginBySocial, or null when the customer
 * closed the popup (which the spec says to ignore).
 */
export interface SocialProvider {
  platform: SocialPlatform;
  prepare(): Promise<void>;
  requestToken(): Promise<string | null>;
}

export type SocialProviderConfig = PublicConfig['SocialProviders'];
