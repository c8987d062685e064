import type { SocialPlatform } from '@soundid/contracts';
import { postAccountCall } from '../../../lib/api-client';
import { setSignedInUser } from '../../../lib/session';
import { useAction } from '../../../lib/use-action';

export interface SocialCredentials {
  socialPlatform: SocialPlatform;
  token: string;
}

/** Apple hands out an id token, Google and Facebook an access token (docs/requirements.md §7). */
export async function loginBySocial({ socialPlatform, token }: SocialCredentials) {
  const { Result } = await postAccountCall('LoginBySocial', {
    socialPlatform,
    token,
    tokenType: socialPlatform === 'Apple' ? 'id_token' : 'access_token',
    keepMeSignedIn: true,
    getProfile: true,
    silent: true,
  });
  return Result.User;
}

export function useLoginBySocial() {
  return useAction(loginBySocial, setSignedInUser);
}
