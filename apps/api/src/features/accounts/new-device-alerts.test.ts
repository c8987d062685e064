import {
  EMAIL_CHANGE_FREEZE_HOURS,
  MAILS_MAX_PER_MAILBOX,
  SIGN_IN_REPORT_LINK_VALIDITY_HOURS,
  TOTP_PERIOD_SECONDS,
} from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import type { LightMyRequestResponse } from 'fastify';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, freshSession, PASSWORD } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import {
  googleStandInEnv,
  type ProviderStandIns,
  startProviderStandIns,
  TEST_GOOGLE_CLIENT_ID,
} from '../../../test/provider-stand-ins';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { seenDevices } from '../../db/schema';
import { findUserByEmail } from './users-repo';

/**
 * New-device alerts (ADR 0041; ASVS 5.0 V6.3.5 "users are notified of suspicious authentication
 * attempts", V6.3.7 "users are notified after updates to authentication details", V7.4.1 and
 * V7.4.3: sessions end when the customer asks, V6.4.1 single-use expiring links). Each test
 * makes its own customers; browsers are told apart by their device cookie, apps by their
 * user-agent family and network.
 */
let t: TestApp;
let providers: ProviderStandIns;
beforeAll(async () => {
  providers = await startProviderStandIns();
  t = await createTestApp(googleStandInEnv(providers));
});
afterAll(async () => {
  await t.close();
  await providers.close();
});

let customers = 0;
const newEmail = (name: string) => `${name}-${++customers}@example.com`;

const CHROME_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0 Safari/537.36';
const FIREFOX_MAC = 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0';
const ALERT_SUBJECT = 'New sign-in to your My SoundID account';

/** A browser: Fetch Metadata, the SPA's Software header, its User-Agent and, once it has one, its device cookie. */
interface Browser {
  userAgent: string;
  ip: string;
  deviceCookie?: string;
}
const browser = (userAgent = CHROME_WINDOWS, ip = '198.51.100.20'): Browser => ({ userAgent, ip });
const browserHeaders = (b: Browser) => ({
  'sec-fetch-site': 'same-origin',
  'sec-fetch-mode': 'cors',
  software: 'MySoundID-Web/1.0',
  'user-agent': b.userAgent,
  ...(b.deviceCookie ? { cookie: `soundid_device=${b.deviceCookie}` } : {}),
});

/** A call from a browser; the browser keeps the device cookie it is given, as a browser does. */
async function fromBrowser(b: Browser, url: string, body: object): Promise<LightMyRequestResponse> {
  const res = await t.app.inject({
    method: 'POST',
    url,
    payload: body,
    remoteAddress: b.ip,
    headers: { 'content-type': 'application/json', ...browserHeaders(b) },
  });
  const set = [res.headers['set-cookie'] ?? []].flat().find((c) => String(c).startsWith('soundid_device='));
  const id = /^soundid_device=([^;]+)/.exec(String(set))?.[1];
  if (id) b.deviceCookie = id;
  return res;
}

/** A call from a desktop app: no Fetch Metadata, no cookies; its own User-Agent and Software header. */
const fromApp = (url: string, body: object, ip: string, app = 'SoundID Reference/5.2.1 (Windows 11)', token?: string) =>
  t.app.inject({
    method: 'POST',
    url,
    payload: body,
    remoteAddress: ip,
    headers: {
      'content-type': 'application/json',
      'user-agent': app,
      software: app.split(' (')[0] as string,
      ...(token ? { authtoken: token } : {}),
    },
  });

const sessionOf = (res: LightMyRequestResponse) =>
  /soundid_session=([^;]+)/.exec(String(res.headers['set-cookie']))?.[1] as string;

/** Signs up and opens the verification link in `b`: the account's very first sign-in. */
async function signUpIn(b: Browser, email = newEmail('ann')) {
  const reg = await t.call('/api/accounts/register', { email, password: PASSWORD });
  expect(reg.statusCode).toBe(201);
  const verified = await fromBrowser(b, '/api/accounts/VerifyEmail', { token: await t.lastLinkToken(email) });
  expect(verified.statusCode, verified.body).toBe(200);
  return { email, session: sessionOf(verified) };
}

const login = (b: Browser, email: string, password = PASSWORD) =>
  fromBrowser(b, '/api/accounts/LoginByEmail', { email, password, keepMeSignedIn: true });

const alertsTo = async (email: string) => (await t.mailsTo(email)).filter((mail) => mail.Subject === ALERT_SUBJECT);
const reportTokenOf = (mail: { Links: string[] }) => {
  const link = mail.Links[0] as string;
  expect(link).toMatch(/^http:\/\/localhost:3000\/report-sign-in\/[A-Za-z0-9_-]{43}$/);
  return link.split('/').pop() as string;
};
const whoIs = async (session: string) => {
  const res = await t.call('/api/accounts/LoginByToken', {}, session);
  return res.statusCode === 200 ? (res.json().Result.User.Email as string) : faultOf(res);
};
async function seenOf(email: string) {
  const user = await findUserByEmail(t.database.db, email);
  return t.database.db
    .select()
    .from(seenDevices)
    .where(eq(seenDevices.userId, user?.id as string));
}

describe('new-device alerts (ASVS 6.3.5)', () => {
  it('records the first sign-in of a new account without a mail: there is nothing to compare with', async () => {
    const laptop = browser();
    const { email, session } = await signUpIn(laptop);
    expect(await whoIs(session)).toBe(email);
    expect(laptop.deviceCookie).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(await alertsTo(email)).toEqual([]);
    const seen = await seenOf(email);
    expect(seen).toEqual([
      expect.objectContaining({ kind: 'browser', label: 'Chrome on Windows', lastIp: laptop.ip, signIns: 1 }),
    ]);
    // The cookie is kept only as a hash, and the hash is the account's own.
    expect(JSON.stringify(seen)).not.toContain(laptop.deviceCookie);
  });

  it('sets the device cookie HttpOnly, SameSite=Lax, first-party and long-lived, beside the session', async () => {
    const res = await fromBrowser(browser(), '/api/accounts/LoginByEmail', {
      email: (await signUpIn(browser())).email,
      password: PASSWORD,
    });
    const cookie = [res.headers['set-cookie']].flat().find((c) => String(c).startsWith('soundid_device='));
    expect(cookie).toMatch(/^soundid_device=[A-Za-z0-9_-]{43}; Max-Age=34560000; Path=\/; HttpOnly; SameSite=Lax$/);
  });

  it('sends no mail when the same browser signs in again', async () => {
    const laptop = browser();
    const { email } = await signUpIn(laptop);
    const cookie = laptop.deviceCookie;
    t.clock.advanceHours(30);
    // The browser updated itself and moved to another network: still the same browser.
    laptop.userAgent = CHROME_WINDOWS.replace('131.0', '132.0');
    laptop.ip = '192.0.2.44';
    expect((await login(laptop, email)).statusCode).toBe(200);
    expect(laptop.deviceCookie).toBe(cookie);
    expect(await alertsTo(email)).toEqual([]);
    expect((await seenOf(email))[0]).toMatchObject({ signIns: 2, lastIp: '192.0.2.44' });
  });

  it('mails once about a new browser: what, when, from which address, and a "This wasn\'t me" link', async () => {
    const { email } = await signUpIn(browser());
    t.clock.advanceMinutes(90);
    const other = browser(FIREFOX_MAC, '203.0.113.77');
    expect((await login(other, email)).statusCode).toBe(200);
    const [alert, ...more] = await alertsTo(email);
    expect(more).toEqual([]);
    expect(alert?.Text).toContain('Device: Firefox on macOS');
    expect(alert?.Text).toContain(`When: ${t.clock.now().toUTCString()}`);
    expect(alert?.Text).toContain('IP address: 203.0.113.77');
    expect(alert?.Html).toContain('This wasn&#39;t me');
    expect(alert?.Text).toContain('valid for 7 days');
    reportTokenOf(alert as { Links: string[] });
    // That browser is known from now on.
    expect((await login(other, email)).statusCode).toBe(200);
    expect(await alertsTo(email)).toHaveLength(1);
    expect((await seenOf(email)).map((d) => d.label).sort()).toEqual(['Chrome on Windows', 'Firefox on macOS']);
  });

  it('counts alerts toward the mailbox allowance: fresh browsers again and again sign in, a few mails an hour (ADR 0031)', async () => {
    const saved = t;
    // The production allowance (TEST_SERVICE_ENV lifts it for the other suites).
    t = await createTestApp({ MAIL_LIMIT_PER_MAILBOX: '' });
    try {
      const { email } = await signUpIn(browser());
      t.clock.advanceMinutes(1);
      const answers = [];
      for (let i = 0; i < MAILS_MAX_PER_MAILBOX + 3; i++) answers.push((await login(browser(), email)).statusCode);
      await t.services.accounts.settled();
      // Every sign-in goes through; the verification mail and the alerts share the allowance.
      expect(answers.every((status) => status === 200)).toBe(true);
      expect(await alertsTo(email)).toHaveLength(MAILS_MAX_PER_MAILBOX - 1);
      t.clock.advanceMinutes(61);
      await login(browser(), email);
      await t.services.accounts.settled();
      expect(await alertsTo(email)).toHaveLength(MAILS_MAX_PER_MAILBOX);
    } finally {
      await t.close();
      t = saved;
    }
  });

  it('mails once when one new browser signs in several times at once (one atomic upsert)', async () => {
    const { email } = await signUpIn(browser());
    // Four tabs of one new browser, whose first answer set the cookie they all send.
    const tabs = Array.from({ length: 4 }, () => ({ ...browser(), deviceCookie: 'N'.repeat(43) }));
    const answers = await Promise.all(tabs.map((tab) => login(tab, email)));
    expect(answers.map((res) => res.statusCode)).toEqual([200, 200, 200, 200]);
    expect(await alertsTo(email)).toHaveLength(1);
    expect((await seenOf(email)).find((d) => d.signIns === 4)).toBeDefined();
  });

  it('finds a device new once under parallel sign-ins at the statement itself', async () => {
    const { email } = await signUpIn(browser());
    const user = await findUserByEmail(t.database.db, email);
    const device = { kind: 'browser' as const, identity: 'P'.repeat(43), label: 'Chrome on Windows' };
    const issued = await Promise.all(
      Array.from({ length: 10 }, () =>
        t.services.sessions.issue(t.database.db, user?.id as string, true, { ip: '192.0.2.1', device }),
      ),
    );
    expect(issued.filter((s) => s.device?.isNew)).toHaveLength(1);
    expect(issued.every((s) => s.device?.accountHadDevices)).toBe(true);
    expect(new Set(issued.map((s) => s.device?.seenDeviceId)).size).toBe(1);
  });

  it('knows a desktop app by its user-agent family on its network (no cookie, no machine id at sign-in)', async () => {
    const { email, session } = await signUpIn(browser());
    const appLogin = async (ip: string, app?: string) => {
      const deeplink = (await t.call('/api/accounts/GetAppLoginDeeplink', {}, session)).json().Result.AppLoginDeeplink;
      const token = new URL(deeplink).searchParams.get('token');
      const res = await fromApp('/api/apps/ExchangeLoginToken', { token }, ip, app);
      expect(res.statusCode, res.body).toBe(200);
    };
    await appLogin('198.51.100.7');
    const [alert] = await alertsTo(email);
    expect(alert?.Text).toContain('Device: SoundID Reference on Windows');
    expect(alert?.Text).toContain('IP address: 198.51.100.7');
    // Another address of the same /24, a newer version: the same app.
    await appLogin('198.51.100.200', 'SoundID Reference/5.3.0 (Windows 11)');
    expect(await alertsTo(email)).toHaveLength(1);
    // Another network, or another app: new.
    await appLogin('203.0.113.5');
    await appLogin('198.51.100.7', 'SoundID VoiceAI/1.0 (macOS 14)');
    expect((await alertsTo(email)).map((mail) => mail.Text.match(/Device: .*/)?.[0])).toEqual([
      'Device: SoundID VoiceAI on macOS',
      'Device: SoundID Reference on Windows',
      'Device: SoundID Reference on Windows',
    ]);
  });
});

describe('every sign-in path counts (ASVS 6.3.5)', () => {
  it('a second factor: the alert follows LoginSecondFactor', async () => {
    const { email, session } = await signUpIn(browser());
    const { Secret } = (await t.call('/api/accounts/BeginTotpSetup', {}, session)).json().Result;
    const codeAt = (steps = 0) =>
      generateSync({ secret: Secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + steps * TOTP_PERIOD_SECONDS });
    expect((await t.call('/api/accounts/ConfirmTotpSetup', { code: codeAt() }, session)).statusCode).toBe(200);
    t.clock.advanceMinutes(1);
    const other = browser(FIREFOX_MAC);
    const first = await login(other, email);
    expect(faultOf(first)).toBe('SecondFactorRequired');
    expect(await alertsTo(email)).toEqual([]);
    const challenge = first.json().Fault.ExceptionVariables[0].Value;
    const done = await fromBrowser(other, '/api/accounts/LoginSecondFactor', { challenge, code: codeAt() });
    expect(done.statusCode, done.body).toBe(200);
    expect(await alertsTo(email)).toHaveLength(1);
  });

  it('a passkey: FinishPasskeyLogin', async () => {
    const { email, session } = await signUpIn(browser());
    const authenticator = new SoftwareAuthenticator('http://localhost:3000');
    const options = (await t.call('/api/accounts/BeginPasskeyRegistration', {}, session)).json().Result.Options;
    const registered = await t.call(
      '/api/accounts/FinishPasskeyRegistration',
      { response: authenticator.register(options) },
      session,
    );
    expect(registered.statusCode).toBe(200);
    const other = browser(FIREFOX_MAC);
    const begun = (await fromBrowser(other, '/api/accounts/BeginPasskeyLogin', {})).json().Result;
    const done = await fromBrowser(other, '/api/accounts/FinishPasskeyLogin', {
      challengeId: begun.ChallengeId,
      response: authenticator.assert(begun.Options),
    });
    expect(done.statusCode, done.body).toBe(200);
    expect(await alertsTo(email)).toHaveLength(1);
  });

  it('a social provider: LoginBySocial, its first sign-in silent like any first', async () => {
    const email = newEmail('social');
    const idToken = await providers.signIdToken(
      { sub: `g-${email}`, email, email_verified: true },
      { issuer: 'https://accounts.google.com', audience: TEST_GOOGLE_CLIENT_ID },
    );
    const social = (b: Browser) =>
      fromBrowser(b, '/api/accounts/LoginBySocial', {
        socialPlatform: 'Google',
        token: idToken,
        tokenType: 'id_token',
      });
    expect((await social(browser())).statusCode).toBe(200);
    expect(await alertsTo(email)).toEqual([]);
    expect((await social(browser(FIREFOX_MAC))).statusCode).toBe(200);
    expect(await alertsTo(email)).toHaveLength(1);
  });

  it("a desktop app's portal link: ExchangeWebLoginCode", async () => {
    const { email, session } = await signUpIn(browser());
    const created = await fromApp('/api/apps/CreateWebLoginCode', {}, '198.51.100.7', undefined, session);
    const code = new URL(created.json().Result.Url).searchParams.get('token');
    const res = await fromBrowser(browser(FIREFOX_MAC), '/api/accounts/ExchangeWebLoginCode', { code });
    expect(res.statusCode, res.body).toBe(200);
    expect(await alertsTo(email)).toHaveLength(1);
  });
});

describe('"This wasn\'t me" (ASVS 6.3.5, 7.4.1, 6.4.1)', () => {
  /** A customer whose account a stranger signed in to from a new browser, and that alert's link. */
  async function strangerSignedIn() {
    const laptop = browser();
    const { email, session: own } = await signUpIn(laptop);
    const stranger = browser(FIREFOX_MAC, '203.0.113.66');
    const theirs = sessionOf(await login(stranger, email));
    const [alert] = await alertsTo(email);
    return { email, laptop, own, stranger, theirs, token: reportTokenOf(alert as { Links: string[] }) };
  }
  const report = (token: string) => fromBrowser(browser(), '/api/accounts/ReportSignIn', { token });

  it('ends every session, stops the password, mails a reset link and forgets the reported browser', async () => {
    const { email, own, stranger, theirs, token } = await strangerSignedIn();
    // What the stranger had under way: an app's deeplink and a portal link, each a future session.
    const deeplink = (await t.call('/api/accounts/GetAppLoginDeeplink', {}, theirs)).json().Result.AppLoginDeeplink;
    const portal = await fromApp('/api/apps/CreateWebLoginCode', {}, '203.0.113.66', undefined, theirs);
    const res = await report(token);
    expect(res.json()).toEqual({
      Success: true,
      Result: { EmailChangesFrozenUntil: t.clock.now().getTime() + EMAIL_CHANGE_FREEZE_HOURS * 3_600_000 },
    });
    expect(String(res.headers['set-cookie'])).toMatch(/soundid_session=;/);
    expect(await whoIs(own)).toBe('UserAuthenticationFailed');
    expect(await whoIs(theirs)).toBe('UserAuthenticationFailed');
    expect(faultOf(await login(stranger, email))).toBe('UserLoginInvalidCredentials');
    const exchanged = await fromApp(
      '/api/apps/ExchangeLoginToken',
      {
        token: new URL(deeplink).searchParams.get('token'),
      },
      '203.0.113.66',
    );
    expect(faultOf(exchanged)).toBe('TokenExpired');
    const code = new URL(portal.json().Result.Url).searchParams.get('token');
    expect(faultOf(await fromBrowser(stranger, '/api/accounts/ExchangeWebLoginCode', { code }))).toBe(
      'WebLoginCodeExpired',
    );

    // The reset mail, as InitiatePasswordReset sends it; the new password signs in.
    const [reset] = await t.mailsTo(email);
    expect(reset?.Subject).toBe('Reset your My SoundID password');
    const resetToken = String(reset?.Links[0]).split('/reset-password/')[1];
    const newPassword = 'a brand new passphrase';
    expect((await t.call('/api/accounts/PasswordReset', { token: resetToken, password: newPassword })).statusCode).toBe(
      200,
    );
    // The reported browser is forgotten: its next sign-in alerts again.
    expect((await login(stranger, email, newPassword)).statusCode).toBe(200);
    expect(await alertsTo(email)).toHaveLength(2);
  });

  it('freezes e-mail changes for 24 hours: at 23h59 still, at 24h01 no more (injected clock)', async () => {
    const { email, own, token } = await strangerSignedIn();
    // A change asked before the report: its link waits out the freeze, and dies before it ends.
    const before = newEmail('before');
    expect((await t.call('/api/accounts/ChangeEmail', { newEmail: before }, own)).statusCode).toBe(200);
    const pendingChange = await t.lastLinkToken(before);
    expect((await report(token)).statusCode).toBe(200);
    // Signed in again (after the reset the customer is back in), each time just now: a proof of
    // presence (ADR 0040) is asked for only once the freeze is over.
    const change = async () =>
      t.call('/api/accounts/ChangeEmail', { newEmail: newEmail('after') }, await freshSession(t, email));
    const verify = () => t.call('/api/accounts/VerifyEmailChange', { token: pendingChange });

    expect([faultOf(await change()), faultOf(await verify())]).toEqual(['EmailChangeFrozen', 'EmailChangeFrozen']);
    const frozen = await change();
    expect(frozen.statusCode).toBe(403);
    expect(frozen.json().Fault.ExceptionUserText).toBe(
      'A sign-in was reported as not yours: email changes are paused for 24 hours.',
    );
    const stale = await freshSession(t, email);
    t.clock.advanceMinutes(EMAIL_CHANGE_FREEZE_HOURS * 60 - 1);
    expect([faultOf(await change()), faultOf(await verify())]).toEqual(['EmailChangeFrozen', 'EmailChangeFrozen']);
    // Frozen is said before a proof of presence is asked for (ADR 0040).
    const staleChange = await t.call('/api/accounts/ChangeEmail', { newEmail: newEmail('stale') }, stale);
    expect(faultOf(staleChange)).toBe('EmailChangeFrozen');
    t.clock.advanceMinutes(2);
    expect((await change()).statusCode).toBe(200);
    // The link asked for before the report has expired meanwhile.
    expect(faultOf(await verify())).toBe('ActionTokenExpired');
  });

  it('is single-use, expires, and an unknown link changes nothing', async () => {
    const first = await strangerSignedIn();
    expect((await report(first.token)).statusCode).toBe(200);
    const again = await report(first.token);
    expect([again.statusCode, faultOf(again)]).toEqual([409, 'ActionTokenAlreadyUsed']);

    const second = await strangerSignedIn();
    t.clock.advanceHours(SIGN_IN_REPORT_LINK_VALIDITY_HOURS);
    const late = await report(second.token);
    expect([late.statusCode, faultOf(late)]).toEqual([410, 'ActionTokenExpired']);
    const unknown = await report('x'.repeat(43));
    expect([unknown.statusCode, faultOf(unknown)]).toEqual([404, 'ActionTokenNotFound']);
    // Nothing happened to the second customer: both sessions live, the password works.
    expect(await whoIs(second.own)).toBe(second.email);
    expect(await whoIs(second.theirs)).toBe(second.email);
    expect((await login(second.laptop, second.email)).statusCode).toBe(200);
  });
});
