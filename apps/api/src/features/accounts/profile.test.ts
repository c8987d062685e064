import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const address = {
  addressLine1: '1 Abbey Road',
  city: 'London',
  state: 'Greater London',
  postalCode: 'NW8 9AY',
  country: 'GB',
};

describe('profile and address', () => {
  it('GetOrUpdateProfile returns the user; UpdateUserDetails saves the address', async () => {
    const token = await signUpVerified(t, 'lea@example.com');
    const profile = await t.call('/api/accounts/GetOrUpdateProfile', {}, token);
    expect(profile.json().Result).toMatchObject({ Email: 'lea@example.com', EmailVerified: true, HasPassword: true });
    const res = await t.call('/api/accounts/UpdateUserDetails', address, token);
    expect(res.json().Result.User.Profile).toEqual({
      AddressLine1: '1 Abbey Road',
      City: 'London',
      State: 'Greater London',
      PostalCode: 'NW8 9AY',
      Country: 'GB',
    });
    const missing = await t.call('/api/accounts/UpdateUserDetails', { ...address, city: '' }, token);
    expect(missing.statusCode).toBe(400);
  });
});

describe('ChangePassword', () => {
  it('needs the old password, then ends the other sessions but keeps this one (ASVS 7.4.3)', async () => {
    const first = await signUpVerified(t, 'max@example.com');
    const other = (await t.call('/api/accounts/LoginByEmail', { email: 'max@example.com', password: PASSWORD })).json()
      .Token;
    const wrong = await t.call(
      '/api/accounts/ChangePassword',
      { oldPassword: 'not it at all', newPassword: 'new password 1' },
      first,
    );
    expect(wrong.json().Fault).toMatchObject({
      ExceptionName: 'UserPasswordChangeOldPasswordInvalid',
      ExceptionUserText: 'Old password is not correct.',
    });
    const ok = await t.call(
      '/api/accounts/ChangePassword',
      { oldPassword: PASSWORD, newPassword: 'new password 1' },
      first,
    );
    expect(ok.json()).toEqual({ Success: true, Result: {} });
    expect((await t.call('/api/accounts/LoginByToken', {}, first)).statusCode).toBe(200);
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, other))).toBe('UserAuthenticationFailed');
    const relogin = await t.call('/api/accounts/LoginByEmail', {
      email: 'max@example.com',
      password: 'new password 1',
    });
    expect(relogin.statusCode).toBe(200);
  });
});

describe('ChangeEmail', () => {
  it('mails a link to the new address and changes it when opened', async () => {
    const token = await signUpVerified(t, 'ned@example.com');
    const res = await t.call('/api/accounts/ChangeEmail', { newEmail: 'ned.new@example.com' }, token);
    expect(res.json()).toEqual({ Success: true, Result: {} });
    const [mail] = await t.mailsTo('ned.new@example.com');
    expect(mail?.Links[0]).toMatch(/\/verify-email-change\//);
    const link = await t.lastLinkToken('ned.new@example.com');
    const confirmed = await t.call('/api/accounts/VerifyEmailChange', { token: link });
    expect(confirmed.json().Result.User).toMatchObject({ Email: 'ned.new@example.com', EmailVerified: true });
    expect(faultOf(await t.call('/api/accounts/VerifyEmailChange', { token: link }))).toBe(
      'EmailChangeValidationTokenAlreadyUsed',
    );
    expect(faultOf(await t.call('/api/accounts/VerifyEmailChange', { token: 'z'.repeat(43) }))).toBe(
      'EmailChangeValidationTokenNotFound',
    );
    const login = await t.call('/api/accounts/LoginByEmail', { email: 'ned.new@example.com', password: PASSWORD });
    expect(login.statusCode).toBe(200);
  });

  it('refuses an address used by another account, also when taken before the link is opened', async () => {
    const token = await signUpVerified(t, 'ola@example.com');
    await signUpVerified(t, 'pam@example.com');
    const taken = await t.call('/api/accounts/ChangeEmail', { newEmail: 'PAM@example.com' }, token);
    expect(taken.json().Fault).toMatchObject({
      ExceptionName: 'EmailChangeEmailAlreadyUsedByAnotherUser',
      ExceptionUserText: 'Email address already used by another user.',
    });
    await t.call('/api/accounts/ChangeEmail', { newEmail: 'race@example.com' }, token);
    const link = await t.lastLinkToken('race@example.com');
    await signUpVerified(t, 'race@example.com');
    expect(faultOf(await t.call('/api/accounts/VerifyEmailChange', { token: link }))).toBe(
      'EmailChangeEmailAlreadyUsedByAnotherUser',
    );
  });

  it('expires the link after 24 hours', async () => {
    const token = await signUpVerified(t, 'quin@example.com');
    await t.call('/api/accounts/ChangeEmail', { newEmail: 'quin2@example.com' }, token);
    const link = await t.lastLinkToken('quin2@example.com');
    t.clock.advanceHours(25);
    expect(faultOf(await t.call('/api/accounts/VerifyEmailChange', { token: link }))).toBe('ActionTokenExpired');
  });

  it('limits e-mail change requests', async () => {
    const token = await signUpVerified(t, 'ray@example.com');
    for (let i = 0; i < 5; i++) {
      const res = await t.call('/api/accounts/ChangeEmail', { newEmail: `ray${i}@example.com` }, token);
      expect(res.statusCode).toBe(200);
    }
    const over = await t.call('/api/accounts/ChangeEmail', { newEmail: 'ray9@example.com' }, token);
    expect(over.statusCode).toBe(429);
    expect(faultOf(over)).toBe('AttemptOverLimitChangeEmail');
    t.clock.advanceMinutes(61);
    // An hour on, the sign-in no longer proves presence: a step-up first (ADR 0040).
    await t.call('/api/accounts/StepUp', { method: 'Password', password: PASSWORD }, token);
    expect((await t.call('/api/accounts/ChangeEmail', { newEmail: 'ray9@example.com' }, token)).statusCode).toBe(200);
  });
});

describe('password reset', () => {
  it('answers the same for known and unknown addresses and mails only the known one', async () => {
    await signUpVerified(t, 'sam@example.com');
    const known = await t.call('/api/accounts/InitiatePasswordReset', { email: 'sam@example.com' });
    const unknown = await t.call('/api/accounts/InitiatePasswordReset', { email: 'ghost@example.com' });
    expect(known.statusCode).toBe(unknown.statusCode);
    expect(known.body).toBe(unknown.body);
    expect(await t.mailsTo('ghost@example.com')).toHaveLength(0);
    expect((await t.mailsTo('sam@example.com'))[0]?.Links[0]).toMatch(/\/reset-password\//);
  });

  it('sets the password once, ends every session, and refuses a used or expired link', async () => {
    await signUpVerified(t, 'sal@example.com');
    await t.call('/api/accounts/InitiatePasswordReset', { email: 'sal@example.com' });
    const session = (
      await t.call('/api/accounts/LoginByEmail', { email: 'sal@example.com', password: PASSWORD })
    ).json().Token;
    const link = await t.lastLinkToken('sal@example.com');
    const res = await t.call('/api/accounts/PasswordReset', { token: link, password: 'brand new secret' });
    expect(res.json()).toEqual({ Success: true, Result: {} });
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, session))).toBe('UserAuthenticationFailed');
    expect(faultOf(await t.call('/api/accounts/PasswordReset', { token: link, password: 'another secret' }))).toBe(
      'ActionTokenAlreadyUsed',
    );
    expect(
      (await t.call('/api/accounts/LoginByEmail', { email: 'sal@example.com', password: 'brand new secret' }))
        .statusCode,
    ).toBe(200);

    await t.call('/api/accounts/InitiatePasswordReset', { email: 'sal@example.com' });
    const late = await t.lastLinkToken('sal@example.com');
    t.clock.advanceHours(2);
    expect(faultOf(await t.call('/api/accounts/PasswordReset', { token: late, password: 'too late now' }))).toBe(
      'ActionTokenExpired',
    );
    expect(
      faultOf(await t.call('/api/accounts/PasswordReset', { token: 'q'.repeat(43), password: 'whatever 123' })),
    ).toBe('TokenInvalid');
  });

  it('lifts a sign-in lockout', async () => {
    await signUpVerified(t, 'tia@example.com');
    for (let i = 0; i < 5; i++)
      await t.call('/api/accounts/LoginByEmail', { email: 'tia@example.com', password: 'bad bad bad' });
    await t.call('/api/accounts/InitiatePasswordReset', { email: 'tia@example.com' });
    await t.call('/api/accounts/PasswordReset', {
      token: await t.lastLinkToken('tia@example.com'),
      password: 'fresh password',
    });
    expect(
      (await t.call('/api/accounts/LoginByEmail', { email: 'tia@example.com', password: 'fresh password' })).statusCode,
    ).toBe(200);
  });
});

describe('account deletion', () => {
  it('mails a confirmation link; the link deletes the account, ends its sessions and mails a goodbye', async () => {
    const token = await signUpVerified(t, 'uma@example.com');
    const req = await t.call('/api/accounts/DeleteAccount', {}, token);
    expect(req.json()).toEqual({ Success: true, Result: {} });
    const link = await t.lastLinkToken('uma@example.com');
    expect((await t.mailsTo('uma@example.com'))[0]?.Links[0]).toMatch(/\/delete-account\//);
    const confirm = await t.call('/api/accounts/DeleteAccountConfirm', { token: link });
    expect(confirm.json()).toEqual({ Success: true, Result: {} });
    expect(confirm.headers['set-cookie']).toMatch(/soundid_session=;/);
    const [goodbye] = await t.mailsTo('uma@example.com');
    expect(goodbye?.Links).toEqual([]);
    expect(faultOf(await t.call('/api/accounts/DeleteAccountConfirm', { token: link }))).toBe(
      'AccountDeletionTokenAlreadyUsed',
    );
    expect(faultOf(await t.call('/api/accounts/DeleteAccountConfirm', { token: 'd'.repeat(43) }))).toBe(
      'AccountDeletionTokenNotFound',
    );
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, token))).toBe('UserAuthenticationFailed');
    expect(faultOf(await t.call('/api/accounts/LoginByEmail', { email: 'uma@example.com', password: PASSWORD }))).toBe(
      'UserLoginInvalidCredentials',
    );
    expect((await t.call('/api/accounts/register', { email: 'uma@example.com', password: PASSWORD })).statusCode).toBe(
      201,
    );
  });
});
