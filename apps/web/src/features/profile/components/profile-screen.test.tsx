import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiErrorsStore } from '../../../lib/api-errors';
import { notificationsStore } from '../../../lib/notifications';
import { sessionStore } from '../../../lib/session';
import { fault, inSequence, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const countries = [
  { Code: 'LV', Name: 'Latvia' },
  { Code: 'US', Name: 'United States' },
];

const sessions = [
  { Id: 's1', Device: 'Chrome on macOS', CreatedAt: 1, LastSeenAt: 1700000000000, ExpiresAt: 2, Current: true },
  { Id: 's2', Device: 'SoundID Reference/5.2', CreatedAt: 1, LastSeenAt: 1700000000000, ExpiresAt: 2, Current: false },
];

const secondFactorsOff = { TotpEnabled: false, RecoveryCodesLeft: 0 };

async function openProfile(user = testUser) {
  const app = renderApp('/profile', { user });
  await screen.findByRole('heading', { level: 1, name: 'Profile' });
  await screen.findByRole('region', { name: 'Password' });
  const row = (name: string) => screen.getByRole('region', { name });
  return { ...app, row };
}

describe('profile', () => {
  it('shows e-mail, address and password rows', async () => {
    const { row } = await openProfile();
    expect(within(row('Email')).getByText('ada@example.com')).toBeInTheDocument();
    expect(within(row('Address')).getByText('No address entered')).toBeInTheDocument();
    expect(within(row('Password')).getByRole('button', { name: 'Change Password' })).toBeInTheDocument();
  });

  it('keeps Save disabled until all five address fields are filled in, then saves', async () => {
    const saved = { AddressLine1: '1 Main St', City: 'Riga', State: 'Riga', PostalCode: 'LV-1010', Country: 'LV' };
    const api = mockApi({
      GetSessions: ok(sessions),
      GetPaymentCountries: ok(countries),
      UpdateUserDetails: ok({ User: { ...testUser, Profile: saved } }),
    });
    const { user, row } = await openProfile();
    await user.click(within(row('Address')).getByRole('button', { name: 'Change Address' }));
    const save = await screen.findByRole('button', { name: 'Save' });
    await user.type(screen.getByLabelText('Street address'), '1 Main St');
    await user.type(screen.getByLabelText('City'), 'Riga');
    await user.type(screen.getByLabelText('State / Province'), 'Riga');
    await user.type(screen.getByLabelText('Postal code'), 'LV-1010');
    expect(save).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Country'), 'LV');
    expect(save).toBeEnabled();
    await user.click(save);
    expect(await within(row('Address')).findByText('1 Main St, Riga, Riga, LV-1010, Latvia')).toBeInTheDocument();
    expect(api.callsTo('UpdateUserDetails')[0]?.body).toEqual({
      addressLine1: '1 Main St',
      city: 'Riga',
      state: 'Riga',
      postalCode: 'LV-1010',
      country: 'LV',
    });
    expect(sessionStore.get()?.Profile).toEqual(saved);
  });

  it('closes the address editor when the country list fails', async () => {
    mockApi({ GetSessions: ok(sessions), GetPaymentCountries: fault('ServiceUnavailable') });
    const { user, row } = await openProfile();
    await user.click(within(row('Address')).getByRole('button', { name: 'Change Address' }));
    expect(await within(row('Address')).findByRole('button', { name: 'Change Address' })).toBeInTheDocument();
    expect(screen.queryByLabelText('City')).not.toBeInTheDocument();
  });

  it('requests an e-mail change and tells the customer to confirm it', async () => {
    const api = mockApi({ GetSessions: ok(sessions), ChangeEmail: ok() });
    const { user, row } = await openProfile();
    await user.click(within(row('Email')).getByRole('button', { name: 'Change Email' }));
    const field = screen.getByLabelText('New email address');
    await user.type(field, 'bad');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(screen.getByText('Email address is not in a correct format.')).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(api.callsTo('ChangeEmail')[0]?.body).toEqual({ newEmail: 'new@example.com' }));
    expect(notificationsStore.get()[0]?.content).toBe(
      'We have sent a confirmation link to your new email address. Please check your inbox.',
    );
  });

  it('shows the e-mail change limit in the editor; other faults go to the banner', async () => {
    mockApi({
      GetSessions: ok(sessions),
      GetSecondFactors: ok(secondFactorsOff),
      ListPasskeys: ok({ Passkeys: [] }),
      ChangeEmail: inSequence(
        fault('AttemptOverLimitChangeEmail', { ExceptionType: 40, ExceptionCode: 429 }),
        fault('EmailChangeEmailAlreadyUsedByAnotherUser'),
      ),
    });
    const { user, row } = await openProfile();
    await user.click(within(row('Email')).getByRole('button', { name: 'Change Email' }));
    await user.type(screen.getByLabelText('New email address'), 'new@example.com');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    const limit = await within(row('Email')).findByRole('alert');
    expect(limit).toHaveTextContent('Too many email change requests. Please try again later.');
    expect(apiErrorsStore.get()).toEqual([]);

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual([
        'EmailChangeEmailAlreadyUsedByAnotherUser',
      ]),
    );
    expect(within(row('Email')).queryByRole('alert')).not.toBeInTheDocument();
    expect(screen.getByLabelText('New email address')).toBeInTheDocument();
  });

  it('changes the password: wrong old password, the sign-in lockout, other faults, success', async () => {
    const api = mockApi({
      GetSessions: ok(sessions),
      ChangePassword: inSequence(
        fault('UserPasswordChangeOldPasswordInvalid'),
        fault('AttemptOverLimitLogin', { ExceptionCode: 429 }),
        fault('UserSaveFailure'),
        ok(),
      ),
    });
    const { user, row } = await openProfile();
    await user.click(within(row('Password')).getByRole('button', { name: 'Change Password' }));
    await user.type(screen.getByLabelText('Current password'), 'old-password');
    await user.type(screen.getByLabelText('New password'), 'new-password');
    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Old password is not correct.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Login failed. Please try again after 5 minutes.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Unknown error')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(screen.queryByLabelText('Current password')).not.toBeInTheDocument());
    expect(api.callsTo('ChangePassword')[3]?.body).toEqual({
      oldPassword: 'old-password',
      newPassword: 'new-password',
      silent: true,
    });
    expect(notificationsStore.get()[0]?.content).toBe('Your password has been updated successfully.');
  });

  it('asks before requesting the account deletion mail', async () => {
    const api = mockApi({ GetSessions: ok(sessions), DeleteAccount: ok() });
    const { user } = await openProfile();
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    expect(screen.getByText('Are you sure? This cannot be undone.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('DeleteAccount')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete my account' }));
    await waitFor(() => expect(api.callsTo('DeleteAccount')).toHaveLength(1));
    expect(notificationsStore.get()[0]?.content).toBe(
      'We have sent you an email to confirm the deletion of your account. Please check your inbox.',
    );
  });

  it('goes to the root with the fault when the deletion request fails', async () => {
    mockApi({
      GetSessions: ok(sessions),
      GetSecondFactors: ok(secondFactorsOff),
      ListPasskeys: ok({ Passkeys: [] }),
      DeleteAccount: fault('UserSaveFailure', { ExceptionCode: 500 }),
    });
    const { user, router } = await openProfile();
    await user.click(screen.getByRole('button', { name: 'Delete account' }));
    await user.click(screen.getByRole('button', { name: 'Yes, delete my account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['UserSaveFailure']);
  });

  it('lets a social-only account set a first password', async () => {
    const api = mockApi({ GetSessions: ok(sessions), ChangePassword: ok() });
    const { user, router } = renderApp('/profile/set-password', { user: { ...testUser, HasPassword: false } });
    await user.type(await screen.findByLabelText('New password'), 'first-password');
    await user.type(screen.getByLabelText('Repeat new password'), 'other-password');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    expect(screen.getByText('Passwords do not match.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Repeat new password'));
    await user.type(screen.getByLabelText('Repeat new password'), 'first-password');
    await user.click(screen.getByRole('button', { name: 'Save password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(api.callsTo('ChangePassword')[0]?.body).toEqual({
      oldPassword: '',
      newPassword: 'first-password',
      silent: true,
    });
    expect(sessionStore.get()?.HasPassword).toBe(true);
  });

  it('lists where the customer is signed in and signs out the other devices after the password', async () => {
    const api = mockApi({
      GetSessions: inSequence(ok(sessions), ok(sessions.slice(0, 1))),
      EndOtherSessions: inSequence(fault('ReauthenticationPasswordInvalid'), ok()),
    });
    const { user } = await openProfile();
    const panel = await screen.findByRole('region', { name: 'Where you are signed in' });
    expect(await within(panel).findByText('SoundID Reference/5.2')).toBeInTheDocument();
    expect(within(panel).getByText('This device')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Sign out all other devices' }));
    const password = within(panel).getByLabelText('Password');
    expect(password).toHaveFocus();
    expect(within(panel).getByRole('button', { name: 'Sign out all other devices' })).toBeDisabled();
    await user.type(password, 'wrong one');
    await user.click(within(panel).getByRole('button', { name: 'Sign out all other devices' }));
    expect(await within(panel).findByText('Password is not correct.')).toBeInTheDocument();
    await user.clear(password);
    await user.type(password, 'the password');
    await user.click(within(panel).getByRole('button', { name: 'Sign out all other devices' }));
    await waitFor(() => expect(api.callsTo('EndOtherSessions')).toHaveLength(2));
    expect(api.callsTo('EndOtherSessions')[1]?.body).toMatchObject({ password: 'the password' });
    await waitFor(() => expect(within(panel).queryByText('SoundID Reference/5.2')).not.toBeInTheDocument());
    expect(within(panel).queryByRole('button', { name: 'Sign out all other devices' })).not.toBeInTheDocument();
    expect(notificationsStore.get()[0]?.content).toBe('You have been signed out on every other device.');
  });
});
