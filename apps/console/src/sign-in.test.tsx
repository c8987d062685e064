import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { SOFTWARE_HEADER } from './lib/api';
import { meAnswer, mockApi } from './testing/api-mock';
import { renderConsole } from './testing/render';

describe('sign-in (ADR 0044: password, then the authenticator code)', () => {
  it('asks for the password, then the code, then opens the first screen of the roles', async () => {
    let signedIn = false;
    const api = mockApi({
      '/api/admin/OperatorMe': () => (signedIn ? meAnswer(['support'])() : { Fault: 'AdminTokenInvalid', status: 401 }),
      '/api/admin/OperatorLogin': () => ({ Result: { Challenge: 'challenge-1' } }),
      '/api/admin/OperatorLoginSecondFactor': () => {
        signedIn = true;
        // The console asks for the cookie answer (the default): no Token in the body (ADR 0047).
        return { Result: { Operator: {}, ExpiresAt: '2026-01-01T00:00:00.000Z' } };
      },
      '/api/admin/search-customers': () => ({ Result: { Customers: [], More: false } }),
    });
    const { user } = renderConsole('/');

    // Nobody signed in: sign-in, without a word about an ended session.
    await screen.findByRole('heading', { name: 'Sign in to the console' });
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.queryByLabelText('Code from your authenticator app')).toBeNull();
    await user.type(screen.getByLabelText('E-mail'), 'olga@operators.example.com');
    await user.type(screen.getByLabelText('Password'), 'a long operator password');
    await user.click(screen.getByRole('button', { name: 'Continue' }));

    const code = await screen.findByLabelText('Code from your authenticator app');
    expect(code).toHaveFocus();
    expect(api.to('/api/admin/OperatorLogin')[0]?.body).toEqual({
      email: 'olga@operators.example.com',
      password: 'a long operator password',
    });
    expect(api.to('/api/admin/OperatorLoginSecondFactor')).toHaveLength(0);
    await user.type(code, '123 456');
    await user.click(screen.getByRole('button', { name: 'Sign in' }));

    await screen.findByRole('heading', { name: 'Customers' });
    expect(api.to('/api/admin/OperatorLoginSecondFactor')[0]?.body).toEqual({
      challenge: 'challenge-1',
      code: '123456',
    });
    // Every call names the console: the service counts its cookie only with this header.
    expect(api.calls.every((call) => call.headers.get('Software') === SOFTWARE_HEADER)).toBe(true);
    expect(screen.getByRole('link', { name: 'Customers' })).toHaveAttribute('aria-current', 'page');
  });

  it('sends an operator who is signed in on from the sign-in screen to the console', async () => {
    const api = mockApi({
      '/api/admin/OperatorMe': meAnswer(['support']),
      '/api/admin/search-customers': () => ({ Result: { Customers: [], More: false } }),
    });
    renderConsole('/sign-in');
    await screen.findByRole('heading', { name: 'Customers' });
    await waitFor(() => expect(window.location.pathname).toBe('/console/customers'));
    expect(api.to('/api/admin/OperatorLogin')).toHaveLength(0);
  });

  it("shows the service's fault for a wrong password and stays on the password step", async () => {
    mockApi({
      '/api/admin/OperatorMe': () => ({ Fault: 'AdminTokenInvalid', status: 401 }),
      '/api/admin/OperatorLogin': () => ({
        Fault: 'OperatorSignInFailed',
        status: 401,
        text: 'Wrong e-mail or password.',
      }),
    });
    const { user } = renderConsole('/sign-in');
    await user.type(await screen.findByLabelText('E-mail'), 'olga@operators.example.com');
    await user.type(screen.getByLabelText('Password'), 'wrong');
    await user.click(screen.getByRole('button', { name: 'Continue' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Wrong e-mail or password.');
    expect(screen.queryByLabelText('Code from your authenticator app')).toBeNull();
  });

  it('returns to sign-in with a message when the session has ended (idle for 15 minutes)', async () => {
    let ended = false;
    mockApi({
      '/api/admin/OperatorMe': () =>
        ended
          ? { Fault: 'AdminTokenInvalid', status: 401, text: 'Sign in as an operator: the session is expired.' }
          : meAnswer(['support'])(),
      '/api/admin/search-customers': () => {
        ended = true;
        return { Fault: 'AdminTokenInvalid', status: 401, text: 'Sign in as an operator: the session is expired.' };
      },
    });
    sessionStorage.setItem('console.signedIn', '1');
    const { user } = renderConsole('/customers');
    await user.type(await screen.findByLabelText('Find a customer'), 'carla@');
    await user.click(screen.getByRole('button', { name: 'Search' }));

    await screen.findByRole('heading', { name: 'Sign in to the console' });
    expect(screen.getByRole('alert')).toHaveTextContent(
      'Your session has ended. Sign in as an operator: the session is expired.',
    );
    await waitFor(() => expect(window.location.pathname).toBe('/console/sign-in'));
  });
});
