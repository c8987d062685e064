import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiErrorsStore } from '../../../lib/api-errors';
import { notificationsStore } from '../../../lib/notifications';
import { sessionStore } from '../../../lib/session';
import { fault, mockApi, ok, signedIn, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const TOKEN = 'a'.repeat(43);
const bannerFaults = () => apiErrorsStore.get().map((e) => e.fault.ExceptionName);

describe('verify e-mail: any other outcome', () => {
  it('goes to the root with the fault in the banner', async () => {
    mockApi({ VerifyEmail: fault('EmailValidationTokenNotFound') });
    const { router } = renderApp(`/verify-email/${TOKEN}`, { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(bannerFaults()).toEqual(['EmailValidationTokenNotFound']);
    expect(await screen.findByRole('alert')).toHaveTextContent('This email verification link is invalid.');
  });

  it('uses the query token and never exchanges it as a session', async () => {
    const api = mockApi({ VerifyEmail: signedIn(testUser), LoginByToken: signedIn(testUser) });
    const { router } = renderApp(`/verify-email?token=${TOKEN}`, { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(api.callsTo('VerifyEmail')[0]?.body).toEqual({ token: TOKEN, silent: true });
    expect(api.callsTo('LoginByToken')[0]?.headers.has('AuthToken')).toBe(false);
  });
});

describe('verify e-mail change', () => {
  it('confirms the new address, refreshes the signed-in user and opens the profile', async () => {
    const changed = { ...testUser, Email: 'new@example.com' };
    mockApi({ VerifyEmailChange: ok({ User: changed }), LoginByToken: signedIn(changed), GetSessions: ok([]) });
    const { router } = renderApp(`/verify-email-change/${TOKEN}`, { user: testUser });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    await waitFor(() => expect(sessionStore.get()?.Email).toBe('new@example.com'));
    expect(notificationsStore.get()[0]?.content).toBe('Your email address has been changed successfully.');
  });

  it.each(['ActionTokenExpired', 'EmailChangeValidationTokenAlreadyUsed', 'EmailChangeValidationTokenNotFound'])(
    'says the link is invalid or expired on %s',
    async (name) => {
      mockApi({ VerifyEmailChange: fault(name) });
      renderApp(`/verify-email-change/${TOKEN}`, { user: null });
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'This email verification link is invalid or has expired.',
      );
      expect(screen.getByRole('link', { name: 'Go to My SoundID' })).toHaveAttribute('href', '/');
      expect(screen.queryByRole('link', { name: 'Index' })).toBeNull();
      expect(bannerFaults()).toEqual([]);
    },
  );

  it('shows the catalogue message of any other fault', async () => {
    mockApi({ VerifyEmailChange: fault('EmailChangeEmailAlreadyUsedByAnotherUser') });
    renderApp(`/verify-email-change/${TOKEN}`, { user: null });
    expect(await screen.findByRole('alert')).toHaveTextContent('Email address already used by another user.');
  });
});

describe('delete account by link', () => {
  it('confirms on load, clears the session and says goodbye', async () => {
    const api = mockApi({ DeleteAccountConfirm: ok() });
    renderApp(`/delete-account?token=${TOKEN}`, { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Goodbye' })).toBeInTheDocument();
    expect(screen.getByRole('status')).toHaveTextContent('Your account has been deleted. Goodbye!');
    expect(sessionStore.get()).toBe(null);
    expect(api.callsTo('DeleteAccountConfirm')).toHaveLength(1);
    expect(api.callsTo('DeleteAccountConfirm')[0]?.body).toEqual({ token: TOKEN, silent: true });
  });

  it('goes to the root with the fault when the deletion fails', async () => {
    mockApi({ DeleteAccountConfirm: fault('AccountDeletionTokenAlreadyUsed') });
    const { router } = renderApp(`/delete-account/${TOKEN}`, { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(bannerFaults()).toEqual(['AccountDeletionTokenAlreadyUsed']);
    expect(await screen.findByRole('alert')).toHaveTextContent('Account already deleted.');
  });
});
