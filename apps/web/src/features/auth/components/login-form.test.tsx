import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { sessionStore } from '../../../lib/session';
import { fault, inSequence, mockApi, ok, signedIn, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

async function openLogin(path = '/login') {
  const app = renderApp(path, { user: null });
  await screen.findByRole('heading', { level: 1, name: 'Log in' });
  return {
    ...app,
    email: screen.getByLabelText('Email'),
    password: screen.getByLabelText('Password'),
    submit: screen.getByRole('button', { name: 'Log in' }),
  };
}

describe('login form', () => {
  it('keeps submit disabled while a field is blank', async () => {
    const { user, email, password, submit } = await openLogin();
    expect(submit).toBeDisabled();
    await user.type(email, 'ada@example.com');
    expect(submit).toBeDisabled();
    await user.type(password, 'secret-password');
    expect(submit).toBeEnabled();
  });

  it('moves the focus to the first invalid field, without the validator text', async () => {
    const api = mockApi({});
    const { user, email, password, submit } = await openLogin();
    await user.type(email, 'not-an-email');
    await user.type(password, 'short');
    await user.click(submit);
    expect(email).toHaveFocus();
    expect(email).toHaveAttribute('aria-invalid', 'true');
    expect(screen.queryByText('Email address is not in a correct format.')).not.toBeInTheDocument();

    await user.clear(email);
    await user.type(email, 'ada@example.com');
    await user.click(submit);
    expect(password).toHaveFocus();
    expect(api.calls).toHaveLength(0);
  });

  it('signs in with keepMeSignedIn and goes to nextUrl', async () => {
    const api = mockApi({ LoginByEmail: signedIn(testUser) });
    const { user, email, password, submit, router } = await openLogin('/login?nextUrl=%2Fprofile');
    await user.type(email, 'ada@example.com');
    await user.type(password, 'secret-password');
    await user.click(submit);
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(api.callsTo('LoginByEmail')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'secret-password',
      keepMeSignedIn: true,
      getProfile: true,
      silent: true,
    });
    expect(sessionStore.get()).toEqual(testUser);
  });

  it('asks an account with two-step verification for its code, then signs in (ADR 0037)', async () => {
    const api = mockApi({
      LoginByEmail: fault('SecondFactorRequired', {
        ExceptionCode: 401,
        ExceptionVariables: [{ Key: 'Challenge', Value: 'the-challenge' }],
      }),
      LoginSecondFactor: signedIn(testUser),
    });
    const { user, email, password, submit, router } = await openLogin('/login?nextUrl=%2Fprofile');
    await user.type(email, 'ada@example.com');
    await user.type(password, 'secret-password');
    await user.click(submit);
    const code = await screen.findByLabelText('Code');
    expect(screen.getByRole('heading', { name: 'Two-step verification' })).toBeInTheDocument();
    expect(code).toHaveFocus();
    // One passkey choice: the one that completes this sign-in, not the password form's (ADR 0039).
    expect(screen.getAllByRole('button', { name: /passkey/i }).map((button) => button.textContent)).toEqual([
      'Use a passkey',
    ]);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(api.callsTo('LoginSecondFactor')[0]?.body).toEqual({
      challenge: 'the-challenge',
      code: '123 456',
      getProfile: true,
      silent: true,
    });
    expect(sessionStore.get()).toEqual(testUser);
  });

  it('shows a wrong code on the step, and goes back to the password form when the challenge is over', async () => {
    mockApi({
      LoginByEmail: fault('SecondFactorRequired', { ExceptionVariables: [{ Key: 'Challenge', Value: 'c' }] }),
      LoginSecondFactor: inSequence(fault('SecondFactorCodeInvalid'), fault('SecondFactorChallengeInvalid')),
    });
    const { user, email, password, submit } = await openLogin();
    await user.type(email, 'ada@example.com');
    await user.type(password, 'secret-password');
    await user.click(submit);
    await user.type(await screen.findByLabelText('Code'), '000000');
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('That code is not valid. Please try again.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Verify' }));
    expect(await screen.findByText('Your sign-in has expired. Please sign in again.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Sign in with another account' }));
    expect(await screen.findByLabelText('Email')).toHaveValue('ada@example.com');
    expect(screen.getAllByRole('button', { name: /passkey/i }).map((button) => button.textContent)).toEqual([
      'Sign in with a passkey',
    ]);
  });

  it('shows the mapped message of a failed login', async () => {
    mockApi({ LoginByEmail: fault('UserLoginInvalidCredentials') });
    const { user, email, password, submit } = await openLogin();
    await user.type(email, 'ada@example.com');
    await user.type(password, 'wrong-password');
    await user.click(submit);
    expect(await screen.findByRole('alert')).toHaveTextContent(
      "We don't recognize this user. Please check your email address and password.",
    );
  });

  it('offers to resend the verification link when it expired', async () => {
    const api = mockApi({
      LoginByEmail: fault('UserLoginEmailUnverifiedAndLinkExpired'),
      ResendVerificationEmail: ok(),
    });
    const { user, email, password, submit } = await openLogin();
    await user.type(email, 'ada@example.com');
    await user.type(password, 'secret-password');
    await user.click(submit);
    expect(await screen.findByText('Verify your email address to log in.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Resend verification link' }));
    expect(
      await screen.findByText('We have sent you a email verification link. Please check your inbox.'),
    ).toBeInTheDocument();
    expect(api.callsTo('ResendVerificationEmail')[0]?.body).toEqual({
      email: 'ada@example.com',
      password: 'secret-password',
    });
  });

  it('shows social buttons only for configured providers', async () => {
    renderApp('/login', { user: null, config: { SocialProviders: { Apple: { ClientId: 'com.example' } } } });
    expect(await screen.findByRole('button', { name: 'Continue with Apple' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Google' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Continue with Facebook' })).not.toBeInTheDocument();
  });

  it('has a password show/hide toggle', async () => {
    const { user, password } = await openLogin();
    expect(password).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password).toHaveAttribute('type', 'text');
    expect(screen.getByRole('button', { name: 'Hide password' })).toHaveAttribute('aria-pressed', 'true');
  });
});
