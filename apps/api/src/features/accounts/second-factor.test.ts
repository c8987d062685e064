import {
  ExceptionType,
  LOGIN_MAX_FAILED_ATTEMPTS,
  RECOVERY_CODE_COUNT,
  SIGN_IN_CHALLENGE_MINUTES,
  TOTP_PERIOD_SECONDS,
} from '@soundid/contracts';
import { and, eq } from 'drizzle-orm';
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
import { attemptCounters } from '../../db/schema';
import { recoveryCodes, signInChallenges, totpFactors } from '../../db/second-factor-schema';
import { hashToken } from '../../lib/secrets';
import { LOGIN_LIMIT } from './service';
import { findUserByEmail } from './users-repo';

/**
 * Second factors (ADR 0037): TOTP with an injected clock, single-use recovery codes, the
 * challenged sign-in and its lockout. Every test makes its own customer, so each runs alone.
 */
let t: TestApp;
let providers: ProviderStandIns;
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

/** The code an authenticator app shows now (or `steps` periods from now) for a secret. */
const codeAt = (secret: string, steps = 0) =>
  generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + steps * TOTP_PERIOD_SECONDS });
const nextStep = () => t.clock.advanceMinutes(TOTP_PERIOD_SECONDS / 60);

/** A verified customer with TOTP on: its session, secret and recovery codes. */
async function withTotp(name: string) {
  const email = newEmail(name);
  const token = await signUpVerified(t, email);
  const begun = await t.call('/api/accounts/BeginTotpSetup', {}, token);
  const { Secret } = begun.json().Result as { Secret: string };
  const confirmed = await t.call('/api/accounts/ConfirmTotpSetup', { code: codeAt(Secret) }, token);
  const { RecoveryCodes } = confirmed.json().Result as { RecoveryCodes: string[] };
  nextStep(); // the setup code is used up: sign-ins in the tests use the next one
  return { email, token, secret: Secret, recoveryCodes: RecoveryCodes };
}

const login = (email: string, password = PASSWORD) =>
  t.call('/api/accounts/LoginByEmail', { email, password, keepMeSignedIn: true });
const challengeOf = (res: { json(): unknown }) =>
  (res.json() as { Fault: { ExceptionVariables: { Key: string; Value: string }[] } }).Fault.ExceptionVariables.find(
    (v) => v.Key === 'Challenge',
  )?.Value as string;
const second = (challenge: string, code: string) =>
  t.call('/api/accounts/LoginSecondFactor', { challenge, code, getProfile: true });

describe('setting up TOTP (ASVS 6.5.3, 6.6.x)', () => {
  it('gives a base32 secret and an otpauth URL, turns on only with a right code, and answers ten recovery codes once', async () => {
    const email = newEmail('setup');
    const token = await signUpVerified(t, email);
    const begun = await t.call('/api/accounts/BeginTotpSetup', {}, token);
    expect(begun.statusCode).toBe(200);
    const { Secret, OtpauthUrl } = begun.json().Result;
    expect(Secret).toMatch(/^[A-Z2-7]{32}$/); // 20 random bytes
    const url = new URL(OtpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.searchParams.get('secret')).toBe(Secret);
    expect(url.searchParams.get('issuer')).toBe('My SoundID');
    expect(decodeURIComponent(url.pathname)).toContain(email);

    const wrong = await t.call('/api/accounts/ConfirmTotpSetup', { code: codeAt(Secret, 5) }, token);
    expect(faultOf(wrong)).toBe('SecondFactorCodeInvalid');
    expect((await t.call('/api/accounts/GetSecondFactors', {}, token)).json().Result).toEqual({
      TotpEnabled: false,
      RecoveryCodesLeft: 0,
    });
    // The app shows the code with a space; the customer may type it so.
    const spaced = codeAt(Secret).replace(/^(\d{3})/, '$1 ');
    const confirmed = await t.call('/api/accounts/ConfirmTotpSetup', { code: spaced }, token);
    expect(confirmed.statusCode).toBe(200);
    const codes = confirmed.json().Result.RecoveryCodes as string[];
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{6}(-[a-z2-7]{6}){3}$/);
    expect(new Set(codes).size).toBe(RECOVERY_CODE_COUNT);
    expect((await t.call('/api/accounts/GetSecondFactors', {}, token)).json().Result).toEqual({
      TotpEnabled: true,
      RecoveryCodesLeft: RECOVERY_CODE_COUNT,
    });
    expect(faultOf(await t.call('/api/accounts/BeginTotpSetup', {}, token))).toBe('TotpAlreadyEnabled');
  });

  it('keeps the secret sealed and the recovery codes hashed (ASVS 6.5.2, 11.1.2)', async () => {
    const { email, secret, recoveryCodes: codes } = await withTotp('stored');
    const user = await findUserByEmail(t.database.db, email);
    const [factor] = await t.database.db
      .select()
      .from(totpFactors)
      .where(eq(totpFactors.userId, user?.id as string));
    expect(factor?.sealedSecret).toMatch(/^v1\./);
    expect(factor?.sealedSecret).not.toContain(secret);
    const stored = await t.database.db
      .select()
      .from(recoveryCodes)
      .where(eq(recoveryCodes.userId, user?.id as string));
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    const dump = JSON.stringify(stored);
    for (const code of codes) expect(dump).not.toContain(code.replaceAll('-', ''));
  });

  it('refuses a confirmation without a setup, and bad input changes nothing', async () => {
    const email = newEmail('nosetup');
    const token = await signUpVerified(t, email);
    expect(faultOf(await t.call('/api/accounts/ConfirmTotpSetup', { code: '123456' }, token))).toBe(
      'TotpSetupNotStarted',
    );
    const bad = await t.call('/api/accounts/ConfirmTotpSetup', { code: '12ab56' }, token);
    expect(bad.statusCode).toBe(400);
    expect(faultOf(bad)).toBe('RequestInvalid');
    expect(faultOf(await t.call('/api/accounts/DisableTotp', { code: '123456' }, token))).toBe('TotpNotEnabled');
    expect((await t.call('/api/accounts/BeginTotpSetup', {})).statusCode).toBe(401);
  });
});

describe('signing in with a second factor (ASVS 6.5.1, 6.5.5, 7.2.4)', () => {
  it('answers SecondFactorRequired with a challenge and no session; the code then signs in as LoginByEmail does', async () => {
    const { email, secret } = await withTotp('signin');
    const first = await login(email);
    expect(first.statusCode).toBe(401);
    const fault = first.json().Fault;
    expect(fault.ExceptionName).toBe('SecondFactorRequired');
    expect(fault.ExceptionType).toBe(ExceptionType.Business); // not a session fault (30)
    expect(first.json().Token).toBeUndefined();
    expect(first.headers['set-cookie']).toBeUndefined();
    const challenge = challengeOf(first);
    expect(challenge.length).toBeGreaterThan(30);

    const done = await second(challenge, codeAt(secret));
    expect(done.statusCode).toBe(200);
    expect(done.json().Token).toEqual(expect.any(String));
    expect(done.json().Result.User.Email).toBe(email);
    expect(done.headers['set-cookie']).toMatch(/HttpOnly/);
    const who = await t.call('/api/accounts/LoginByToken', {}, done.json().Token);
    expect(who.json().Result.User.Email).toBe(email);

    // The challenge is used up.
    nextStep();
    expect(faultOf(await second(challenge, codeAt(secret)))).toBe('SecondFactorChallengeInvalid');
  });

  it('accepts a code once (replay refused), within one step either side, and not two steps away', async () => {
    const { email, secret } = await withTotp('window');
    const used = codeAt(secret);
    expect((await second(challengeOf(await login(email)), used)).statusCode).toBe(200);
    expect(faultOf(await second(challengeOf(await login(email)), used))).toBe('SecondFactorCodeInvalid');

    nextStep();
    nextStep();
    expect(faultOf(await second(challengeOf(await login(email)), codeAt(secret, -2)))).toBe('SecondFactorCodeInvalid');
    expect(faultOf(await second(challengeOf(await login(email)), codeAt(secret, 2)))).toBe('SecondFactorCodeInvalid');
    // A phone one step behind: the previous step's code still works (it was never used).
    expect((await second(challengeOf(await login(email)), codeAt(secret, -1))).statusCode).toBe(200);
    // And after that, only later steps: the current one.
    expect((await second(challengeOf(await login(email)), codeAt(secret))).statusCode).toBe(200);
  });

  it('accepts one of two parallel sign-ins with the same code (ASVS 6.5.1)', async () => {
    const { email, secret } = await withTotp('parallel');
    const challenges = [challengeOf(await login(email)), challengeOf(await login(email))];
    const code = codeAt(secret);
    const answers = await Promise.all(challenges.map((challenge) => second(challenge, code)));
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 401]);
    // The loser's code was the one refused, not its challenge: the next step's code completes it.
    const loser = answers.findIndex((a) => a.statusCode === 401);
    expect(faultOf(answers[loser] as (typeof answers)[number])).toBe('SecondFactorCodeInvalid');
    nextStep();
    expect((await second(challenges[loser] as string, codeAt(secret))).statusCode).toBe(200);
  });

  it('leaves a challenge for the next try after a wrong or replayed code (ASVS 6.5.1)', async () => {
    const { email, secret } = await withTotp('retry');
    const used = codeAt(secret);
    expect((await second(challengeOf(await login(email)), used)).statusCode).toBe(200);
    const challenge = challengeOf(await login(email));
    expect(faultOf(await second(challenge, used))).toBe('SecondFactorCodeInvalid'); // a replay
    nextStep();
    const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    expect(faultOf(await second(challenge, wrong))).toBe('SecondFactorCodeInvalid');
    const done = await second(challenge, codeAt(secret));
    expect(done.statusCode).toBe(200);
    expect(done.json().Result.User.Email).toBe(email);
  });

  it('signs one challenge in once when two right codes (this step and the last) race for it (ASVS 6.5.1)', async () => {
    const { email, secret } = await withTotp('one-challenge');
    nextStep(); // the last step's code was not used either
    const challenge = challengeOf(await login(email));
    const answers = await Promise.all([second(challenge, codeAt(secret, -1)), second(challenge, codeAt(secret))]);
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(answers.map(faultOf).filter(Boolean)).toEqual(['SecondFactorChallengeInvalid']);
    const sessions = answers.map((a) => a.json().Token).filter(Boolean);
    expect(sessions).toHaveLength(1);
  });

  it('lets a challenge live 5 minutes', async () => {
    const { email, secret } = await withTotp('expiry');
    const challenge = challengeOf(await login(email));
    t.clock.advanceMinutes(SIGN_IN_CHALLENGE_MINUTES + 0.1);
    expect(faultOf(await second(challenge, codeAt(secret)))).toBe('SecondFactorChallengeInvalid');
    expect(faultOf(await second('not-a-challenge', codeAt(secret)))).toBe('SecondFactorChallengeInvalid');
  });

  it('signs in once with a recovery code (any case, dashes optional) and mails the customer', async () => {
    const { email, recoveryCodes: codes } = await withTotp('recovery');
    const code = codes[0] as string;
    const typed = code.toUpperCase().replaceAll('-', ' ');
    const done = await second(challengeOf(await login(email)), typed);
    expect(done.statusCode).toBe(200);
    const [mail] = await t.mailsTo(email);
    expect(mail?.Subject).toBe('A recovery code was used to sign in to My SoundID');
    expect(mail?.Text).toContain(`${RECOVERY_CODE_COUNT - 1} recovery codes left`);
    expect(faultOf(await second(challengeOf(await login(email)), code))).toBe('SecondFactorCodeInvalid');
    const status = await t.call('/api/accounts/GetSecondFactors', {}, done.json().Token);
    expect(status.json().Result.RecoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('counts wrong codes toward the sign-in lockout, atomically: a parallel burst is checked at most the allowance (ASVS 6.3.1)', async () => {
    const { email, secret } = await withTotp('burst');
    const challenge = challengeOf(await login(email));
    const wrong = String((Number(codeAt(secret)) + 1) % 1_000_000).padStart(6, '0');
    const burst = await Promise.all(Array.from({ length: 20 }, () => second(challenge, wrong)));
    const faults = burst.map(faultOf);
    expect(faults.filter((f) => f === 'SecondFactorCodeInvalid').length).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
    expect(faults.filter((f) => f === 'AttemptOverLimitLogin').length).toBeGreaterThanOrEqual(
      20 - LOGIN_MAX_FAILED_ATTEMPTS,
    );
    // Checked at most the allowance: the others were refused before their code was looked at.
    const [row] = await t.database.db
      .select()
      .from(signInChallenges)
      .where(eq(signInChallenges.challengeHash, hashToken(challenge)));
    expect(row?.failures).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
    // Locked: the right code signs nobody in, and neither does the password.
    const right = await second(challenge, codeAt(secret));
    expect(faultOf(right)).toBe('AttemptOverLimitLogin');
    expect(right.json().Token).toBeUndefined();
    expect(faultOf(await login(email))).toBe('AttemptOverLimitLogin');
  });

  it('asks a social sign-in for the second factor too', async () => {
    const { email, secret } = await withTotp('social');
    const idToken = await providers.signIdToken(
      { sub: `g-${email}`, email, email_verified: true },
      { issuer: 'https://accounts.google.com', audience: GOOGLE },
    );
    const realNow = t.clock.now;
    t.clock.now = () => new Date(); // the stand-in signs with the real time
    try {
      const res = await t.call('/api/accounts/LoginBySocial', {
        socialPlatform: 'Google',
        token: idToken,
        tokenType: 'id_token',
      });
      expect(faultOf(res)).toBe('SecondFactorRequired');
      expect(res.headers['set-cookie']).toBeUndefined();
      const done = await second(challengeOf(res), codeAt(secret));
      expect(done.statusCode).toBe(200);
      expect(done.json().Result.User.Email).toBe(email);
    } finally {
      t.clock.now = realNow;
    }
  });
});

describe('turning TOTP off and new recovery codes (ASVS 6.5.6)', () => {
  it('needs a right code; off, the password alone signs in again, and the customer is told (ASVS 6.3.7)', async () => {
    const { email, token, secret } = await withTotp('disable');
    expect(faultOf(await t.call('/api/accounts/DisableTotp', { code: codeAt(secret, 3) }, token))).toBe(
      'SecondFactorCodeInvalid',
    );
    expect(faultOf(await login(email))).toBe('SecondFactorRequired');
    const mailsBefore = (await t.mailsTo(email)).length;
    const off = await t.call('/api/accounts/DisableTotp', { code: codeAt(secret) }, token);
    expect(off.json()).toEqual({ Success: true, Result: {} });
    const mails = await t.mailsTo(email);
    expect(mails).toHaveLength(mailsBefore + 1);
    expect(mails[0]?.Subject).toBe('Two-step verification was turned off for My SoundID');
    expect((await login(email)).statusCode).toBe(200);
  });

  it('replaces the recovery codes: the old ones stop working', async () => {
    const { email, token, recoveryCodes: old } = await withTotp('regenerate');
    const fresh = await t.call('/api/accounts/RegenerateRecoveryCodes', { code: old[1] }, token);
    const codes = fresh.json().Result.RecoveryCodes as string[];
    expect(codes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(faultOf(await second(challengeOf(await login(email)), old[2] as string))).toBe('SecondFactorCodeInvalid');
    expect((await second(challengeOf(await login(email)), codes[0] as string)).statusCode).toBe(200);
  });
});

describe('the round trips a sign-in costs (docs/benchmarks.md, sign-in with TOTP)', () => {
  /** The statements sent to the database while `run` runs (the database client's queries). */
  async function statementsOf(run: () => Promise<unknown>): Promise<string[]> {
    const client = (t.database.db as unknown as { $client: { query: (...args: unknown[]) => Promise<unknown> } })
      .$client;
    const sent: string[] = [];
    const query = client.query;
    client.query = function (this: unknown, ...args: unknown[]) {
      const text = args[0];
      sent.push(typeof text === 'string' ? text : String((text as { text?: string }).text));
      return query.apply(this, args);
    };
    try {
      await run();
    } finally {
      client.query = query;
    }
    return sent;
  }

  it('signs in with password and TOTP in 2 + 3 statements, the lockout counted and cleared in them', async () => {
    const { email, secret } = await withTotp('round-trips');
    // A first sign-in from this device: the new-device mail and its reads are out of the count.
    expect((await second(challengeOf(await login(email)), codeAt(secret))).statusCode).toBe(200);
    await t.services.accounts.settled();
    nextStep();

    let challenge = '';
    const first = await statementsOf(async () => {
      challenge = challengeOf(await login(email));
    });
    // The attempt reserved with the account read; the challenge made as the counter is cleared.
    expect(first).toHaveLength(2);
    const done = await statementsOf(async () => {
      expect((await second(challenge, codeAt(secret))).statusCode).toBe(200);
    });
    // The challenge read as its attempt is reserved, the code accepted as the counter is
    // cleared, the session made as the device is recorded.
    expect(done).toHaveLength(3);
    const [counter] = await t.database.db
      .select()
      .from(attemptCounters)
      .where(and(eq(attemptCounters.scope, LOGIN_LIMIT.scope), eq(attemptCounters.key, email)));
    expect(counter).toBeUndefined();
  });
});
