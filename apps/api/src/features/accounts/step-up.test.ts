import {
  ExceptionType,
  LOGIN_MAX_FAILED_ATTEMPTS,
  STEP_UP_CODE_ATTEMPTS,
  STEP_UP_CODE_MINUTES,
  STEP_UP_WINDOW_MINUTES,
  TOTP_PERIOD_SECONDS,
} from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { users } from '../../db/schema';
import { stepUpCodes } from '../../db/second-factor-schema';
import { findUserByEmail } from './users-repo';

/**
 * Step-up (ADR 0040; ASVS 7.5.1 re-authentication before changing what protects the account,
 * 7.5.3 before sensitive operations): what matters needs a proof of presence in this session
 * within STEP_UP_WINDOW_MINUTES. Every test makes its own customer, so each runs alone.
 */
let t: TestApp;
const ORIGIN = 'http://localhost:3000'; // the test app's PUBLIC_URL
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let customers = 0;
const newEmail = (name: string) => `${name}-${++customers}@example.com`;
const stale = () => t.clock.advanceMinutes(STEP_UP_WINDOW_MINUTES + 1);
const stepUp = (token: string, proof: Record<string, unknown>) => t.call('/api/accounts/StepUp', proof, token);
const variable = (res: { json(): unknown }, key: string) =>
  (res.json() as { Fault: { ExceptionVariables: { Key: string; Value: string }[] } }).Fault.ExceptionVariables.find(
    (v) => v.Key === key,
  )?.Value;
const codeAt = (secret: string) => generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) });
const nextStep = () => t.clock.advanceMinutes(TOTP_PERIOD_SECONDS / 60);

/** A verified customer without a password (as after a social sign-up), signed in. */
async function withoutPassword(name: string) {
  const email = newEmail(name);
  const token = await signUpVerified(t, email);
  await t.database.db.update(users).set({ passwordHash: null }).where(eq(users.email, email));
  return { email, token };
}

/** A passkey of a software authenticator, registered for the session's customer. */
async function addPasskey(token: string): Promise<SoftwareAuthenticator> {
  const authenticator = new SoftwareAuthenticator(ORIGIN);
  const begun = await t.call('/api/accounts/BeginPasskeyRegistration', {}, token);
  const response = authenticator.register(begun.json().Result.Options);
  expect((await t.call('/api/accounts/FinishPasskeyRegistration', { response }, token)).statusCode).toBe(200);
  return authenticator;
}

const mailedCode = async (email: string) =>
  /(\d{6}) is your/.exec((await t.mailsTo(email))[0]?.Subject ?? '')?.[1] ?? '';

describe('what needs a step-up (ASVS 7.5.1, 7.5.3)', () => {
  it('a sign-in is a proof for the window; then each guarded call answers StepUpRequired and changes nothing', async () => {
    const email = newEmail('guarded');
    const token = await signUpVerified(t, email);
    const methods = await t.call('/api/accounts/GetStepUpMethods', {}, token);
    expect(methods.json().Result.Methods).toEqual(['Password']);
    expect(Date.parse(methods.json().Result.ProvenUntil)).toBe(
      t.clock.now().getTime() + STEP_UP_WINDOW_MINUTES * 60_000,
    );

    stale();
    const guarded: [string, Record<string, unknown>][] = [
      ['ChangeEmail', { newEmail: newEmail('new') }],
      ['DeleteAccount', {}],
      ['EndOtherSessions', {}],
      ['BeginTotpSetup', {}],
      ['DisableTotp', { code: '123456' }],
      ['RegenerateRecoveryCodes', { code: '123456' }],
      ['BeginPasskeyRegistration', {}],
      ['RemovePasskey', { id: '00000000-0000-4000-8000-000000000000' }],
    ];
    for (const [call, body] of guarded) {
      const res = await t.call(`/api/accounts/${call}`, body, token);
      expect(res.statusCode, call).toBe(403);
      expect(res.json().Fault, call).toMatchObject({
        ExceptionName: 'StepUpRequired',
        ExceptionType: ExceptionType.Business,
      });
      expect(variable(res, 'Methods'), call).toBe('Password');
    }
    expect(await t.mailsTo(email)).toHaveLength(1); // the verification mail only: no change was asked
    expect((await t.call('/api/accounts/GetStepUpMethods', {}, token)).json().Result.ProvenUntil).toBeNull();

    expect((await stepUp(token, { method: 'Password', password: PASSWORD })).json().Result.ProvenUntil).toBe(
      new Date(t.clock.now().getTime() + STEP_UP_WINDOW_MINUTES * 60_000).toISOString(),
    );
    expect((await t.call('/api/accounts/ChangeEmail', { newEmail: newEmail('new') }, token)).statusCode).toBe(200);
  });

  it('changing the password proves itself with the old one; setting a first one needs a step-up', async () => {
    const email = newEmail('change');
    const token = await signUpVerified(t, email);
    stale();
    const changed = await t.call(
      '/api/accounts/ChangePassword',
      { oldPassword: PASSWORD, newPassword: 'a brand new passphrase' },
      token,
    );
    expect(changed.statusCode).toBe(200);

    const social = await withoutPassword('first-password');
    stale();
    const set = () =>
      t.call('/api/accounts/ChangePassword', { oldPassword: '', newPassword: 'a brand new passphrase' }, social.token);
    expect(faultOf(await set())).toBe('StepUpRequired');
    const user = await findUserByEmail(t.database.db, social.email);
    expect(user?.passwordHash).toBeNull();
  });

  it('a session opened by a portal link from the desktop app proves nothing (ADR 0029)', async () => {
    const email = newEmail('handed');
    const appToken = await signUpVerified(t, email);
    const created = await t.call('/api/apps/CreateWebLoginCode', {}, appToken);
    const code = new URL(created.json().Result.Url).searchParams.get('token');
    const exchanged = await t.call('/api/accounts/ExchangeWebLoginCode', { code }, undefined, {
      'sec-fetch-site': 'same-origin',
      software: 'MySoundID-Web/1.0',
    });
    const browser = /^soundid_session=([^;]+)/.exec(String(exchanged.headers['set-cookie']))?.[1] as string;
    expect(faultOf(await t.call('/api/accounts/DeleteAccount', {}, browser))).toBe('StepUpRequired');
  });
});

describe('proving presence', () => {
  it('with the password: a wrong one is refused and counts toward the sign-in lockout (ASVS 6.3.1)', async () => {
    const email = newEmail('password');
    const token = await signUpVerified(t, email);
    stale();
    for (let i = 1; i < LOGIN_MAX_FAILED_ATTEMPTS; i++) {
      expect(faultOf(await stepUp(token, { method: 'Password', password: `guess ${i}` }))).toBe('StepUpProofInvalid');
    }
    expect(faultOf(await stepUp(token, { method: 'Password', password: 'last guess' }))).toBe('AttemptOverLimitLogin');
    expect(faultOf(await stepUp(token, { method: 'Password', password: PASSWORD }))).toBe('AttemptOverLimitLogin');
    expect((await t.call('/api/accounts/GetStepUpMethods', {}, token)).json().Result.ProvenUntil).toBeNull();
  });

  it('with a code from the authenticator app, accepted once (ASVS 6.5.1)', async () => {
    const email = newEmail('totp');
    const token = await signUpVerified(t, email);
    const { Secret } = (await t.call('/api/accounts/BeginTotpSetup', {}, token)).json().Result;
    await t.call('/api/accounts/ConfirmTotpSetup', { code: codeAt(Secret) }, token);
    nextStep();
    stale();
    expect((await t.call('/api/accounts/GetStepUpMethods', {}, token)).json().Result.Methods).toEqual([
      'Password',
      'Totp',
    ]);
    const code = codeAt(Secret);
    expect((await stepUp(token, { method: 'Totp', code })).statusCode).toBe(200);
    stale();
    expect(faultOf(await stepUp(token, { method: 'Totp', code }))).toBe('SecondFactorCodeInvalid');
    expect(faultOf(await stepUp(token, { method: 'Totp', code: 'abc' }))).toBe('RequestInvalid');
  });

  it('with a passkey of this account only (ASVS 6.5.x)', async () => {
    const email = newEmail('passkey');
    const token = await signUpVerified(t, email);
    const authenticator = await addPasskey(token);
    const otherAuthenticator = await addPasskey(await signUpVerified(t, newEmail('other')));
    stale();

    const options = (await t.call('/api/accounts/BeginStepUpPasskey', {}, token)).json().Result;
    expect(options.Options.allowCredentials).toHaveLength(1);
    // Another customer's passkey answering this account's ceremony is refused.
    const wrong = otherAuthenticator.assert(options.Options, { credential: otherAuthenticator.credentials[0] });
    expect(faultOf(await stepUp(token, { method: 'Passkey', challengeId: options.ChallengeId, response: wrong }))).toBe(
      'PasskeyInvalid',
    );
    const again = (await t.call('/api/accounts/BeginStepUpPasskey', {}, token)).json().Result;
    const right = authenticator.assert(again.Options, { credential: authenticator.credentials[0] });
    expect(
      (await stepUp(token, { method: 'Passkey', challengeId: again.ChallengeId, response: right })).statusCode,
    ).toBe(200);
    expect((await t.call('/api/accounts/DeleteAccount', {}, token)).statusCode).toBe(200);
  });

  it('without a password, with a code mailed for this session: single-use, expiring, burnt after wrong tries', async () => {
    const { email, token } = await withoutPassword('mailed');
    stale();
    expect((await t.call('/api/accounts/GetStepUpMethods', {}, token)).json().Result.Methods).toEqual(['EmailCode']);
    expect(faultOf(await stepUp(token, { method: 'Password', password: PASSWORD }))).toBe('RequestInvalid');
    expect(faultOf(await stepUp(token, { method: 'EmailCode', code: '000000' }))).toBe('StepUpCodeExpired');

    expect((await t.call('/api/accounts/SendStepUpCode', {}, token)).statusCode).toBe(200);
    const code = await mailedCode(email);
    expect(code).toMatch(/^\d{6}$/);
    const [row] = await t.database.db.select().from(stepUpCodes);
    expect(JSON.stringify(row)).not.toContain(code); // stored as a hash only (ASVS 6.5.2)

    // Only in the session that asked for it.
    const other = (
      await t.services.sessions.issue(t.database.db, (await findUserByEmail(t.database.db, email))?.id ?? '', true)
    ).token;
    expect(faultOf(await stepUp(other, { method: 'EmailCode', code }))).toBe('StepUpCodeExpired');

    const wrong = code === '111111' ? '222222' : '111111';
    expect(faultOf(await stepUp(token, { method: 'EmailCode', code: wrong }))).toBe('StepUpProofInvalid');
    expect(
      (await stepUp(token, { method: 'EmailCode', code: ` ${code.slice(0, 3)} ${code.slice(3)} ` })).statusCode,
    ).toBe(200);
    stale();
    expect(faultOf(await stepUp(token, { method: 'EmailCode', code }))).toBe('StepUpCodeExpired');

    // Burnt after the allowed tries, even for the right code.
    await t.call('/api/accounts/SendStepUpCode', {}, token);
    const burnt = await mailedCode(email);
    const miss = burnt === '111111' ? '222222' : '111111';
    for (let i = 0; i < STEP_UP_CODE_ATTEMPTS; i++) await stepUp(token, { method: 'EmailCode', code: miss });
    expect(faultOf(await stepUp(token, { method: 'EmailCode', code: burnt }))).toBe('StepUpCodeExpired');

    // Expired after its minutes.
    await t.call('/api/accounts/SendStepUpCode', {}, token);
    const late = await mailedCode(email);
    t.clock.advanceMinutes(STEP_UP_CODE_MINUTES + 1);
    expect(faultOf(await stepUp(token, { method: 'EmailCode', code: late }))).toBe('StepUpCodeExpired');
  });

  it('parallel tries of one mailed code: at most the allowed tries are checked, and one right try passes (ASVS 2.4.1)', async () => {
    const { email, token } = await withoutPassword('parallel');
    stale();
    await t.call('/api/accounts/SendStepUpCode', {}, token);
    const code = await mailedCode(email);
    const answers = await Promise.all(Array.from({ length: 12 }, () => stepUp(token, { method: 'EmailCode', code })));
    expect(answers.filter((a) => a.statusCode === 200)).toHaveLength(1);
    expect(new Set(answers.filter((a) => a.statusCode !== 200).map(faultOf))).toEqual(new Set(['StepUpCodeExpired']));
  });

  it('a password account gets no mailed code; bad proofs are clear Faults (ASVS 2.2.1)', async () => {
    const email = newEmail('input');
    const token = await signUpVerified(t, email);
    expect(faultOf(await t.call('/api/accounts/SendStepUpCode', {}, token))).toBe('RequestInvalid');
    expect(faultOf(await stepUp(token, { method: 'Totp', code: '123456' }))).toBe('RequestInvalid');
    for (const body of [
      {},
      { method: 'Guess' },
      { method: 'Password' },
      { method: 'Password', password: 'x', extra: 1 },
    ]) {
      const res = await stepUp(token, body);
      expect(res.statusCode, JSON.stringify(body)).toBe(400);
      expect(faultOf(res)).toBe('RequestInvalid');
    }
    expect(faultOf(await t.call('/api/accounts/StepUp', { method: 'Password', password: PASSWORD }))).toBe(
      'SecurityAuthTokenNotPassed',
    );
    expect(await t.mailsTo(email)).toHaveLength(1);
  });
});
