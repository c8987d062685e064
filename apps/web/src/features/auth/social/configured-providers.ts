import { appleSignIn } from './apple-sign-in';
import { facebookSignIn } from './facebook-sign-in';
import { googleSignIn } from './google-sign-in';
import type { SocialProvider, SocialProviderConfig } from './social-provider';

/** The providers this deployment configured; the others get no button. */
export function configuredProviders(config: SocialProviderConfig): SocialProvider[] {
  const providers: SocialProvider[] = [];
  if (config.Google?.ClientId) providers.push(googleSignIn(config.Google.ClientId));
  if (config.Apple?.ClientId) providers.push(appleSignIn(config.Apple.ClientId));
  if (config.Facebook?.AppId) providers.push(facebookSignIn(config.Facebook.AppId));
  return providers;
}
