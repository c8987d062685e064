import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('register', () => {
  it('creates an unverified account and mails a 24-hour verification link', async () => {
    const res = await t.call('/api/accounts/register', { email: 'Ann@Example.com ', password: PASSWORD });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toEqual({ Success: true, Result: {} });
    const [mail] = await t.mailsTo('ann@example.com');
    expect(mail?.Subject).toMatch(/verify/i);
    expect(mail?.Links[0]).toMatch(/^http:\/\/localhost:3000\/verify-email\/[A-Za-z0-9_-]{43}$/);
    expect(mail?.Text).toContain('24 hours');
    expect(mail?.Html).toContain(mail?.Links[0]);
  });

  it('refuses an address that already has an account', async () => {
    await t.call('/api/accounts/register', { email: 'abe@example.com', password: PASSWORD });
    const res = await t.call('/api/accounts/register', { email: 'Abe@Example.com', password: PASSWORD });
    expect(res.statusCode).toBe(409);
    expect(faultOf(res)).toBe('UserAlreadyRegistered');
  });

  it('validates e-mail and password with the spec messages', async () => {
    const bad = await t.call('/api/accounts/register', { email: 'not-an-email', password: PASSWORD });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().Fault).toMatchObject({
      ExceptionName: 'RequestInvalid',
      ExceptionUserText: 'Email address is not in a correct format.',
      ExceptionVariables: [{ Key: 'email', Value: 'Email address is not in a correct format.' }],
    });
    const short = await t.call('/api/accounts/register', { email: 'b@example.com', password: 'short' });
    expect(short.json().Fault.ExceptionUserText).toBe('Password is shorter than 8 symbols.');
    const long = await t.call('/api/accounts/register', { email: `${'a'.repeat(90)}@ex.com`, password: PASSWORD });
    expect(long.statusCode).toBe(400);
  });

  it('refuses the most common passwords (ASVS 6.2.4)', async () => {
    for (const password of ['password1', 'qwertyuiop', 'Iloveyou1']) {
      const res = await t.call('/api/accounts/register', { email: 'common@example.com', password });
      expect(res.json().Fault).toMatchObject({
        ExceptionName: 'UserPasswordChangeNewPasswordInvalidTooWeak',
        ExceptionUserText: 'New password is too weak.',
      });
    }
  });
});

describe('sign-in before verification', () => {
  it('says the e-mail is not verified while the link is live', async () => {
    await t.call('/api/accounts/register', { email: 'cid@example.com', password: PASSWORD });
    const res = await t.call('/api/accounts/LoginByEmail', { email: 'cid@example.com', password: PASSWORD });
    expect(res.statusCode).toBe(403);
    expect(faultOf(res)).toBe('UserLoginEmailNotVerified');
  });

  it('says the link expired after 24 hours, and a resend with the password mails a new one', async () => {
    await t.call('/api/accounts/register', { email: 'dee@example.com', password: PASSWORD });
    const first = await t.lastLinkToken('dee@example.com');
    t.clock.advanceHours(25);
    const res = await t.call('/api/accounts/LoginByEmail', { email: 'dee@example.com', password: PASSWORD });
    expect(faultOf(res)).toBe('UserLoginEmailUnverifiedAndLinkExpired');
    expect(res.json().Fault.ExceptionUserText).toBe('Please verify your email before logging in.');

    const expired = await t.call('/api/accounts/VerifyEmail', { token: first });
    expect(faultOf(expired)).toBe('ActionTokenExpired');

    const resend = await t.call('/api/accounts/ResendVerificationEmail', {
      email: 'dee@example.com',
      password: PASSWORD,
    });
    expect(resend.json()).toEqual({ Success: true, Result: {} });
    const second = await t.lastLinkToken('dee@example.com');
    expect(second).not.toBe(first);
    const ok = await t.call('/api/accounts/VerifyEmail', { token: second });
    expect(ok.statusCode).toBe(200);
  });

  it('resends for an expired link token, and not for a verified account', async () => {
    await t.call('/api/accounts/register', { email: 'eve@example.com', password: PASSWORD });
    const first = await t.lastLinkToken('eve@example.com');
    t.clock.advanceHours(30);
    const resend = await t.call('/api/accounts/ResendVerificationEmailForToken', { token: first });
    expect(resend.statusCode).toBe(200);
    const second = await t.lastLinkToken('eve@example.com');
    await t.call('/api/accounts/VerifyEmail', { token: second });
    const again = await t.call('/api/accounts/ResendVerificationEmailForToken', { token: second });
    expect(faultOf(again)).toBe('EmailValidationTokenAlreadyUsed');
    const unknown = await t.call('/api/accounts/ResendVerificationEmailForToken', { token: 'x'.repeat(43) });
    expect(faultOf(unknown)).toBe('EmailValidationTokenNotFound');
  });
});

describe('VerifyEmail', () => {
  it('verifies, signs in with a Token and the session cookie, and is single-use (ASVS 6.4.1)', async () => {
    await t.call('/api/accounts/register', { email: 'fay@example.com', password: PASSWORD });
    const token = await t.lastLinkToken('fay@example.com');
    const res = await t.call('/api/accounts/VerifyEmail', { token });
    const body = res.json();
    expect(body.Success).toBe(true);
    expect(body.Token).toEqual(expect.any(String));
    expect(body.Result.User).toMatchObject({ Email: 'fay@example.com', EmailVerified: true, HasPassword: true });
    expect(res.headers['set-cookie']).toMatch(/^soundid_session=.+; Path=\/; Expires=.+; HttpOnly; SameSite=Lax$/);

    const again = await t.call('/api/accounts/VerifyEmail', { token });
    expect(faultOf(again)).toBe('ActionTokenAlreadyUsed');
    const unknown = await t.call('/api/accounts/VerifyEmail', { token: 'y'.repeat(43) });
    expect(faultOf(unknown)).toBe('EmailValidationTokenNotFound');
  });

  it('lets two simultaneous clicks verify once', async () => {
    await t.call('/api/accounts/register', { email: 'gus@example.com', password: PASSWORD });
    const token = await t.lastLinkToken('gus@example.com');
    const results = await Promise.all([1, 2, 3].map(() => t.call('/api/accounts/VerifyEmail', { token })));
    expect(results.filter((r) => r.statusCode === 200)).toHaveLength(1);
  });

  it('signs in after verification', async () => {
    await signUpVerified(t, 'hal@example.com');
    const res = await t.call('/api/accounts/LoginByEmail', {
      email: 'HAL@example.com',
      password: PASSWORD,
      keepMeSignedIn: true,
      getProfile: true,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json().Result.User.Profile).toEqual({
      AddressLine1: '',
      City: '',
      State: '',
      PostalCode: '',
      Country: '',
    });
  });
});
