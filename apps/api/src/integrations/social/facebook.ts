import { createHmac } from 'node:crypto';
import { getJson, isRecord, ProviderCheckFailed, stringClaim } from './http';
import type { ProviderCheck, ProviderContext } from './types';

export interface FacebookOptions {
  appId: string;
  appSecret: string;
  graphUrl?: string | undefined;
}

export const FACEBOOK_GRAPH_URL = 'https://graph.facebook.com';

/**
 * Facebook: the access token is checked with debug_token and the app token (it must be valid
 * and issued to our app), then /me gives the e-mail, which may be missing. Facebook only
 * returns confirmed addresses, so a present e-mail counts as verified.
 */
export function facebookCheck(ctx: ProviderContext, options: FacebookOptions): ProviderCheck {
  const base = (options.graphUrl || FACEBOOK_GRAPH_URL).replace(/\/+$/, '');
  const appToken = `${options.appId}|${options.appSecret}`;

  return async (token, tokenType) => {
    if (tokenType !== 'access_token') throw new ProviderCheckFailed('Facebook accepts access tokens only');

    const debugUrl = new URL(`${base}/debug_token`);
    debugUrl.searchParams.set('input_token', token);
    debugUrl.searchParams.set('access_token', appToken);
    const debug = await getJson(ctx, debugUrl);
    const data = isRecord(debug.data) ? debug.data : {};
    if (data.is_valid !== true) throw new ProviderCheckFailed('token not valid');
    if (String(data.app_id) !== options.appId) throw new ProviderCheckFailed('token issued to another app');
    const subject = stringClaim(data.user_id === undefined ? undefined : String(data.user_id));
    if (!subject) throw new ProviderCheckFailed('token without a user');

    const meUrl = new URL(`${base}/me`);
    meUrl.searchParams.set('fields', 'id,email');
    meUrl.searchParams.set('access_token', token);
    // Proves the call comes from our server; required when the app enables "Require App Secret".
    meUrl.searchParams.set('appsecret_proof', createHmac('sha256', options.appSecret).update(token).digest('hex'));
    const me = await getJson(ctx, meUrl);
    if (String(me.id) !== subject) throw new ProviderCheckFailed('/me answered another user');

    const email = stringClaim(me.email);
    return { provider: 'Facebook', subject, email, emailVerified: email !== undefined };
  };
}
