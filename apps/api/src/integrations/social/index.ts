import { Fault } from '../../lib/fault';
import { type AppleOptions, appleCheck } from './apple';
import { type FacebookOptions, facebookCheck } from './facebook';
import { type GoogleOptions, googleCheck } from './google';
import type {
  FetchLike,
  ProviderCheck,
  ProviderContext,
  SocialIdentity,
  SocialPlatform,
  SocialVerifier,
} from './types';

export type { SocialIdentity, SocialPlatform, SocialVerifier, SocialVerifyInput } from './types';
export type { AppleOptions, FacebookOptions, GoogleOptions };

export interface SocialVerifierOptions {
  google?: GoogleOptions | undefined;
  apple?: AppleOptions | undefined;
  facebook?: FacebookOptions | undefined;
  /** HTTP client for the provider calls (tests point it, or the URLs, at stand-ins). */
  fetch?: FetchLike;
  /** Time limit of one outbound call; 5000 ms by default. */
  timeoutMs?: number;
  /** The clock that token expiry is checked against. */
  now?: () => Date;
  /** Told why a check failed (for the server log); the client only ever sees SocialLoginTokenInvalid. */
  onFailure?: (platform: SocialPlatform, error: unknown) => void;
}

const PLATFORMS: readonly SocialPlatform[] = ['Google', 'Apple', 'Facebook'];

/** Checks social sign-in tokens on the server; a provider without its client id is not configured. */
export function createSocialVerifier(options: SocialVerifierOptions = {}): SocialVerifier {
  const ctx: ProviderContext = {
    fetch: options.fetch ?? globalThis.fetch,
    timeoutMs: options.timeoutMs ?? 5000,
    now: options.now ?? (() => new Date()),
  };
  const { google, apple, facebook } = options;
  const checks: Partial<Record<SocialPlatform, ProviderCheck>> = {};
  if (google?.clientId) checks.Google = googleCheck(ctx, google);
  if (apple?.clientId) checks.Apple = appleCheck(ctx, apple);
  if (facebook?.appId && facebook.appSecret) checks.Facebook = facebookCheck(ctx, facebook);

  return {
    isConfigured: (platform) => checks[platform] !== undefined,
    configuredPlatforms: () => PLATFORMS.filter((platform) => checks[platform] !== undefined),
    async verify({ platform, token, tokenType }): Promise<SocialIdentity> {
      const check = checks[platform];
      if (!check) throw new Fault('SocialLoginProviderNotConfigured');
      if (typeof token !== 'string' || token === '') throw new Fault('SocialLoginTokenInvalid');
      try {
        return await check(token, tokenType);
      } catch (error) {
        options.onFailure?.(platform, error);
        throw new Fault('SocialLoginTokenInvalid');
      }
    },
  };
}
