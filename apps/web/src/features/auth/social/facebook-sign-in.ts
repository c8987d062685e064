import { loadScript } from '../../../lib/load-script';
import type { SocialProvider } from './social-provider';

const SCRIPT_URL = 'https://connect.facebook.net/en_US/sdk.js';
const GRAPH_API_VERSION = 'v21.0';

declare global {
  interface Window {
    FB?: {
      init(config: { appId: string; version: string; cookie: boolean; xfbml: boolean }): void;
      login(
        callback: (response: { authResponse?: { accessToken: string } | null }) => void,
        options: { scope: string },
      ): void;
    };
  }
}

/** Facebook Login: an access token; a cancelled dialog gives no authResponse. */
export function facebookSignIn(appId: string): SocialProvider {
  let isInitialised = false;
  const ready = async () => {
    await loadScript(SCRIPT_URL);
    const fb = window.FB;
    if (!fb) throw new Error('Facebook sign-in is not available');
    if (!isInitialised) {
      fb.init({ appId, version: GRAPH_API_VERSION, cookie: false, xfbml: false });
      isInitialised = true;
    }
    return fb;
  };
  return {
    platform: 'Facebook',
    prepare: async () => {
      await ready();
    },
    async requestToken() {
      const fb = await ready();
      return new Promise<string | null>((resolve) =>
        fb.login((response) => resolve(response.authResponse?.accessToken ?? null), { scope: 'email' }),
      );
    },
  };
}
