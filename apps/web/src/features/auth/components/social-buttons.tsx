import { faultMessage } from '@soundid/contracts';
import { text } from '@soundid/contracts/ui-text';
import { useEffect, useMemo, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { usePublicConfig } from '../../../config/public-config-context';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useLoginBySocial } from '../api/login-by-social';
import { configuredProviders } from '../social/configured-providers';
import type { SocialProvider } from '../social/social-provider';

/** Buttons for the configured providers only; their scripts load while the login screen is open. */
export function SocialButtons() {
  const { SocialProviders } = usePublicConfig();
  const providers = useMemo(() => configuredProviders(SocialProviders), [SocialProviders]);
  const login = useLoginBySocial();
  const [pending, setPending] = useState<SocialProvider['platform']>();

  useEffect(() => {
    // Loaded ahead so that the click opens the popup at once (browsers block late popups).
    for (const provider of providers) void provider.prepare().catch(() => undefined);
  }, [providers]);

  if (providers.length === 0) return null;

  const signIn = async (provider: SocialProvider) => {
    setPending(provider.platform);
    login.reset();
    try {
      const token = await provider.requestToken();
      if (token) await login.mutateAsync({ socialPlatform: provider.platform, token });
    } catch (error) {
      if (!isApiError(error)) notify('danger', faultMessage('Unknown'));
    } finally {
      setPending(undefined);
    }
  };

  return (
    <div className="social">
      <ul className="social__list">
        {providers.map((provider) => (
          <li key={provider.platform}>
            <Button
              variant="secondary"
              className={`social__button social__button--${provider.platform.toLowerCase()}`}
              isBusy={pending === provider.platform}
              disabled={pending !== undefined}
              onClick={() => void signIn(provider)}
            >
              {text.loginWith(provider.platform)}
            </Button>
          </li>
        ))}
      </ul>
      {isApiError(login.error) && (
        <FormMessage tone="error">
          {faultMessage(login.error.faultName, login.error.fault.ExceptionUserText)}
        </FormMessage>
      )}
      <p className="social__divider">
        <span>{text.orUseEmail}</span>
      </p>
    </div>
  );
}
