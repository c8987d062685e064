import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notificationsStore } from '../../../lib/notifications';
import { sessionStore } from '../../../lib/session';
import { fault, mockApi, ok, signedIn, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const TOKEN = 'verify-token-0123456789';

describe('verify e-mail', () => {
  it('verifies, signs in and goes to products with a notice', async () => {
    const api = mockApi({
      VerifyEmail: signedIn(testUser),
      LoginByToken: signedIn(testUser),
    });
    const { router } = renderApp(`/verify-email/${TOKEN}`, { user: null });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(api.callsTo('VerifyEmail')).toHaveLength(1);
    expect(sessionStore.get()).toEqual(testUser);
    expect(notificationsStore.get()[0]?.content).toBe('Your email address has been verified successfully.');
  });

  it('offers a new link when the link expired', async () => {
    const api = mockApi({
      VerifyEmail: fault('ActionTokenExpired'),
      ResendVerificationEmailForToken: ok(),
    });
    const { user } = renderApp(`/verify-email/${TOKEN}`, { user: null });
    expect(await screen.findByRole('heading', { level: 1, name: 'Verification link expired' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend link' }));
    expect(
      await screen.findByText('We have sent you a email verification link. Please check your inbox.'),
    ).toBeInTheDocument();
    expect(api.callsTo('ResendVerificationEmailForToken')[0]?.body).toEqual({ token: TOKEN });
  });

  it('notifies that a used link is invalid and goes to the root', async () => {
    mockApi({ VerifyEmail: fault('ActionTokenAlreadyUsed') });
    const { router } = renderApp(`/verify-email/${TOKEN}`, { user: testUser });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(
      await screen.findByText('This email verification link is invalid or has been used already.'),
    ).toBeInTheDocument();
  });
});
