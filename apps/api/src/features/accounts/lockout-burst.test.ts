import { LOGIN_LOCKOUT_MINUTES, LOGIN_MAX_FAILED_ATTEMPTS, SERVICE_BUSY_RETRY_AFTER_SECONDS } from '@soundid/contracts';
import { and, count, eq, isNull } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { type ObservableHashing, observableHashing, until } from '../../../test/observable-hashing';
import { attemptCounters, sessions } from '../../db/schema';
import { signInChallenges } from '../../db/second-factor-schema';
import { LOGIN_LIMIT } from './service';
import { findUserByEmail } from './users-repo';

/**
 * The sign-in lockout under parallel guesses (ADR 0028): every password check counts its
 * attempt before it hashes, so a burst costs at most the rule's allowance of hashes, and a right
 * password that arrives once the address is locked signs nobody in. The hashes are counted on
 * the service's real argon2 pool, through the hashing the app is given.
 */
const BURST = 40;
const WRONG = 'not the password';

let t: TestApp;
let observed: ObservableHashing;
beforeAll(async () => {
  observed = observableHashing();
  t = await createTestApp({}, { hashing: observed.hashing });
});
afterAll(async () => {
  await t.close();
  await observed.close();
});

const login = (email: string, password: string) =>
  t.call('/api/accounts/LoginByEmail', { email, password, keepMeSignedIn: true });

/** The same address as a customer might type it: case and surrounding spaces vary. */
const variants = (email: string) => {
  const [local, domain] = email.split('@') as [string, string];
  return [
    email,
    email.toUpperCase(),
    ` ${local}@${domain.toUpperCase()}`,
    `${local[0]?.toUpperCase()}${email.slice(1)} `,
  ];
};

async function liveSessions(email: string): Promise<number> {
  const user = await findUserByEmail(t.database.db, email);
  const [row] = await t.database.db
    .select({ n: count() })
    .from(sessions)
    .where(and(eq(sessions.userId, user?.id ?? ''), isNull(sessions.revokedAt)));
  return row?.n ?? 0;
}

/**
 * Fires `BURST` calls at once with their verifications held, waits until each is either answered
 * or waiting for its hash, then sends `last` while they are still held, and releases them.
 */
async function heldBurst(
  guess: (i: number) => Promise<{ statusCode: number }>,
  last: () => Promise<{ statusCode: number; headers: Record<string, unknown>; json(): unknown }>,
) {
  const before = observed.verifies;
  observed.hold();
  let answered = 0;
  const burst = Array.from({ length: BURST }, (_, i) => guess(i).finally(() => (answered += 1)));
  try {
    await until(() => answered + (observed.verifies - before) >= BURST);
    const beforeLast = observed.verifies;
    let lastAnswered = false;
    const lastCall = last().finally(() => (lastAnswered = true));
    await until(() => lastAnswered || observed.verifies > beforeLast);
    observed.open();
    const results = await Promise.all(burst);
    return {
      results,
      last: await lastCall,
      hashes: observed.verifies - before,
      lastHashes: observed.verifies - beforeLast,
    };
  } finally {
    observed.open();
  }
}

describe('sign-in lockout under a parallel burst (ASVS 6.3.1, 2.4.1)', () => {
  it('checks at most the allowance of a burst of wrong guesses; the right password sent once it is locked signs nobody in', async () => {
    const email = 'burst@example.com';
    await signUpVerified(t, email);
    const sessionsBefore = await liveSessions(email);
    const forms = variants(email);
    const { results, last, hashes, lastHashes } = await heldBurst(
      (i) => login(forms[i % forms.length] as string, WRONG),
      () => login(forms[1] as string, PASSWORD),
    );
    expect(hashes).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
    // A locked address costs no hash.
    expect(lastHashes).toBe(0);
    expect(results.filter((r) => r.statusCode === 401)).toHaveLength(LOGIN_MAX_FAILED_ATTEMPTS - 1);
    expect(results.filter((r) => r.statusCode === 429)).toHaveLength(BURST - LOGIN_MAX_FAILED_ATTEMPTS + 1);
    expect(last.statusCode).toBe(429);
    expect(faultOf(last)).toBe('AttemptOverLimitLogin');
    expect(last.headers['retry-after']).toBe(String(LOGIN_LOCKOUT_MINUTES * 60));
    expect((last.json() as { Token?: string }).Token).toBeUndefined();
    expect(last.headers['set-cookie']).toBeUndefined();
    expect(await liveSessions(email)).toBe(sessionsBefore);

    // The lock is the rule's: after it runs out the right password signs in.
    t.clock.advanceMinutes(LOGIN_LOCKOUT_MINUTES + 0.1);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });

  it('counts every case and space variant of the address against one allowance, unheld', async () => {
    const email = 'variants@example.com';
    await signUpVerified(t, email);
    const forms = variants(email);
    const before = observed.verifies;
    const results = await Promise.all(
      Array.from({ length: BURST }, (_, i) => login(forms[i % forms.length] as string, WRONG)),
    );
    expect(observed.verifies - before).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
    expect(results.filter((r) => r.statusCode === 429).length).toBeGreaterThanOrEqual(
      BURST - LOGIN_MAX_FAILED_ATTEMPTS,
    );
    const right = await login(forms[2] as string, PASSWORD);
    expect(faultOf(right)).toBe('AttemptOverLimitLogin');
    expect(observed.verifies - before).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
  });

  it('unknown addresses are held to the same allowance (no free guessing of which exist)', async () => {
    const before = observed.verifies;
    await Promise.all(Array.from({ length: BURST }, () => login('nobody-here@example.com', WRONG)));
    expect(observed.verifies - before).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
    expect(faultOf(await login('nobody-here@example.com', WRONG))).toBe('AttemptOverLimitLogin');
  });
});

describe('a right password checked while the address gets locked (ASVS 6.3.1)', () => {
  /** Turns two-step verification on with the app's first code (the fake clock's). */
  async function turnOnTotp(token: string): Promise<void> {
    const begun = await t.call('/api/accounts/BeginTotpSetup', {}, token);
    const { Secret } = begun.json().Result as { Secret: string };
    const epoch = Math.floor(t.clock.now().getTime() / 1000);
    const confirmed = await t.call(
      '/api/accounts/ConfirmTotpSetup',
      { code: generateSync({ secret: Secret, epoch }) },
      token,
    );
    expect(confirmed.statusCode).toBe(200);
  }

  // The right password is admitted first and its hash held; wrong guesses then fill the
  // allowance and lock the address; the right one's check ends after the lock and is refused:
  // no session, and with a second factor no challenge (the statement that makes the challenge
  // clears the counter only where it is not locked).
  it.each([
    ['a password account', false],
    ['an account with TOTP', true],
  ])('refuses it for %s', async (_name, withTotp) => {
    const email = `late-right-${withTotp ? 'totp' : 'password'}@example.com`;
    const token = await signUpVerified(t, email);
    if (withTotp) await turnOnTotp(token);
    const sessionsBefore = await liveSessions(email);

    const before = observed.verifies;
    observed.holdPassword(PASSWORD);
    try {
      const right = login(email, PASSWORD);
      await until(() => observed.verifies > before);
      const wrong = [];
      for (let i = 1; i < LOGIN_MAX_FAILED_ATTEMPTS; i++) wrong.push(await login(email, WRONG));
      expect(faultOf(wrong.at(-1) as { json(): unknown })).toBe('AttemptOverLimitLogin');
      observed.open();
      const late = await right;
      expect(late.statusCode).toBe(429);
      expect(faultOf(late)).toBe('AttemptOverLimitLogin');
      expect(JSON.stringify(late.json())).not.toContain('Challenge');
    } finally {
      observed.open();
    }
    // A challenge made for the refused sign-in is not left behind.
    const user = await findUserByEmail(t.database.db, email);
    const [challenges] = await t.database.db
      .select({ n: count() })
      .from(signInChallenges)
      .where(eq(signInChallenges.userId, user?.id ?? ''));
    expect(challenges?.n).toBe(0);
    expect(await liveSessions(email)).toBe(sessionsBefore);
    t.clock.advanceMinutes(LOGIN_LOCKOUT_MINUTES + 0.1);
    expect(faultOf(await login(email, PASSWORD))).toBe(withTotp ? 'SecondFactorRequired' : undefined);
  });
});

describe('wrong guesses checked while the right password signs in (ASVS 6.3.1)', () => {
  // The right password is admitted first, then wrong guesses fill the allowance, all held; the
  // right one's check ends first and clears the count, as a success does; the wrong ones end
  // after. The one that had reached the limit finds no count to lock: it answers what the
  // database holds (not locked), never "locked" with no lock behind it.
  it('answers the guess that reached the limit as the database has it: no lock, no 429', async () => {
    const email = 'right-amid-wrong@example.com';
    await signUpVerified(t, email);
    const before = observed.verifies;
    observed.holdPassword(PASSWORD);
    observed.holdPassword(WRONG);
    try {
      const right = login(email, PASSWORD);
      await until(() => observed.verifies > before);
      const wrong = Array.from({ length: LOGIN_MAX_FAILED_ATTEMPTS - 1 }, () => login(email, WRONG));
      await until(() => observed.verifies >= before + LOGIN_MAX_FAILED_ATTEMPTS);
      observed.open(PASSWORD);
      expect((await right).statusCode).toBe(200);
      observed.open(WRONG);
      const faults = (await Promise.all(wrong)).map((answer) => faultOf(answer));
      expect(faults).toEqual(Array(LOGIN_MAX_FAILED_ATTEMPTS - 1).fill('UserLoginInvalidCredentials'));
    } finally {
      observed.open();
    }
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('a lock outlasts the window it was set in (ASVS 6.3.1)', () => {
  it('keeps the address locked for the whole lockout when the counting window rolls over meanwhile', async () => {
    const email = 'late-in-window@example.com';
    await signUpVerified(t, email);
    // The window opens with a first failure; the limit is reached near its end.
    expect(faultOf(await login(email, WRONG))).toBe('UserLoginInvalidCredentials');
    t.clock.advanceMinutes(LOGIN_LIMIT.windowMinutes - 1);
    for (let i = 1; i < LOGIN_MAX_FAILED_ATTEMPTS; i++) await login(email, WRONG);
    expect(faultOf(await login(email, PASSWORD))).toBe('AttemptOverLimitLogin');
    // A new counting window has begun, the lock (set a minute ago) has not run out.
    t.clock.advanceMinutes(2);
    expect(faultOf(await login(email, PASSWORD))).toBe('AttemptOverLimitLogin');
    t.clock.advanceMinutes(LOGIN_LOCKOUT_MINUTES);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('re-authentication and password change share the lockout (ASVS 6.3.1, 6.2.3, 7.5.2)', () => {
  it('a burst of wrong passwords to end the other sessions is checked at most the allowance; the right one after is refused', async () => {
    const email = 'reauth@example.com';
    const other = await signUpVerified(t, email);
    const token = (await login(email, PASSWORD)).json().Token as string;
    const { results, last, hashes, lastHashes } = await heldBurst(
      () => t.call('/api/accounts/EndOtherSessions', { password: WRONG }, token),
      () => t.call('/api/accounts/EndOtherSessions', { password: PASSWORD }, token),
    );
    expect(hashes).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
    expect(lastHashes).toBe(0);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(LOGIN_MAX_FAILED_ATTEMPTS - 1);
    expect(faultOf(last)).toBe('AttemptOverLimitLogin');
    // The other session was not ended, and sign-in to the address is locked as well.
    expect((await t.call('/api/accounts/LoginByToken', {}, other)).statusCode).toBe(200);
    expect(faultOf(await login(email, PASSWORD))).toBe('AttemptOverLimitLogin');
  });

  it('a burst of wrong old passwords is checked at most the allowance; the right one after changes nothing', async () => {
    const email = 'change@example.com';
    const token = await signUpVerified(t, email);
    const hashBefore = (await findUserByEmail(t.database.db, email))?.passwordHash;
    const newPassword = 'a brand new passphrase';
    const { results, last, hashes, lastHashes } = await heldBurst(
      () => t.call('/api/accounts/ChangePassword', { oldPassword: WRONG, newPassword }, token),
      () => t.call('/api/accounts/ChangePassword', { oldPassword: PASSWORD, newPassword }, token),
    );
    expect(hashes).toBeLessThanOrEqual(LOGIN_MAX_FAILED_ATTEMPTS);
    expect(lastHashes).toBe(0);
    expect(results.filter((r) => r.statusCode === 400)).toHaveLength(LOGIN_MAX_FAILED_ATTEMPTS - 1);
    expect(faultOf(last)).toBe('AttemptOverLimitLogin');
    expect((await findUserByEmail(t.database.db, email))?.passwordHash).toBe(hashBefore);
    t.clock.advanceMinutes(LOGIN_LOCKOUT_MINUTES + 0.1);
    expect((await login(email, PASSWORD)).statusCode).toBe(200);
  });
});

describe('admission before hashing (ASVS 2.4.1)', () => {
  it('a full hashing queue answers ServiceBusy (503, Retry-After) at once: no hash, no attempt counted', async () => {
    const email = 'busy@example.com';
    const narrow = observableHashing({ threads: 1, maxWaiting: 0 });
    const busy = await createTestApp({}, { hashing: narrow.hashing });
    try {
      await signUpVerified(busy, email);
      narrow.hold();
      const first = busy.call('/api/accounts/LoginByEmail', { email, password: PASSWORD });
      await until(() => narrow.verifies === 1);
      const refused = await busy.call('/api/accounts/LoginByEmail', { email: 'busy2@example.com', password: WRONG });
      expect(refused.statusCode).toBe(503);
      expect(faultOf(refused)).toBe('ServiceBusy');
      expect(refused.headers['retry-after']).toBe(String(SERVICE_BUSY_RETRY_AFTER_SECONDS));
      expect(narrow.verifies).toBe(1);
      const counters = await busy.database.db
        .select()
        .from(attemptCounters)
        .where(eq(attemptCounters.key, 'busy2@example.com'));
      expect(counters).toEqual([]);
      narrow.open();
      expect((await first).statusCode).toBe(200);
    } finally {
      narrow.open();
      await busy.close();
      await narrow.close();
    }
  });
});
