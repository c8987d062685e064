import { loadScript } from '../../../lib/load-script';
import type { SocialProvider } from './social-provider';

const SCRIPT_URL = 'https://accounts.google.com/gsi/client';

interface GoogleTokenResponse {
  access_token?: string;
  error?: string;
}
interface GoogleTokenClient {
  requestAccessToken(): void;
}
declare global {
  interface Window {
    google?: {
      accounts: {
        oauth2: {
          initTokenClient(config: {
            client_id: string;
            scope: string;
            callback: (response: GoogleTokenResponse) => void;
            error_callback?: (error: { type: string }) => void;
          }): GoogleTokenClient;
        };
      };
    };
  }
}

/** Google Identity Services token client: an access token the service checks through tokeninfo. */
export function googleSignIn(clientId: string): SocialProvider {
  return {
    platform: 'Google',
    prepare: () => loadScript(SCRIPT_URL),
    async requestToken() {
      await loadScript(SCRIPT_URL);
      const oauth2 = window.google?.accounts.oauth2;
      if (!oauth2) throw new Error('Google sign-in is not available');
      return new Promise<string | null>((resolve, reject) => {
        oauth2
          .initTokenClient({
            client_id: clientId,
            scope: 'openid email profile',
            callback: (response) =>
              response.access_token ? resolve(response.access_token) : reject(new Error(response.error)),
            error_callback: (error) => (error.type === 'popup_closed' ? resolve(null) : reject(new Error(error.type))),
          })
          .requestAccessToken();
      });
    },
  };
}
