import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await signUpVerified(t, 'ida@example.com');
  await signUpVerified(t, 'jon@example.com');
  await signUpVerified(t, 'kim@example.com');
});
afterAll(() => t.close());

const login = (email: string, password = PASSWORD, keepMeSignedIn = true) =>
  t.call('/api/accounts/LoginByEmail', { email, password, keepMeSignedIn, getProfile: true });

const cookieOf = (res: { headers: Record<string, unknown> }) =>
  String(res.headers['set-cookie']).split(';')[0] as string;

describe('LoginByEmail', () => {
  it('answers the same for a wrong password and an unknown address', async () => {
    const wrong = await login('ida@example.com', 'wrong password');
    const unknown = await login('nobody@example.com', 'wrong password');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(faultOf(wrong)).toBe('UserLoginInvalidCredentials');
  });

  it('keeps the cookie only for the session without keep-me-signed-in', async () => {
    const res = await login('ida@example.com', PASSWORD, false);
    expect(res.headers['set-cookie']).not.toMatch(/Expires|Max-Age/);
    expect(res.headers['set-cookie']).toMatch(/HttpOnly/);
  });

  it('locks out after 5 failures for 5 minutes, even for the right password', async () => {
    for (let i = 0; i < 4; i++)
      expect(faultOf(await login('jon@example.com', 'nope nope'))).toBe('UserLoginInvalidCredentials');
    const fifth = await login('jon@example.com', 'nope nope');
    expect(fifth.statusCode).toBe(429);
    expect(fifth.json().Fault).toMatchObject({
      ExceptionName: 'AttemptOverLimitLogin',
      ExceptionUserText: 'Login failed. Please try again after 5 minutes.',
    });
    expect(faultOf(await login('jon@example.com'))).toBe('AttemptOverLimitLogin');
    t.clock.advanceMinutes(4);
    expect(faultOf(await login('jon@example.com'))).toBe('AttemptOverLimitLogin');
    t.clock.advanceMinutes(1.1);
    expect((await login('jon@example.com')).statusCode).toBe(200);
  });

  it('counts concurrent failures without losing any', async () => {
    await Promise.all(Array.from({ length: 8 }, () => login('kim@example.com', 'wrong wrong')));
    expect(faultOf(await login('kim@example.com'))).toBe('AttemptOverLimitLogin');
  });
});

describe('session', () => {
  it('LoginByToken answers who is signed in by header', async () => {
    const token = (await login('ida@example.com')).json().Token;
    const res = await t.call('/api/accounts/LoginByToken', { getProfile: true }, token);
    expect(res.json()).toMatchObject({ Success: true, Token: token, Result: { User: { Email: 'ida@example.com' } } });
    // The header's token never becomes a cookie (ADR 0029).
    expect(res.headers['set-cookie']).toBeUndefined();
  });

  it('accepts the cookie only together with the Software header (ASVS 3.5.1, 3.3.4)', async () => {
    const cookie = cookieOf(await login('ida@example.com'));
    const without = await t.call('/api/accounts/LoginByToken', {}, undefined, { cookie });
    expect(without.statusCode).toBe(403);
    expect(faultOf(without)).toBe('SoftwareHeaderMissing');
    const withSoftware = await t.call('/api/accounts/LoginByToken', {}, undefined, {
      cookie,
      software: 'MySoundID-Web/1.0',
    });
    expect(withSoftware.statusCode).toBe(200);
    // Signed in by the cookie, the session token never reaches script.
    expect(withSoftware.json().Token).toBeUndefined();
    expect(withSoftware.body).not.toContain(cookie.split('=')[1]);
  });

  it('raises the session faults with ExceptionType 30 and clears the cookie', async () => {
    const none = await t.call('/api/accounts/GetOrUpdateProfile', {});
    expect(none.json().Fault).toMatchObject({ ExceptionName: 'SecurityAuthTokenNotPassed', ExceptionType: 30 });
    expect(none.headers['set-cookie']).toMatch(/soundid_session=;.*Expires=Thu, 01 Jan 1970/);

    const invalid = await t.call('/api/accounts/GetOrUpdateProfile', {}, 'not.a.jwt');
    expect(invalid.json().Fault).toMatchObject({ ExceptionName: 'SecurityAuthTokenInvalid', ExceptionType: 30 });

    const shortLived = (await login('ida@example.com', PASSWORD, false)).json().Token;
    t.clock.advanceHours(25);
    const expired = await t.call('/api/accounts/GetOrUpdateProfile', {}, shortLived);
    expect(expired.json().Fault).toMatchObject({ ExceptionName: 'SecurityAuthTokenExpired', ExceptionType: 30 });
  });

  it('Logout revokes the session and clears the cookie (ASVS 7.4.1)', async () => {
    const token = (await login('ida@example.com')).json().Token;
    const out = await t.call('/api/accounts/Logout', {}, token);
    expect(out.json()).toEqual({ Success: true, Result: {} });
    expect(out.headers['set-cookie']).toMatch(/soundid_session=;/);
    const after = await t.call('/api/accounts/LoginByToken', {}, token);
    expect(after.json().Fault).toMatchObject({ ExceptionName: 'UserAuthenticationFailed', ExceptionType: 30 });
    expect((await t.call('/api/accounts/Logout', {})).statusCode).toBe(200);
  });

  it('uses the __Host- Secure cookie over https', async () => {
    const secure = await (await import('../../../test/kit/test-app')).createTestApp({
      PUBLIC_URL: 'https://my.soundid.test',
    });
    try {
      await signUpVerified(secure, 'sec@example.com');
      const res = await secure.call('/api/accounts/LoginByEmail', {
        email: 'sec@example.com',
        password: PASSWORD,
        keepMeSignedIn: true,
      });
      expect(res.headers['set-cookie']).toMatch(
        /^__Host-soundid_session=[^;]+; Path=\/; Expires=[^;]+; HttpOnly; Secure; SameSite=Lax$/,
      );
      expect(res.headers['strict-transport-security']).toMatch(/max-age=31536000/);
    } finally {
      await secure.close();
    }
  });
});

describe('desktop-app login deeplink', () => {
  it('gives a one-time token inside a custom-protocol deeplink, exchanged once for a session', async () => {
    const token = (await login('ida@example.com')).json().Token;
    const res = await t.call('/api/accounts/GetAppLoginDeeplink', {}, token);
    const deeplink: string = res.json().Result.AppLoginDeeplink;
    expect(deeplink).toMatch(/^soundid:\/\/login\?token=[A-Za-z0-9_-]{43}$/);
    const oneTime = new URL(deeplink).searchParams.get('token');
    const exchanged = await t.call('/api/apps/ExchangeLoginToken', { token: oneTime });
    expect(exchanged.json()).toMatchObject({
      Success: true,
      Token: expect.any(String),
      Result: { User: { Email: 'ida@example.com' } },
    });
    const again = await t.call('/api/apps/ExchangeLoginToken', { token: oneTime });
    expect(faultOf(again)).toBe('ActionTokenAlreadyUsed');
  });

  it('expires after 5 minutes', async () => {
    const token = (await login('ida@example.com')).json().Token;
    const deeplink: string = (await t.call('/api/accounts/GetAppLoginDeeplink', {}, token)).json().Result
      .AppLoginDeeplink;
    t.clock.advanceMinutes(6);
    const res = await t.call('/api/apps/ExchangeLoginToken', { token: new URL(deeplink).searchParams.get('token') });
    expect(faultOf(res)).toBe('TokenExpired');
  });
});
