import { type FaultBody, faults } from '@soundid/contracts';
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { apiErrorsStore, showApiError } from '../lib/api-errors';
import { ErrorBanner } from './error-banner';

const fault = (ExceptionName: string, ExceptionUserText = ''): FaultBody => ({
  ExceptionName,
  ExceptionType: 20,
  ExceptionCode: 400,
  ExceptionUserText,
  ExceptionVariables: [],
});

describe('error banner', () => {
  it('shows the catalogue message, the server text for unknown names, and closes by hand', async () => {
    render(<ErrorBanner />);
    act(() => {
      showApiError(fault('KeyAlreadyExisting', 'ignored: the catalogue has this one'));
      showApiError(fault('SomethingNew', 'What the server said.'));
    });
    const alerts = screen.getAllByRole('alert');
    expect(alerts.map((a) => a.textContent)).toEqual([
      'This license activation key has already been registered for your account.×',
      'What the server said.×',
    ]);
    await userEvent.click(within(alerts[0] as HTMLElement).getByRole('button', { name: 'Close' }));
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['SomethingNew']);
  });

  // The first load carries only the faults the SPA knows by name (fault-table.ts, ADR 0020); the
  // rest of the catalogue reaches the banner as the service sends it, in its own message.
  it('shows the server text of a fault outside the table, and RequestInvalid in its one message', () => {
    render(<ErrorBanner />);
    act(() => {
      showApiError(fault('PasskeyLimitReached', faults.PasskeyLimitReached.message));
      showApiError(fault('RequestInvalid', 'Voice AI upgrade codes are UPG- codes only.'));
    });
    expect(screen.getAllByRole('alert').map((a) => a.textContent)).toEqual([
      'Your account has the most passkeys it can hold. Remove one to add another.×',
      'The request is not valid.×',
    ]);
  });

  it('adds a Learn more link to the deactivation-limit message (docs/requirements.md §8)', () => {
    render(<ErrorBanner />);
    act(() => showApiError(fault('KeyRevokeOverLimit')));
    const alert = screen.getByRole('alert');
    expect(alert).toHaveTextContent('You have reached license deactivation limit. Learn more');
    expect(within(alert).getByRole('link', { name: 'Learn more' })).toHaveAttribute(
      'href',
      expect.stringMatching(/^https:\/\/support\.sonarworks\.com\//),
    );
  });

  it('has no link for other faults', () => {
    render(<ErrorBanner />);
    act(() => showApiError(fault('KeyNotFound')));
    expect(within(screen.getByRole('alert')).queryByRole('link')).not.toBeInTheDocument();
  });
});
