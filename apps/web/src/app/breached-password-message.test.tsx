import { faults } from '@soundid/contracts';
import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiErrorsStore } from '../lib/api-errors';
import { fault, mockApi, ok, testUser } from '../testing/mock-api';
import { renderApp } from '../testing/render-app';

/**
 * A new password the service finds in its breached-password list (ADR 0042, ASVS 6.2.12): each
 * form shows why, where it shows the service's faults (docs/requirements.md §8).
 */
const BREACHED = 'This password has appeared in a data breach. Choose a different one.';
// The SPA finds the message by the fault's name in the catalogue, not in the answer's text.
const refused = () => fault('UserPasswordBreached');

describe('a breached new password', () => {
  it('is the catalogue’s message', () => {
    expect(faults.UserPasswordBreached).toEqual({ status: 400, type: 20, message: BREACHED });
  });

  it('sign-up: under the e-mail field, as every sign-up fault', async () => {
    mockApi({ register: refused() });
    const { user } = renderApp('/signup', { user: null });
    const email = await screen.findByLabelText('Email');
    await user.type(email, 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'dantheman123');
    await user.type(screen.getByLabelText('Repeat password'), 'dantheman123');
    await user.click(screen.getByRole('button', { name: 'Sign up' }));
    expect(await screen.findByText(BREACHED)).toHaveAttribute('id', email.getAttribute('aria-describedby'));
    expect(screen.queryByRole('heading', { level: 1, name: 'Please verify your email' })).toBeNull();
  });

  it('reset: in the danger banner, and the form stays for another password', async () => {
    mockApi({ PasswordReset: refused() });
    const { user, router } = renderApp('/reset-password/reset-token-0123456789', { user: null });
    await user.type(await screen.findByLabelText('New password'), 'dantheman123');
    await user.type(screen.getByLabelText('Repeat new password'), 'dantheman123');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(BREACHED);
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['UserPasswordBreached']);
    expect(router.state.location.pathname).toBe('/reset-password/reset-token-0123456789');
    expect(screen.getByRole('button', { name: 'Save password' })).toBeEnabled();
  });

  it('change password: under the form, where its other faults show ("Unknown error" stays for the rest)', async () => {
    mockApi({ GetSessions: ok([]), ChangePassword: refused() });
    const { user } = renderApp('/profile', { user: testUser });
    const row = await screen.findByRole('region', { name: 'Password' });
    await user.click(within(row).getByRole('button', { name: 'Change Password' }));
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'dantheman123');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await within(row).findByText(BREACHED)).toBeInTheDocument();
    expect(screen.queryByText('Unknown error')).toBeNull();
    expect(screen.getByLabelText('New password')).toBeInTheDocument();
  });

  it('set password: under the form, and the account still has none', async () => {
    mockApi({ ChangePassword: refused() });
    const { user, router } = renderApp('/profile/set-password', { user: { ...testUser, HasPassword: false } });
    await user.type(await screen.findByLabelText('New password'), 'dantheman123');
    await user.type(screen.getByLabelText('Repeat new password'), 'dantheman123');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(await screen.findByText(BREACHED)).toBeInTheDocument();
    expect(screen.queryByText('Unknown error')).toBeNull();
    expect(router.state.location.pathname).toBe('/profile/set-password');
  });
});
