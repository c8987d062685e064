import { getJson, isTrue, ProviderCheckFailed, stringClaim } from './http';
import { idTokenChecker } from './id-token';
import type { ProviderCheck, ProviderContext } from './types';

export interface GoogleOptions {
  /** OAuth client id of the web app: the audience every token must carry. */
  clientId: string;
  jwksUrl?: string | undefined;
  tokenInfoUrl?: string | undefined;
}

export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';
export const GOOGLE_TOKENINFO_URL = 'https://oauth2.googleapis.com/tokeninfo';
const GOOGLE_ISSUERS = ['accounts.google.com', 'https://accounts.google.com'];

/**
 * Google: the sign-in button / One Tap give an id token (checked against Google's keys); the
 * token client gives only an access token, checked through tokeninfo, whose `aud` or `azp` must
 * be our client id (otherwise a token issued to another app could sign in here).
 */
export function googleCheck(ctx: ProviderContext, options: GoogleOptions): ProviderCheck {
  const checkIdToken = idTokenChecker(ctx, {
    jwksUrl: options.jwksUrl || GOOGLE_JWKS_URL,
    audience: options.clientId,
    issuer: GOOGLE_ISSUERS,
  });
  const tokenInfoUrl = options.tokenInfoUrl || GOOGLE_TOKENINFO_URL;

  return async (token, tokenType) => {
    if (tokenType === 'id_token') {
      const { subject, claims } = await checkIdToken(token);
      return identity(subject, claims);
    }
    const url = new URL(tokenInfoUrl);
    url.searchParams.set('access_token', token);
    const info = await getJson(ctx, url);
    if (info.aud !== options.clientId && info.azp !== options.clientId) {
      throw new ProviderCheckFailed('access token issued to another client');
    }
    if (!isUnexpired(info, ctx.now())) throw new ProviderCheckFailed('access token expired');
    const subject = stringClaim(info.sub);
    if (!subject) throw new ProviderCheckFailed('access token without a subject (openid scope missing)');
    return identity(subject, info);
  };
}

/** tokeninfo answers `exp` (Unix seconds) and `expires_in` (seconds left); either must say "not yet". */
function isUnexpired(info: Record<string, unknown>, now: Date): boolean {
  if (info.exp !== undefined) {
    const expiresAt = Number(info.exp);
    return Number.isFinite(expiresAt) && expiresAt * 1000 > now.getTime();
  }
  const left = Number(info.expires_in);
  return Number.isFinite(left) && left > 0;
}

function identity(subject: string, claims: Record<string, unknown>) {
  const email = stringClaim(claims.email);
  return {
    provider: 'Google' as const,
    subject,
    email,
    emailVerified: email !== undefined && isTrue(claims.email_verified),
  };
}
