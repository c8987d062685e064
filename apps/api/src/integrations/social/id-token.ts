import { createRemoteJWKSet, customFetch, jwtVerify } from 'jose';
import { ProviderCheckFailed, stringClaim } from './http';
import type { ProviderContext } from './types';

export interface IdTokenSettings {
  jwksUrl: string;
  audience: string;
  issuer: string | string[];
}

/** Allowed clock difference between us and the provider when checking exp / iat / nbf. */
const CLOCK_TOLERANCE_SECONDS = 30;

/**
 * A checker for OpenID Connect id tokens signed with the provider's published keys. The key set
 * is fetched on first use and cached (jose refetches on an unknown key id, at most every 30 s).
 */
export function idTokenChecker(ctx: ProviderContext, settings: IdTokenSettings) {
  const keys = createRemoteJWKSet(new URL(settings.jwksUrl), {
    timeoutDuration: ctx.timeoutMs,
    [customFetch]: (url, init) => ctx.fetch(url, init),
  });
  return async (token: string) => {
    const { payload } = await jwtVerify(token, keys, {
      audience: settings.audience,
      issuer: settings.issuer,
      algorithms: ['RS256'],
      requiredClaims: ['sub', 'exp', 'iat'],
      currentDate: ctx.now(),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    const subject = stringClaim(payload.sub);
    if (!subject) throw new ProviderCheckFailed('id token without a subject');
    return { subject, claims: payload as Record<string, unknown> };
  };
}
