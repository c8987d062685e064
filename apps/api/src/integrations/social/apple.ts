import { isTrue, ProviderCheckFailed, stringClaim } from './http';
import { idTokenChecker } from './id-token';
import type { ProviderCheck, ProviderContext } from './types';

export interface AppleOptions {
  /** Services ID (web) of Sign in with Apple: the audience of the id token. */
  clientId: string;
  jwksUrl?: string | undefined;
  issuer?: string | undefined;
}

export const APPLE_JWKS_URL = 'https://appleid.apple.com/auth/keys';
export const APPLE_ISSUER = 'https://appleid.apple.com';

/**
 * Apple: only the id token proves who signed in (its access token cannot be checked without
 * the client secret flow). Apple sends the e-mail only on the first sign-in, and "Hide My Email"
 * addresses are relays: the subject is the identity.
 */
export function appleCheck(ctx: ProviderContext, options: AppleOptions): ProviderCheck {
  const checkIdToken = idTokenChecker(ctx, {
    jwksUrl: options.jwksUrl || APPLE_JWKS_URL,
    audience: options.clientId,
    issuer: options.issuer || APPLE_ISSUER,
  });
  return async (token, tokenType) => {
    if (tokenType !== 'id_token') throw new ProviderCheckFailed('Apple accepts id tokens only');
    const { subject, claims } = await checkIdToken(token);
    const email = stringClaim(claims.email);
    return {
      provider: 'Apple',
      subject,
      email,
      emailVerified: email !== undefined && isTrue(claims.email_verified),
    };
  };
}
