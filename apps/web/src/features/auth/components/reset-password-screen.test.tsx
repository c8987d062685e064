import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { notificationsStore } from '../../../lib/notifications';
import { fault, mockApi, ok } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const TOKEN = 'reset-token-0123456789';

describe('reset password', () => {
  it('requests a link and shows Please check your inbox', async () => {
    const api = mockApi({ InitiatePasswordReset: ok() });
    const { user } = renderApp('/reset-password', { user: null });
    await screen.findByRole('heading', { level: 1, name: 'Forgot your password?' });
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Please check your inbox' })).toBeInTheDocument();
    expect(api.callsTo('InitiatePasswordReset')[0]?.body).toEqual({ email: 'ada@example.com', silent: true });
  });

  it('shows a request fault under the e-mail field', async () => {
    mockApi({ InitiatePasswordReset: fault('UserLoginNotRegistered') });
    const { user } = renderApp('/reset-password', { user: null });
    await user.type(await screen.findByLabelText('Email'), 'ada@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(await screen.findByText('Login is not registered.')).toBeInTheDocument();
  });

  it('shows the mailbox limit (429) under the e-mail field, and no inbox page (ADR 0031)', async () => {
    mockApi({
      InitiatePasswordReset: fault('AttemptOverLimitMailbox', { ExceptionType: 40, ExceptionCode: 429 }),
    });
    const { user } = renderApp('/reset-password', { user: null });
    await user.type(await screen.findByLabelText('Email'), 'ada+1@example.com');
    await user.click(screen.getByRole('button', { name: 'Send link' }));
    expect(
      await screen.findByText(
        'Too many emails have been sent to this address. Please wait an hour before asking for another one.',
      ),
    ).toBeInTheDocument();
    expect(screen.queryByRole('heading', { level: 1, name: 'Please check your inbox' })).toBeNull();
  });

  it('sets the new password with a path token, then goes to login', async () => {
    const api = mockApi({ PasswordReset: ok() });
    const { user, router } = renderApp(`/reset-password/${TOKEN}`, { user: null });
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Repeat new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'));
    expect(api.callsTo('PasswordReset')[0]?.body).toEqual({ password: 'new-password-1', token: TOKEN });
    expect(notificationsStore.get()[0]?.content).toBe('Your password has been updated successfully.');
  });

  it('accepts the token in the query and validates both entries', async () => {
    const api = mockApi({});
    const { user } = renderApp(`/reset-password?token=${TOKEN}`, { user: null });
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Repeat new password'), 'new-password-2');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    expect(api.calls).toHaveLength(0);
  });

  it('goes back to the request form with the expired message when the link is used up', async () => {
    mockApi({ PasswordReset: fault('ActionTokenExpired') });
    const { user, router } = renderApp(`/reset-password/${TOKEN}`, { user: null });
    await user.type(await screen.findByLabelText('New password'), 'new-password-1');
    await user.type(screen.getByLabelText('Repeat new password'), 'new-password-1');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(
      await screen.findByText('Your request to reset password has already expired. Please try again.'),
    ).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/reset-password');
  });
});
