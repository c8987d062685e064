import { LOGIN_MAX_FAILED_ATTEMPTS, STEP_UP_WINDOW_MINUTES } from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { users } from '../../db/schema';
import { describeDevice } from './user-agent';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const CHROME_MAC =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36';
const login = async (email: string, keepMeSignedIn = true, userAgent = CHROME_MAC) =>
  (
    await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD, keepMeSignedIn }, undefined, {
      'user-agent': userAgent,
    })
  ).json().Token as string;

describe('active sessions', () => {
  it('lists the live sessions, marks the current one, and ends the others (ASVS 7.5.2)', async () => {
    await signUpVerified(t, 'multi@example.com');
    const laptop = await login('multi@example.com');
    t.clock.advanceMinutes(1);
    const app = await login('multi@example.com', true, 'SoundID Reference/5.2 (Windows)');
    const list = (await t.call('/api/accounts/GetSessions', {}, laptop)).json().Result;
    expect(list).toHaveLength(3);
    expect(list.filter((s: { Current: boolean }) => s.Current)).toHaveLength(1);
    // The one asking comes first, although the app's session was used last.
    expect(list[0].Current).toBe(true);
    expect(list.map((s: { Device: string }) => s.Device)).toEqual(
      expect.arrayContaining(['Chrome on macOS', 'SoundID Reference/5.2 (Windows)']),
    );

    const endOthers = (password?: string) =>
      t.call('/api/accounts/EndOtherSessions', password === undefined ? {} : { password }, laptop);
    // Without the password, only a recent proof of presence will do (ADR 0040).
    t.clock.advanceMinutes(STEP_UP_WINDOW_MINUTES + 1);
    expect(faultOf(await endOthers())).toBe('StepUpRequired');
    expect(faultOf(await endOthers('not the password'))).toBe('ReauthenticationPasswordInvalid');
    expect((await t.call('/api/accounts/LoginByToken', {}, app)).statusCode).toBe(200);
    expect((await endOthers(PASSWORD)).json()).toEqual({ Success: true, Result: {} });
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, app))).toBe('UserAuthenticationFailed');
    const after = (await t.call('/api/accounts/GetSessions', {}, laptop)).json().Result;
    expect(after).toHaveLength(1);
    expect(after[0].Current).toBe(true);
  });
});

describe('ending the other sessions asks for a fresh authentication (ASVS 7.5.2)', () => {
  it('wrong passwords count toward the sign-in lockout', async () => {
    await signUpVerified(t, 'guess@example.com');
    const token = await login('guess@example.com');
    for (let i = 1; i < LOGIN_MAX_FAILED_ATTEMPTS; i++) {
      expect(faultOf(await t.call('/api/accounts/EndOtherSessions', { password: `guess ${i}` }, token))).toBe(
        'ReauthenticationPasswordInvalid',
      );
    }
    expect(faultOf(await t.call('/api/accounts/EndOtherSessions', { password: 'last guess' }, token))).toBe(
      'AttemptOverLimitLogin',
    );
    expect(faultOf(await t.call('/api/accounts/EndOtherSessions', { password: PASSWORD }, token))).toBe(
      'AttemptOverLimitLogin',
    );
  });

  it('an account without a password must have proven presence within the window (ADR 0040)', async () => {
    await signUpVerified(t, 'social-only@example.com');
    const token = await login('social-only@example.com');
    const other = await login('social-only@example.com');
    await t.database.db.update(users).set({ passwordHash: null }).where(eq(users.email, 'social-only@example.com'));
    expect((await t.call('/api/accounts/EndOtherSessions', {}, token)).json().Success).toBe(true);
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, other))).toBe('UserAuthenticationFailed');

    t.clock.advanceMinutes(STEP_UP_WINDOW_MINUTES + 1);
    expect(faultOf(await t.call('/api/accounts/EndOtherSessions', {}, token))).toBe('StepUpRequired');
  });
});

describe('idle lifetime', () => {
  it('ends a short session after 2 idle hours, and keeps one that is used (ASVS 7.3.1)', async () => {
    await signUpVerified(t, 'idle@example.com');
    const idle = await login('idle@example.com', false);
    const busy = await login('idle@example.com', false);
    for (let i = 0; i < 3; i++) {
      t.clock.advanceMinutes(50);
      expect((await t.call('/api/accounts/LoginByToken', {}, busy)).statusCode).toBe(200);
    }
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, idle))).toBe('SecurityAuthTokenExpired');
  });

  it('ends a keep-me-signed-in session after 14 idle days, never lasting past 30 days (ASVS 7.3.1, 7.3.2)', async () => {
    await signUpVerified(t, 'long@example.com');
    const token = await login('long@example.com');
    for (let day = 0; day < 29; day += 7) {
      t.clock.advanceHours(24 * 7);
      const res = await t.call('/api/accounts/LoginByToken', {}, token);
      expect(res.statusCode, `day ${day + 7}`).toBe(day + 7 <= 30 ? 200 : 401);
    }
    t.clock.advanceHours(24 * 3);
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, token))).toBe('SecurityAuthTokenExpired');
    const other = await login('long@example.com');
    t.clock.advanceHours(24 * 15);
    expect(faultOf(await t.call('/api/accounts/LoginByToken', {}, other))).toBe('SecurityAuthTokenExpired');
  });
});

describe('the licence list checks its session in its own statement', () => {
  const licences = (token?: string, headers?: Record<string, string>) =>
    t.call('/api/licenses/GetAccountLicensesByProductLine', {}, token, headers);

  it('refuses a signed-out, a revoked, an idle and a forged session like every signed-in call', async () => {
    await signUpVerified(t, 'list-session@example.com');
    const token = await login('list-session@example.com', false);
    expect((await licences(token)).json().Success).toBe(true);

    const signedOut = await login('list-session@example.com', false);
    await t.call('/api/accounts/Logout', {}, signedOut);
    const refused = await licences(signedOut);
    expect(refused.statusCode).toBe(401);
    expect(refused.json().Fault).toMatchObject({ ExceptionName: 'UserAuthenticationFailed', ExceptionType: 30 });

    // A validly signed token naming another customer's session matches no row: nothing of either is read.
    await signUpVerified(t, 'list-other@example.com');
    const other = await login('list-other@example.com');
    const claims = (jwt: string) => JSON.parse(Buffer.from(jwt.split('.')[1] as string, 'base64url').toString());
    const mixed = await t.services.sessions.issue(t.services.db, claims(token).sub, true);
    const forged = await new SignJWT({ sid: claims(other).sid, kms: 1 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(claims(token).sub)
      .setExpirationTime(Math.floor(mixed.expiresAt.getTime() / 1000))
      .sign(new TextEncoder().encode(t.services.config.sessionSecret));
    const crossed = await licences(forged);
    expect(crossed.json().Fault).toMatchObject({ ExceptionName: 'UserAuthenticationFailed', ExceptionType: 30 });
    expect(faultOf(await licences(`${token.slice(0, -4)}AAAA`))).toBe('SecurityAuthTokenInvalid');
    expect(faultOf(await licences())).toBe('SecurityAuthTokenNotPassed');

    t.clock.advanceHours(3);
    expect(faultOf(await licences(token))).toBe('SecurityAuthTokenExpired');
  });

  it('keeps a used session alive: the list records its use like the session check', async () => {
    await signUpVerified(t, 'list-busy@example.com');
    const token = await login('list-busy@example.com', false);
    for (let i = 0; i < 3; i++) {
      t.clock.advanceMinutes(50);
      expect((await licences(token)).statusCode).toBe(200);
    }
    expect((await t.call('/api/accounts/LoginByToken', {}, token)).statusCode).toBe(200);
  });
});

describe('describeDevice', () => {
  it('names browsers and systems, and keeps an app name', () => {
    expect(describeDevice(CHROME_MAC)).toBe('Chrome on macOS');
    expect(describeDevice('Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:131.0) Gecko/20100101 Firefox/131.0')).toBe(
      'Firefox on Windows',
    );
    expect(describeDevice(null)).toBe('Unknown device');
    expect(describeDevice('curl/8.5.0')).toBe('curl/8.5.0');
  });
});
