import { loadScript } from '../../../lib/load-script';
import type { SocialProvider } from './social-provider';

const SCRIPT_URL = 'https://appleid.cdn-apple.com/appleauth/static/jsapi/appleid/1/en_US/appleid.auth.js';
const CLOSED_BY_CUSTOMER = new Set(['popup_closed_by_user', 'user_cancelled_authorize']);

declare global {
  interface Window {
    AppleID?: {
      auth: {
        init(config: { clientId: string; scope: string; redirectURI: string; usePopup: boolean }): void;
        signIn(): Promise<{ authorization: { id_token: string } }>;
      };
    };
  }
}

/** Sign in with Apple in a popup: an id token. */
export function appleSignIn(clientId: string): SocialProvider {
  return {
    platform: 'Apple',
    prepare: () => loadScript(SCRIPT_URL),
    async requestToken() {
      await loadScript(SCRIPT_URL);
      const auth = window.AppleID?.auth;
      if (!auth) throw new Error('Apple sign-in is not available');
      auth.init({ clientId, scope: 'name email', redirectURI: `${window.location.origin}/login`, usePopup: true });
      try {
        const { authorization } = await auth.signIn();
        return authorization.id_token;
      } catch (error) {
        const code = (error as { error?: string } | undefined)?.error;
        if (code && CLOSED_BY_CUSTOMER.has(code)) return null;
        throw new Error(code ?? 'Apple sign-in failed');
      }
    },
  };
}
