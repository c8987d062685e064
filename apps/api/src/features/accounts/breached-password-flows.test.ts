import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, freshSession, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { seededStrings } from '../../../test/seeded-strings';
import { users } from '../../db/schema';
import { sharedBreachedPasswords } from './breached-passwords';
import { isCommonPassword } from './password-policy';
import { findUserByEmail } from './users-repo';

/** In SecLists' 10-million-password list, and not in zxcvbn-ts's common dictionary. */
const BREACHED = ['dantheman123', 'lk9slwGh3x'];
const REFUSED = {
  ExceptionName: 'UserPasswordBreached',
  ExceptionType: 20,
  ExceptionCode: 400,
  ExceptionUserText: 'This password has appeared in a data breach. Choose a different one.',
  ExceptionVariables: [],
};
/** Random strong passwords, the same in every run. */
const strong = seededStrings(6_2_12, 16, 24);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (email: string, password = PASSWORD) =>
  t.call('/api/accounts/LoginByEmail', { email, password, keepMeSignedIn: true });
const hashOf = async (email: string) => (await findUserByEmail(t.database.db, email))?.passwordHash;

describe('a breached password is refused wherever one is chosen (ASVS 6.2.12, 6.2.4; ADR 0042)', () => {
  it('the examples pass the common-password rule: only the breached list refuses them', async () => {
    for (const password of BREACHED) {
      expect(isCommonPassword(password), password).toBe(false);
      expect(await sharedBreachedPasswords().has(password), password).toBe(true);
    }
  });

  it('sign-up: refused with the reason, no account and no mail; a random strong password signs up', async () => {
    for (const password of BREACHED) {
      const res = await t.call('/api/accounts/register', { email: 'bree@example.com', password });
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ Success: false, Fault: REFUSED });
    }
    expect(await findUserByEmail(t.database.db, 'bree@example.com')).toBeUndefined();
    expect(await t.mailsTo('bree@example.com')).toEqual([]);

    const res = await t.call('/api/accounts/register', { email: 'bree@example.com', password: strong() });
    expect(res.statusCode).toBe(201);
  });

  it('reset: refused, the link still works and the old password still signs in; a random strong one is set', async () => {
    const session = await signUpVerified(t, 'reset-breach@example.com');
    await t.call('/api/accounts/InitiatePasswordReset', { email: 'reset-breach@example.com' });
    const link = await t.lastLinkToken('reset-breach@example.com');
    const before = await hashOf('reset-breach@example.com');

    const res = await t.call('/api/accounts/PasswordReset', { token: link, password: BREACHED[0] });
    expect(res.statusCode).toBe(400);
    expect(res.json().Fault).toEqual(REFUSED);
    expect(await hashOf('reset-breach@example.com')).toBe(before);
    expect((await t.call('/api/accounts/LoginByToken', {}, session)).statusCode).toBe(200);
    expect((await login('reset-breach@example.com')).statusCode).toBe(200);

    const chosen = strong();
    expect((await t.call('/api/accounts/PasswordReset', { token: link, password: chosen })).statusCode).toBe(200);
    expect((await login('reset-breach@example.com', chosen)).statusCode).toBe(200);
  });

  it('change: refused, the password and the other sessions stay; a random strong one replaces it', async () => {
    await signUpVerified(t, 'change-breach@example.com');
    const token = await freshSession(t, 'change-breach@example.com');
    const other = await freshSession(t, 'change-breach@example.com');
    const before = await hashOf('change-breach@example.com');

    const res = await t.call(
      '/api/accounts/ChangePassword',
      { oldPassword: PASSWORD, newPassword: BREACHED[1] },
      token,
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().Fault).toEqual(REFUSED);
    expect(await hashOf('change-breach@example.com')).toBe(before);
    expect((await t.call('/api/accounts/LoginByToken', {}, other)).statusCode).toBe(200);

    const chosen = strong();
    const changed = await t.call('/api/accounts/ChangePassword', { oldPassword: PASSWORD, newPassword: chosen }, token);
    expect(changed.json()).toEqual({ Success: true, Result: {} });
    expect((await login('change-breach@example.com', chosen)).statusCode).toBe(200);
  });

  it('a first password (set password): refused, the account stays without one; a random strong one is set', async () => {
    await signUpVerified(t, 'set-breach@example.com');
    await t.database.db.update(users).set({ passwordHash: null }).where(eq(users.email, 'set-breach@example.com'));
    const token = await freshSession(t, 'set-breach@example.com');

    const res = await t.call('/api/accounts/ChangePassword', { oldPassword: '', newPassword: BREACHED[0] }, token);
    expect(res.statusCode).toBe(400);
    expect(res.json().Fault).toEqual(REFUSED);
    const profile = await t.call('/api/accounts/GetOrUpdateProfile', {}, token);
    expect(profile.json().Result.HasPassword).toBe(false);
    expect(await hashOf('set-breach@example.com')).toBeNull();

    const chosen = strong();
    const set = await t.call('/api/accounts/ChangePassword', { oldPassword: '', newPassword: chosen }, token);
    expect(set.json()).toEqual({ Success: true, Result: {} });
    expect((await login('set-breach@example.com', chosen)).statusCode).toBe(200);
  });

  it('a common password keeps the spec’s message: the strength rule is checked first', async () => {
    const res = await t.call('/api/accounts/register', { email: 'common-first@example.com', password: 'password1' });
    expect(faultOf(res)).toBe('UserPasswordChangeNewPasswordInvalidTooWeak');
    expect(await sharedBreachedPasswords().has('password1')).toBe(true);
  });
});
