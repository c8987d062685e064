import { WEB_LOGIN_CODE_VALIDITY_MINUTES } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, freshSession, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

/**
 * A desktop app opens the portal signed in (ADR 0029): the link's `?token=` is a one-time code
 * the app asked for, never a session token, and a session already live in the browser is
 * replaced only once the customer confirms, and then ended.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  await signUpVerified(t, 'ann@example.com');
  await signUpVerified(t, 'bob@example.com');
});
afterAll(() => t.close());

/** What Chromium's SPA sends: Fetch Metadata and the Software header, with the cookie if it has one. */
const BROWSER = { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', software: 'MySoundID-Web/1.0' };
const asCookie = (token: string) => ({ cookie: `soundid_session=${token}` });
const cookieToken = (res: { headers: Record<string, unknown> }) =>
  /^soundid_session=([^;]+)/.exec(String(res.headers['set-cookie'] ?? ''))?.[1];

/** A portal link's code, as the app of `email` asks for it. */
async function codeFor(email: string, body: Record<string, unknown> = {}): Promise<string> {
  const res = await t.call('/api/apps/CreateWebLoginCode', body, await freshSession(t, email));
  expect(res.statusCode, res.body).toBe(200);
  return new URL(res.json().Result.Url).searchParams.get('token') as string;
}

const exchange = (code: string, headers: Record<string, string> = {}, confirmSwitch?: boolean) =>
  t.call(
    '/api/accounts/ExchangeWebLoginCode',
    { code, ...(confirmSwitch === undefined ? {} : { confirmSwitch }) },
    undefined,
    { ...BROWSER, ...headers },
  );

const whoIs = async (token: string) => {
  const res = await t.call('/api/accounts/LoginByToken', {}, token);
  return res.statusCode === 200 ? (res.json().Result.User.Email as string) : faultOf(res);
};

describe('CreateWebLoginCode', () => {
  it('gives the app a portal link with a one-time code for the page it names (ASVS 7.2.3)', async () => {
    const app = await freshSession(t, 'ann@example.com');
    const res = await t.call('/api/apps/CreateWebLoginCode', { path: '/products' }, app);
    const { Code, Url, ExpiresAt } = res.json().Result;
    expect(Code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(Url).toBe(`http://localhost:3000/products?token=${Code}`);
    expect(ExpiresAt).toBe(t.clock.now().getTime() + WEB_LOGIN_CODE_VALIDITY_MINUTES * 60_000);
    const home = (await t.call('/api/apps/CreateWebLoginCode', {}, app)).json().Result;
    expect(home.Url).toBe(`http://localhost:3000/?token=${home.Code}`);
    expect(home.Code).not.toBe(Code);
  });

  it('is for apps only: a browser signed in by its cookie cannot turn the session into a link (ASVS 3.3.4)', async () => {
    const session = await freshSession(t, 'ann@example.com');
    const byCookie = await t.call('/api/apps/CreateWebLoginCode', {}, undefined, { ...BROWSER, ...asCookie(session) });
    expect([byCookie.statusCode, faultOf(byCookie)]).toEqual([403, 'WebLoginCodeNeedsAppSession']);
    // Not a session fault: the browser's session stays.
    expect(byCookie.headers['set-cookie']).toBeUndefined();
    expect(await whoIs(session)).toBe('ann@example.com');
    expect(faultOf(await t.call('/api/apps/CreateWebLoginCode', {}))).toBe('SecurityAuthTokenNotPassed');
  });

  it('opens only a page of this site, never a route whose token is a mail link', async () => {
    const app = await freshSession(t, 'ann@example.com');
    for (const path of [
      '//evil.example/x',
      '/\\evil.example',
      'https://evil.example/',
      'products',
      '/verify-email',
      '/a?b=1',
    ]) {
      const res = await t.call('/api/apps/CreateWebLoginCode', { path }, app);
      expect([res.statusCode, faultOf(res)], path).toEqual([400, 'RequestInvalid']);
    }
  });
});

describe('ExchangeWebLoginCode', () => {
  it('signs a browser in once with the code, as a sign-in does: cookie only, no Token (ASVS 7.2.4, 3.3.4)', async () => {
    const code = await codeFor('ann@example.com');
    const res = await exchange(code);
    expect(res.json()).toEqual({
      Success: true,
      Result: { User: expect.objectContaining({ Email: 'ann@example.com' }) },
    });
    const session = cookieToken(res) as string;
    expect(session).toBeTruthy();
    // A session cookie: the customer did not ask to be kept signed in. (The device cookie of
    // the new-device alerts, ADR 0041, lives on beside it.)
    const sessionCookie = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('soundid_session='));
    expect(sessionCookie).not.toMatch(/Expires|Max-Age/);
    expect(await whoIs(session)).toBe('ann@example.com');

    const again = await exchange(code);
    expect([again.statusCode, faultOf(again), cookieToken(again)]).toEqual([409, 'WebLoginCodeUsed', undefined]);
  });

  it('lets one of two exchanges of the same code at once win', async () => {
    const code = await codeFor('ann@example.com');
    const answers = await Promise.all(Array.from({ length: 6 }, () => exchange(code)));
    expect(answers.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(answers.filter((res) => faultOf(res) === 'WebLoginCodeUsed')).toHaveLength(5);
  });

  it(`expires after ${WEB_LOGIN_CODE_VALIDITY_MINUTES} minutes`, async () => {
    const code = await codeFor('ann@example.com');
    t.clock.advanceMinutes(WEB_LOGIN_CODE_VALIDITY_MINUTES + 0.1);
    const res = await exchange(code);
    expect([res.statusCode, faultOf(res), cookieToken(res)]).toEqual([410, 'WebLoginCodeExpired', undefined]);
  });

  it('refuses a session token in the link: it is not a code (ASVS 7.2.4, 7.6.2)', async () => {
    const bobSession = await freshSession(t, 'bob@example.com');
    const annSession = await freshSession(t, 'ann@example.com');
    for (const headers of [{}, asCookie(annSession)]) {
      const res = await exchange(bobSession, headers);
      expect([res.statusCode, faultOf(res), cookieToken(res)]).toEqual([400, 'WebLoginCodeInvalid', undefined]);
    }
    // Nor is the one-time token of the app's login deeplink a portal code.
    const deeplink = (await t.call('/api/accounts/GetAppLoginDeeplink', {}, bobSession)).json().Result.AppLoginDeeplink;
    const appToken = new URL(deeplink).searchParams.get('token') as string;
    expect(faultOf(await exchange(appToken))).toBe('WebLoginCodeInvalid');
    expect(await whoIs(annSession)).toBe('ann@example.com');
  });

  it('asks before replacing another customer’s session, naming both, and changes nothing meanwhile (ASVS 7.6.2)', async () => {
    const ann = await freshSession(t, 'ann@example.com');
    const code = await codeFor('bob@example.com');
    const asked = await exchange(code, asCookie(ann));
    expect(asked.statusCode).toBe(409);
    expect(asked.json().Fault).toMatchObject({
      ExceptionName: 'WebLoginSwitchUnconfirmed',
      ExceptionVariables: [
        { Key: 'CurrentEmail', Value: 'ann@example.com' },
        { Key: 'LinkEmail', Value: 'bob@example.com' },
      ],
    });
    expect(cookieToken(asked)).toBeUndefined();
    expect(await whoIs(ann)).toBe('ann@example.com');
    // Declined: the code is simply left to expire. Still unused, it answers the question again.
    expect(faultOf(await exchange(code, asCookie(ann), false))).toBe('WebLoginSwitchUnconfirmed');
  });

  it('on confirmation signs in the link’s customer and ends the replaced session on the server (ASVS 7.2.4, 7.4.1)', async () => {
    const ann = await freshSession(t, 'ann@example.com');
    const code = await codeFor('bob@example.com');
    const switched = await exchange(code, asCookie(ann), true);
    expect(switched.json()).toMatchObject({ Success: true, Result: { User: { Email: 'bob@example.com' } } });
    const bob = cookieToken(switched) as string;
    expect(await whoIs(bob)).toBe('bob@example.com');
    expect(await whoIs(ann)).toBe('UserAuthenticationFailed');

    // An API client signed in by AuthToken: its session ends the same way.
    const annApi = await freshSession(t, 'ann@example.com');
    const other = await t.call(
      '/api/accounts/ExchangeWebLoginCode',
      { code: await codeFor('bob@example.com'), confirmSwitch: true },
      annApi,
    );
    expect(other.json()).toMatchObject({ Success: true, Token: expect.any(String) });
    expect(await whoIs(annApi)).toBe('UserAuthenticationFailed');
  });

  it('keeps the session of the link’s own customer: the code is used, no new session', async () => {
    const ann = await freshSession(t, 'ann@example.com');
    const code = await codeFor('ann@example.com');
    const res = await exchange(code, asCookie(ann));
    expect(res.json()).toEqual({
      Success: true,
      Result: { User: expect.objectContaining({ Email: 'ann@example.com' }) },
    });
    expect(cookieToken(res)).toBeUndefined();
    expect(await whoIs(ann)).toBe('ann@example.com');
    expect(faultOf(await exchange(code))).toBe('WebLoginCodeUsed');
  });

  it('ignores a dead session in the browser: the link signs in without asking', async () => {
    const ann = await freshSession(t, 'ann@example.com');
    await t.call('/api/accounts/Logout', {}, ann);
    const res = await exchange(await codeFor('bob@example.com'), asCookie(ann));
    expect(res.json()).toMatchObject({ Success: true, Result: { User: { Email: 'bob@example.com' } } });
  });
});

describe('LoginByToken', () => {
  it('never turns a token sent as AuthToken into the browser’s session cookie (ASVS 7.2.4)', async () => {
    const bob = await freshSession(t, 'bob@example.com');
    for (const headers of [{}, BROWSER]) {
      const res = await t.call('/api/accounts/LoginByToken', {}, bob, headers);
      expect(res.json().Result.User.Email).toBe('bob@example.com');
      expect(res.headers['set-cookie']).toBeUndefined();
    }
  });
});
