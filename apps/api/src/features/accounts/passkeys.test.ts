import { PASSKEY_CHALLENGE_MINUTES, PASSKEY_MAX_PER_ACCOUNT, TOTP_PERIOD_SECONDS } from '@soundid/contracts';
import { count, eq } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import {
  googleStandInEnv,
  type ProviderStandIns,
  startProviderStandIns,
  TEST_GOOGLE_CLIENT_ID,
} from '../../../test/provider-stand-ins';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { users } from '../../db/schema';
import { passkeyChallenges, passkeys } from '../../db/second-factor-schema';
import { hashToken } from '../../lib/secrets';
import { findUserByEmail } from './users-repo';

/**
 * Passkeys (ADR 0039) against a software authenticator (test/software-authenticator.ts): real
 * P-256 signatures over hand-built authenticator data, checked by @simplewebauthn/server. Every
 * test makes its own customer.
 */
let t: TestApp;
let providers: ProviderStandIns;
const ORIGIN = 'http://localhost:3000'; // the test app's PUBLIC_URL
const GOOGLE = TEST_GOOGLE_CLIENT_ID;
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

type Options = { challenge: string; rp: { id: string }; user: { id: string } } & Record<string, unknown>;

async function register(token: string, authenticator: SoftwareAuthenticator, name?: string) {
  const begun = await t.call('/api/accounts/BeginPasskeyRegistration', {}, token);
  expect(begun.statusCode).toBe(200);
  const options = begun.json().Result.Options as Options;
  const response = authenticator.register(options);
  return t.call('/api/accounts/FinishPasskeyRegistration', { response, ...(name ? { name } : {}) }, token);
}

async function customerWithPasskey(
  name: string,
  settings: ConstructorParameters<typeof SoftwareAuthenticator>[1] = {},
) {
  const email = newEmail(name);
  const token = await signUpVerified(t, email);
  const authenticator = new SoftwareAuthenticator(ORIGIN, settings);
  const res = await register(token, authenticator);
  expect(res.statusCode).toBe(200);
  return { email, token, authenticator, passkey: res.json().Result.Passkey as { Id: string; Name: string } };
}

async function beginLogin(signInChallenge?: string) {
  const res = await t.call('/api/accounts/BeginPasskeyLogin', signInChallenge ? { signInChallenge } : {});
  expect(res.statusCode).toBe(200);
  return res.json().Result as {
    ChallengeId: string;
    Options: { challenge: string; rpId: string } & Record<string, unknown>;
  };
}

const finishLogin = (challengeId: string, response: unknown, extra: Record<string, unknown> = {}) =>
  t.call('/api/accounts/FinishPasskeyLogin', { challengeId, response, getProfile: true, ...extra });

async function passkeyLogin(authenticator: SoftwareAuthenticator, credential = authenticator.credentials[0]) {
  const { ChallengeId, Options } = await beginLogin();
  return finishLogin(ChallengeId, authenticator.assert(Options, { credential }));
}

describe('registering passkeys (ASVS 6.5.x, 6.6.x)', () => {
  it('asks for a discoverable credential with user verification, and lists the passkey named after the platform', async () => {
    const email = newEmail('register');
    const token = await signUpVerified(t, email);
    const begun = await t.call('/api/accounts/BeginPasskeyRegistration', {}, token);
    const options = begun.json().Result.Options;
    expect(options.rp).toEqual({ name: 'My SoundID', id: 'localhost' });
    expect(options.user.name).toBe(email);
    expect(options.attestation).toBe('none');
    expect(options.authenticatorSelection).toMatchObject({
      residentKey: 'required',
      requireResidentKey: true,
      userVerification: 'required',
    });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/); // 256 bits
    const user = await findUserByEmail(t.database.db, email);
    // The user handle is the account's random id, not its address.
    expect(Buffer.from(options.user.id, 'base64url').toString()).toBe(user?.id);

    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const done = await t.call(
      '/api/accounts/FinishPasskeyRegistration',
      { response: authenticator.register(options) },
      token,
      { 'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) Chrome/130' },
    );
    expect(done.statusCode).toBe(200);
    const passkey = done.json().Result.Passkey;
    expect(passkey).toMatchObject({ Name: 'Passkey on Mac', LastUsedAt: null, BackedUp: false });
    expect(passkey.CreatedAt).toBe(t.clock.now().toISOString());
    const listed = await t.call('/api/accounts/ListPasskeys', {}, token);
    expect(listed.json().Result.Passkeys).toEqual([passkey]);
    // The customer is told: a passkey added by someone else would outlive a password change (ASVS 6.3.7).
    const [mail] = await t.mailsTo(email);
    expect(mail?.Subject).toBe('A passkey was added to your My SoundID account');
    expect(mail?.Text).toContain('“Passkey on Mac”');

    // The challenge was stored as its hash only, and is used up.
    const [stored] = await t.database.db
      .select()
      .from(passkeyChallenges)
      .where(eq(passkeyChallenges.challengeHash, hashToken(options.challenge)));
    expect(stored?.usedAt).not.toBeNull();
    expect(JSON.stringify(stored)).not.toContain(options.challenge);
  });

  it('holds several named passkeys, names a known authenticator after it, renames and removes them', async () => {
    const email = newEmail('several');
    const token = await signUpVerified(t, email);
    const icloud = new SoftwareAuthenticator(ORIGIN, {
      aaguid: 'fbfc3007-154e-4ecc-8c0b-6e020557d7bd',
      backedUp: true,
    });
    const first = (await register(token, icloud)).json().Result.Passkey;
    expect(first).toMatchObject({ Name: 'iCloud Keychain', BackedUp: true });
    t.clock.advanceMinutes(1);
    const key = new SoftwareAuthenticator(ORIGIN, { counts: true });
    const second = (await register(token, key, '  Blue key  ')).json().Result.Passkey;
    expect(second.Name).toBe('Blue key');
    // The next registration excludes both: the same authenticator is not registered twice.
    const options = (await t.call('/api/accounts/BeginPasskeyRegistration', {}, token)).json().Result.Options;
    expect(options.excludeCredentials.map((c: { id: string }) => c.id).sort()).toEqual(
      [icloud, key].map((a) => a.credentials[0]?.id.toString('base64url')).sort(),
    );
    expect(
      (await t.call('/api/accounts/ListPasskeys', {}, token)).json().Result.Passkeys.map((p: { Id: string }) => p.Id),
    ).toEqual([second.Id, first.Id]);

    const renamed = await t.call('/api/accounts/RenamePasskey', { id: first.Id, name: 'My phone' }, token);
    expect(renamed.json().Result.Passkey.Name).toBe('My phone');
    expect(faultOf(await t.call('/api/accounts/RenamePasskey', { id: first.Id, name: '   ' }, token))).toBe(
      'RequestInvalid',
    );
    expect((await t.call('/api/accounts/RemovePasskey', { id: first.Id }, token)).json()).toEqual({
      Success: true,
      Result: {},
    });
    expect(faultOf(await t.call('/api/accounts/RemovePasskey', { id: first.Id }, token))).toBe('PasskeyNotFound');
    // A removed passkey signs nobody in.
    expect(faultOf(await passkeyLogin(icloud))).toBe('PasskeyInvalid');
    expect((await passkeyLogin(key)).statusCode).toBe(200);
  });

  it('refuses an answer for another origin, without user verification, replayed, or after 5 minutes', async () => {
    const email = newEmail('badreg');
    const token = await signUpVerified(t, email);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const begin = async () => (await t.call('/api/accounts/BeginPasskeyRegistration', {}, token)).json().Result.Options;
    const finish = (response: unknown) => t.call('/api/accounts/FinishPasskeyRegistration', { response }, token);

    expect(faultOf(await finish(authenticator.register(await begin(), { origin: 'https://evil.example' })))).toBe(
      'PasskeyInvalid',
    );
    const noUv = new SoftwareAuthenticator(ORIGIN, { verifiesUser: false });
    expect(faultOf(await finish(noUv.register(await begin())))).toBe('PasskeyInvalid');
    const options = await begin();
    const answer = authenticator.register(options);
    expect((await finish(answer)).statusCode).toBe(200);
    expect(faultOf(await finish(answer))).toBe('PasskeyChallengeInvalid');
    const late = await begin();
    t.clock.advanceMinutes(PASSKEY_CHALLENGE_MINUTES + 0.1);
    expect(faultOf(await finish(authenticator.register(late)))).toBe('PasskeyChallengeInvalid');
    // Another customer's challenge is not this customer's.
    const other = await signUpVerified(t, newEmail('badreg-other'));
    const theirs = (await t.call('/api/accounts/BeginPasskeyRegistration', {}, other)).json().Result.Options;
    expect(faultOf(await finish(authenticator.register(theirs)))).toBe('PasskeyChallengeInvalid');
    expect((await t.call('/api/accounts/BeginPasskeyRegistration', {})).statusCode).toBe(401);
  });

  it(`holds at most ${PASSKEY_MAX_PER_ACCOUNT} passkeys`, async () => {
    const token = await signUpVerified(t, newEmail('many'));
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    for (let i = 0; i < PASSKEY_MAX_PER_ACCOUNT; i++)
      expect((await register(token, authenticator)).statusCode).toBe(200);
    expect(faultOf(await t.call('/api/accounts/BeginPasskeyRegistration', {}, token))).toBe('PasskeyLimitReached');
  });

  it('holds the limit under parallel registrations: of four finishing at once with one place left, one is kept', async () => {
    const email = newEmail('race');
    const token = await signUpVerified(t, email);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    for (let i = 0; i < PASSKEY_MAX_PER_ACCOUNT - 1; i++)
      expect((await register(token, authenticator)).statusCode).toBe(200);
    const answers = [];
    for (let i = 0; i < 4; i++) {
      const begun = await t.call('/api/accounts/BeginPasskeyRegistration', {}, token);
      answers.push(authenticator.register(begun.json().Result.Options as Options));
    }
    const finished = await Promise.all(
      answers.map((response) => t.call('/api/accounts/FinishPasskeyRegistration', { response }, token)),
    );
    expect(finished.filter((res) => res.statusCode === 200)).toHaveLength(1);
    expect(finished.filter((res) => faultOf(res) === 'PasskeyLimitReached')).toHaveLength(3);
    const user = await findUserByEmail(t.database.db, email);
    const [held] = await t.database.db
      .select({ n: count() })
      .from(passkeys)
      .where(eq(passkeys.userId, user?.id as string));
    expect(held?.n).toBe(PASSKEY_MAX_PER_ACCOUNT);
  });

  it('lets a customer who signs in with Google (no password) add one', async () => {
    const email = newEmail('social');
    const idToken = await providers.signIdToken(
      { sub: `g-${email}`, email, email_verified: true },
      { issuer: 'https://accounts.google.com', audience: GOOGLE },
    );
    const realNow = t.clock.now;
    t.clock.now = () => new Date(); // the stand-in signs with the real time
    let token: string;
    try {
      const res = await t.call('/api/accounts/LoginBySocial', {
        socialPlatform: 'Google',
        token: idToken,
        tokenType: 'id_token',
      });
      expect(res.statusCode).toBe(200);
      token = res.json().Token;
    } finally {
      t.clock.now = realNow;
    }
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    expect((await register(token, authenticator)).statusCode).toBe(200);
    const signedIn = await passkeyLogin(authenticator);
    expect(signedIn.json().Result.User.Email).toBe(email);
  });
});

describe('signing in with a passkey (ASVS 6.5.x, 6.6.x, 7.2.4)', () => {
  it('needs no e-mail: an anonymous challenge, then answers as LoginByEmail does', async () => {
    const { email, authenticator } = await customerWithPasskey('login');
    const { ChallengeId, Options } = await beginLogin();
    expect(Options).toMatchObject({ rpId: 'localhost', userVerification: 'required' });
    expect(Options.allowCredentials).toBeUndefined(); // discoverable: the authenticator offers its passkeys
    const done = await finishLogin(ChallengeId, authenticator.assert(Options));
    expect(done.statusCode).toBe(200);
    expect(done.json().Token).toEqual(expect.any(String));
    expect(done.json().Result.User.Email).toBe(email);
    expect(done.headers['set-cookie']).toMatch(/HttpOnly/);
    const who = await t.call('/api/accounts/LoginByToken', {}, done.json().Token);
    expect(who.json().Result.User.Email).toBe(email);
    // A browser gets the session in the cookie only.
    const browser = await beginLogin();
    const inBrowser = await t.call(
      '/api/accounts/FinishPasskeyLogin',
      { challengeId: browser.ChallengeId, response: authenticator.assert(browser.Options) },
      undefined,
      { 'sec-fetch-site': 'same-origin', 'sec-fetch-mode': 'cors', Software: 'MySoundID-Web/1.0' },
    );
    expect(inBrowser.statusCode).toBe(200);
    expect(String(inBrowser.headers['set-cookie'])).toMatch(/soundid_session=[^;]+;[^,]*HttpOnly/);
    expect(inBrowser.json().Token).toBeUndefined();

    const listed = (await t.call('/api/accounts/ListPasskeys', {}, done.json().Token)).json().Result.Passkeys;
    expect(listed[0].LastUsedAt).toBe(t.clock.now().toISOString());
  });

  it('uses a challenge once and for 5 minutes', async () => {
    const { authenticator } = await customerWithPasskey('challenge');
    const { ChallengeId, Options } = await beginLogin();
    const answer = authenticator.assert(Options);
    expect((await finishLogin(ChallengeId, answer)).statusCode).toBe(200);
    expect(faultOf(await finishLogin(ChallengeId, answer))).toBe('PasskeyChallengeInvalid');

    const late = await beginLogin();
    t.clock.advanceMinutes(PASSKEY_CHALLENGE_MINUTES + 0.1);
    expect(faultOf(await finishLogin(late.ChallengeId, authenticator.assert(late.Options)))).toBe(
      'PasskeyChallengeInvalid',
    );
    // An answer to one challenge does not complete another.
    const one = await beginLogin();
    const two = await beginLogin();
    expect(faultOf(await finishLogin(two.ChallengeId, authenticator.assert(one.Options)))).toBe('PasskeyInvalid');
    // Nor does a refused answer leave its challenge usable.
    expect(faultOf(await finishLogin(two.ChallengeId, authenticator.assert(two.Options)))).toBe(
      'PasskeyChallengeInvalid',
    );
  });

  it('refuses another origin, an unknown passkey, and an assertion without user verification', async () => {
    const { token, authenticator } = await customerWithPasskey('refused');
    const a = await beginLogin();
    expect(
      faultOf(await finishLogin(a.ChallengeId, authenticator.assert(a.Options, { origin: 'https://evil.example' }))),
    ).toBe('PasskeyInvalid');
    const stranger = new SoftwareAuthenticator(ORIGIN);
    stranger.register({ challenge: 'x', rp: { id: 'localhost' }, user: { id: 'x' } });
    expect(faultOf(await passkeyLogin(stranger))).toBe('PasskeyInvalid');
    // A passkey registered with verification, then used without it (a key without its PIN).
    const noUv = new SoftwareAuthenticator(ORIGIN);
    expect((await register(token, noUv)).statusCode).toBe(200);
    Object.assign(noUv, { settings: { verifiesUser: false } });
    expect(faultOf(await passkeyLogin(noUv))).toBe('PasskeyInvalid');
  });

  it('refuses a cloned authenticator: a signature counter that does not move forward', async () => {
    const { authenticator, email } = await customerWithPasskey('cloned', { counts: true });
    const original = authenticator.credentials[0];
    if (!original) throw new Error('no credential');
    const clone = SoftwareAuthenticator.clone(original);
    expect((await passkeyLogin(authenticator)).statusCode).toBe(200); // counter 1
    expect((await passkeyLogin(authenticator)).statusCode).toBe(200); // counter 2
    // The clone was copied at 0: its next signature says 1, behind the 2 on record.
    expect(faultOf(await passkeyLogin(authenticator, clone))).toBe('PasskeyInvalid');
    const user = await findUserByEmail(t.database.db, email);
    const [row] = await t.database.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, user?.id as string));
    expect(row?.counter).toBe(2);
    // The original goes on.
    expect((await passkeyLogin(authenticator)).statusCode).toBe(200);
  });

  it('does not count refused passkeys toward the sign-in lockout, and is not stopped by it', async () => {
    const { email, authenticator } = await customerWithPasskey('lockout');
    for (let i = 0; i < 10; i++) await t.call('/api/accounts/LoginByEmail', { email, password: 'wrong password!' });
    expect(faultOf(await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD }))).toBe(
      'AttemptOverLimitLogin',
    );
    expect((await passkeyLogin(authenticator)).statusCode).toBe(200);
  });
});

describe('a passkey as the second factor (ASVS 6.6.x)', () => {
  const codeAt = (secret: string, steps = 0) =>
    generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + steps * TOTP_PERIOD_SECONDS });

  async function withTotpAndPasskey(name: string) {
    const customer = await customerWithPasskey(name);
    const begun = await t.call('/api/accounts/BeginTotpSetup', {}, customer.token);
    const { Secret } = begun.json().Result as { Secret: string };
    expect((await t.call('/api/accounts/ConfirmTotpSetup', { code: codeAt(Secret) }, customer.token)).statusCode).toBe(
      200,
    );
    t.clock.advanceMinutes(TOTP_PERIOD_SECONDS / 60);
    return customer;
  }
  const challengeOf = (res: { json(): unknown }) =>
    (res.json() as { Fault: { ExceptionVariables: { Key: string; Value: string }[] } }).Fault.ExceptionVariables.find(
      (v) => v.Key === 'Challenge',
    )?.Value as string;

  it('signs an account with TOTP in by passkey alone: a verified passkey is multi-factor', async () => {
    const { email, authenticator } = await withTotpAndPasskey('totp-passkey');
    expect(faultOf(await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD }))).toBe(
      'SecondFactorRequired',
    );
    const done = await passkeyLogin(authenticator);
    expect(done.statusCode).toBe(200);
    expect(done.json().Result.User.Email).toBe(email);
  });

  it('completes a sign-in waiting for its second factor, once, with only that account’s passkeys', async () => {
    const { email, authenticator } = await withTotpAndPasskey('step');
    const first = await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD, keepMeSignedIn: true });
    const challenge = challengeOf(first);
    const { ChallengeId, Options } = await beginLogin(challenge);
    expect((Options.allowCredentials as { id: string }[]).map((c) => c.id)).toEqual([
      authenticator.credentials[0]?.id.toString('base64url'),
    ]);
    const done = await finishLogin(ChallengeId, authenticator.assert(Options));
    expect(done.statusCode).toBe(200);
    expect(done.json().Result.User.Email).toBe(email);
    // The keep-me-signed-in choice of the first step: a persistent cookie.
    expect(done.headers['set-cookie']).toMatch(/Max-Age|Expires/i);
    // That sign-in is over: neither a code nor another passkey completes it again.
    expect(faultOf(await t.call('/api/accounts/BeginPasskeyLogin', { signInChallenge: challenge }))).toBe(
      'SecondFactorChallengeInvalid',
    );

    // Another customer's passkey does not complete this customer's sign-in.
    const other = await customerWithPasskey('step-other');
    const again = challengeOf(await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD }));
    const bound = await beginLogin(again);
    expect(faultOf(await finishLogin(bound.ChallengeId, other.authenticator.assert(bound.Options)))).toBe(
      'PasskeyInvalid',
    );
  });

  it('answers PasskeyNotFound at the second-factor step of an account without passkeys', async () => {
    const email = newEmail('nopasskey');
    const token = await signUpVerified(t, email);
    const { Secret } = (await t.call('/api/accounts/BeginTotpSetup', {}, token)).json().Result;
    await t.call('/api/accounts/ConfirmTotpSetup', { code: codeAt(Secret) }, token);
    const challenge = challengeOf(await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD }));
    expect(faultOf(await t.call('/api/accounts/BeginPasskeyLogin', { signInChallenge: challenge }))).toBe(
      'PasskeyNotFound',
    );
  });
});

describe('passkeys across customers (ASVS 8.2.x)', () => {
  it('cannot list, rename or remove another customer’s passkey', async () => {
    const owner = await customerWithPasskey('owner');
    const other = await signUpVerified(t, newEmail('intruder'));
    expect((await t.call('/api/accounts/ListPasskeys', {}, other)).json().Result.Passkeys).toEqual([]);
    expect(faultOf(await t.call('/api/accounts/RenamePasskey', { id: owner.passkey.Id, name: 'mine' }, other))).toBe(
      'PasskeyNotFound',
    );
    expect(faultOf(await t.call('/api/accounts/RemovePasskey', { id: owner.passkey.Id }, other))).toBe(
      'PasskeyNotFound',
    );
    expect((await t.call('/api/accounts/ListPasskeys', {}, owner.token)).json().Result.Passkeys).toHaveLength(1);
    expect((await passkeyLogin(owner.authenticator)).statusCode).toBe(200);
  });

  it('goes with the account', async () => {
    const owner = await customerWithPasskey('deleted');
    const user = await findUserByEmail(t.database.db, owner.email);
    await t.database.db.delete(users).where(eq(users.id, user?.id as string));
    expect(
      await t.database.db
        .select()
        .from(passkeys)
        .where(eq(passkeys.userId, user?.id as string)),
    ).toEqual([]);
  });
});
