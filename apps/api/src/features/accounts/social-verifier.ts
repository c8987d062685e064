import type { SocialPlatform } from '@soundid/contracts';

/** What the account rules need from social sign-in (implemented in integrations/social). */
export interface SocialIdentity {
  provider: string;
  subject: string;
  email?: string | undefined;
  emailVerified: boolean;
}

export interface SocialVerifier {
  isConfigured(platform: SocialPlatform): boolean;
  configuredPlatforms(): SocialPlatform[];
  verify(input: {
    platform: SocialPlatform;
    token: string;
    tokenType: 'access_token' | 'id_token';
  }): Promise<SocialIdentity>;
}
