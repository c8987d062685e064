import type { SocialPlatform } from '@soundid/contracts';

export type { SocialPlatform };
export type SocialTokenType = 'access_token' | 'id_token';

/** Who the provider says signed in. Match accounts by provider + subject, never by e-mail alone. */
export interface SocialIdentity {
  provider: SocialPlatform;
  subject: string;
  email?: string | undefined;
  emailVerified: boolean;
}

export interface SocialVerifyInput {
  platform: SocialPlatform;
  token: string;
  tokenType: SocialTokenType;
}

export interface SocialVerifier {
  isConfigured(platform: SocialPlatform): boolean;
  configuredPlatforms(): SocialPlatform[];
  verify(input: SocialVerifyInput): Promise<SocialIdentity>;
}

export type FetchLike = typeof fetch;

/** What every provider module gets besides its own settings. */
export interface ProviderContext {
  fetch: FetchLike;
  /** Time limit of one outbound call, in milliseconds. */
  timeoutMs: number;
  now: () => Date;
}

/** One configured provider: checks a token and says who it belongs to, or throws. */
export type ProviderCheck = (token: string, tokenType: SocialTokenType) => Promise<SocialIdentity>;
