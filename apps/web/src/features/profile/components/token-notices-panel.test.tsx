import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiErrorsStore } from '../../../lib/api-errors';
import { fault, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

/** The voice AI token mails on the profile (ADR 0057): two switches and the threshold in tokens. */
const defaults = {
  ExpiryNotices: true,
  LowBalanceNotices: true,
  LowBalanceThreshold: 3000,
  DefaultLowBalanceThreshold: 3000,
};
const others = {
  GetSessions: ok([]),
  GetSecondFactors: ok({ TotpEnabled: false, RecoveryCodesLeft: 0 }),
  ListPasskeys: ok({ Passkeys: [] }),
};

async function openPanel() {
  const app = renderApp('/profile', { user: testUser });
  const panel = await screen.findByRole('region', { name: 'Voice AI token emails' });
  return { ...app, panel };
}

describe('token emails panel', () => {
  it('shows the saved choice and saves both switches and the threshold', async () => {
    const api = mockApi({
      ...others,
      GetNotificationPreferences: ok(defaults),
      SetNotificationPreferences: ok({ ...defaults, ExpiryNotices: false, LowBalanceThreshold: 1200 }),
    });
    const { user, panel } = await openPanel();
    const expiry = await within(panel).findByRole('switch', { name: 'Email me 30, 7 and 1 day before tokens expire' });
    const low = within(panel).getByRole('switch', { name: 'Email me when my token balance runs low' });
    const threshold = within(panel).getByLabelText('Low balance threshold (tokens)');
    expect(expiry).toBeChecked();
    expect(low).toBeChecked();
    expect(threshold).toHaveValue(3000);
    expect(threshold).toHaveAccessibleDescription(
      'About 5 minutes of processing. We email you once each time a spend takes your balance below it. Default: 3,000 tokens (5 minutes of processing).',
    );

    await user.click(expiry);
    await user.clear(threshold);
    await user.type(threshold, '1200');
    expect(threshold).toHaveAccessibleDescription(expect.stringContaining('About 2 minutes of processing.'));
    await user.click(within(panel).getByRole('button', { name: 'Update email preferences' }));
    await waitFor(() => expect(api.callsTo('SetNotificationPreferences')).toHaveLength(1));
    expect(api.callsTo('SetNotificationPreferences')[0]?.body).toEqual({
      expiryNotices: false,
      lowBalanceNotices: true,
      lowBalanceThreshold: 1200,
    });
    expect(await screen.findByText('Your email preferences have been saved.')).toBeInTheDocument();
    expect(expiry).not.toBeChecked();
  });

  it('refuses a threshold that is not a positive whole number and sends nothing', async () => {
    const api = mockApi({ ...others, GetNotificationPreferences: ok(defaults) });
    const { user, panel } = await openPanel();
    const threshold = await within(panel).findByLabelText('Low balance threshold (tokens)');
    for (const typed of ['0', '-5', '1.5']) {
      await user.clear(threshold);
      await user.type(threshold, typed);
      await user.click(within(panel).getByRole('button', { name: 'Update email preferences' }));
      expect(threshold).toHaveAccessibleDescription(
        expect.stringContaining('must be a whole number of tokens greater than zero'),
      );
      expect(threshold).toBeInvalid();
    }
    expect(api.callsTo('SetNotificationPreferences')).toHaveLength(0);
  });

  it('turning low-balance mails off disables the threshold', async () => {
    mockApi({ ...others, GetNotificationPreferences: ok({ ...defaults, LowBalanceNotices: false }) });
    const { panel } = await openPanel();
    expect(
      await within(panel).findByRole('switch', { name: 'Email me when my token balance runs low' }),
    ).not.toBeChecked();
    expect(within(panel).getByLabelText('Low balance threshold (tokens)')).toBeDisabled();
  });

  it('says it could not load the preferences, without a banner, and the rest of the profile stands', async () => {
    mockApi({
      ...others,
      GetNotificationPreferences: fault('ServiceUnavailable', { ExceptionType: 50, ExceptionCode: 503 }),
    });
    const { panel } = await openPanel();
    expect(
      await within(panel).findByText('Your email preferences could not be loaded. Please try again later.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Your data' })).toBeInTheDocument();
    expect(apiErrorsStore.get()).toEqual([]);
  });
});
