import { screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiErrorsStore } from '../../../lib/api-errors';
import { notificationsStore } from '../../../lib/notifications';
import { sessionStore } from '../../../lib/session';
import { fault, mockApi, signedIn, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

// The providers' scripts come from their sites; here the globals they define are stand-ins.
vi.mock('../../../lib/load-script', () => ({ loadScript: vi.fn(async () => undefined) }));

const providers = { SocialProviders: { Google: { ClientId: 'g-client' }, Apple: { ClientId: 'a-client' } } };

type GoogleOutcome = { access_token: string } | { popupError: string };
function stubGoogle(outcome: GoogleOutcome) {
  window.google = {
    accounts: {
      oauth2: {
        initTokenClient: (config) => ({
          requestAccessToken: () =>
            'popupError' in outcome
              ? config.error_callback?.({ type: outcome.popupError })
              : config.callback({ access_token: outcome.access_token }),
        }),
      },
    },
  };
}

function stubApple(signIn: () => Promise<{ authorization: { id_token: string } }>) {
  window.AppleID = { auth: { init: () => undefined, signIn } };
}

afterEach(() => {
  delete window.google;
  delete window.AppleID;
});

async function openLogin() {
  const app = renderApp('/login', { user: null, config: providers });
  await screen.findByRole('button', { name: 'Continue with Google' });
  return app;
}

describe('social sign-in buttons', () => {
  it('signs in with a Google access token', async () => {
    const api = mockApi({ LoginBySocial: signedIn(testUser) });
    stubGoogle({ access_token: 'google-token' });
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    await waitFor(() => expect(sessionStore.get()).toEqual(testUser));
    expect(api.callsTo('LoginBySocial')[0]?.body).toEqual({
      socialPlatform: 'Google',
      token: 'google-token',
      tokenType: 'access_token',
      keepMeSignedIn: true,
      getProfile: true,
      silent: true,
    });
  });

  it('signs in with an Apple id token', async () => {
    const api = mockApi({ LoginBySocial: signedIn(testUser) });
    stubApple(async () => ({ authorization: { id_token: 'apple-id-token' } }));
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    await waitFor(() => expect(sessionStore.get()).toEqual(testUser));
    expect(api.callsTo('LoginBySocial')[0]?.body).toMatchObject({
      socialPlatform: 'Apple',
      token: 'apple-id-token',
      tokenType: 'id_token',
    });
  });

  it('ignores a closed Google popup and a closed or cancelled Apple popup', async () => {
    const api = mockApi({});
    const { user } = await openLogin();
    stubGoogle({ popupError: 'popup_closed' });
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    for (const error of ['popup_closed_by_user', 'user_cancelled_authorize']) {
      stubApple(() => Promise.reject({ error }));
      await user.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    }
    await waitFor(() => expect(screen.getByRole('button', { name: 'Continue with Apple' })).toBeEnabled());
    expect(api.callsTo('LoginBySocial')).toEqual([]);
    expect(notificationsStore.get()).toEqual([]);
    expect(apiErrorsStore.get()).toEqual([]);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a danger notice for any other Apple error', async () => {
    mockApi({});
    const { user } = await openLogin();
    stubApple(() => Promise.reject({ error: 'invalid_client' }));
    await user.click(screen.getByRole('button', { name: 'Continue with Apple' }));
    await waitFor(() =>
      expect(notificationsStore.get().map((n) => [n.type, n.content])).toEqual([['danger', 'Unknown error.']]),
    );
  });

  it('shows the service fault of a refused provider token under the buttons', async () => {
    mockApi({ LoginBySocial: fault('SocialLoginTokenInvalid', { ExceptionCode: 401 }) });
    stubGoogle({ access_token: 'forged' });
    const { user } = await openLogin();
    await user.click(screen.getByRole('button', { name: 'Continue with Google' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The sign-in with the provider could not be verified.');
    expect(sessionStore.get()).toBe(null);
  });
});
