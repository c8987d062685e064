import { formatHistoryDate } from '@soundid/contracts';
import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiErrorsStore } from '../../../lib/api-errors';
import { sessionStore } from '../../../lib/session';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

/**
 * The page of a new-device mail's "This wasn't me" link (ADR 0041; ASVS 5.0 V6.3.5): it reports
 * the sign-in on load, once, and says what was done; a link no longer valid says so.
 */
const TOKEN = 'r'.repeat(43);
const FROZEN_UNTIL = Date.UTC(2026, 0, 16, 10, 0);

describe("This wasn't me", () => {
  it('reports on load, once, signs this browser out and says what was done', async () => {
    const api = mockApi({ ReportSignIn: ok({ EmailChangesFrozenUntil: FROZEN_UNTIL }) });
    renderApp(`/report-sign-in/${TOKEN}`, { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Secure your account' })).toBeInTheDocument();
    expect(await screen.findByText(/Your account is safe again/)).toHaveAttribute('role', 'status');
    expect(screen.getByText('Every device signed in to your account has been signed out.')).toBeInTheDocument();
    expect(screen.getByText(/Your password no longer works\. We have emailed you a link/)).toBeInTheDocument();
    expect(
      screen.getByText(`Your email address cannot be changed until ${formatHistoryDate(FROZEN_UNTIL)}.`),
    ).toBeInTheDocument();
    expect(screen.getByText(/check the passkeys and two-step verification/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to log in' })).toHaveAttribute('href', '/login');
    expect(sessionStore.get()).toBe(null);
    expect(api.callsTo('ReportSignIn')).toHaveLength(1);
    expect(api.callsTo('ReportSignIn')[0]?.body).toEqual({ token: TOKEN, silent: true });
  });

  it('takes the token from the query too', async () => {
    const api = mockApi({ ReportSignIn: ok({ EmailChangesFrozenUntil: FROZEN_UNTIL }) });
    renderApp(`/report-sign-in?token=${TOKEN}`, { user: null });
    expect(await screen.findByText(/Your account is safe again/)).toHaveAttribute('role', 'status');
    expect(api.callsTo('ReportSignIn')[0]?.body).toEqual({ token: TOKEN, silent: true });
  });

  it.each(['ActionTokenAlreadyUsed', 'ActionTokenExpired', 'ActionTokenNotFound'])(
    'says the link is no longer valid on %s, and offers a password reset',
    async (name) => {
      mockApi({ ReportSignIn: fault(name) });
      renderApp(`/report-sign-in/${TOKEN}`, { user: null });
      expect(await screen.findByRole('alert')).toHaveTextContent(
        'This link is invalid, has expired or has already been used.',
      );
      expect(screen.getByRole('link', { name: 'Reset password' })).toHaveAttribute('href', '/reset-password');
      expect(apiErrorsStore.get()).toEqual([]);
    },
  );

  it('shows the catalogue message of any other fault', async () => {
    mockApi({ ReportSignIn: fault('ServiceUnavailable') });
    renderApp(`/report-sign-in/${TOKEN}`, { user: null });
    expect(await screen.findByRole('alert')).toHaveTextContent('The service is temporarily unavailable.');
  });

  it('goes to the root without a token', async () => {
    const api = mockApi({});
    const { router } = renderApp('/report-sign-in', { user: testUser });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(api.callsTo('ReportSignIn')).toHaveLength(0);
  });
});
