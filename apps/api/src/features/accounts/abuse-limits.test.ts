import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { faults, MAILS_MAX_PER_MAILBOX, SIGNUP_MAX_PER_CLIENT, SIGNUP_MAX_TOTAL } from '@soundid/contracts';
import { count, eq, like } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { loadConfig } from '../../config';
import { mailOutbox, users } from '../../db/schema';
import { clientOf, mailboxOf } from './abuse-limits';

// Sign-up and mail limits (docs/decisions/0031-sign-up-and-mail-limits.md), ASVS 5.0 2.4.1
// (anti-automation: limits on the number of requests per client and overall).

/** The production defaults: '' stands for unset, past the test app's generous values. */
const DEFAULTS = { SIGNUP_LIMIT_PER_CLIENT: '', SIGNUP_LIMIT_TOTAL: '', MAIL_LIMIT_PER_MAILBOX: '' };

const dataDir = mkdtempSync(path.join(tmpdir(), 'soundid-limits-'));

const register = (t: TestApp, email: string, remoteAddress = '127.0.0.1') =>
  t.app.inject({
    method: 'POST',
    url: '/api/accounts/register',
    payload: { email, password: PASSWORD },
    headers: { 'content-type': 'application/json' },
    remoteAddress,
  });

const accountsLike = async (t: TestApp, pattern: string) =>
  (await t.database.db.select({ n: count() }).from(users).where(like(users.email, pattern)))[0]?.n ?? 0;

const mailsLike = async (t: TestApp, pattern: string) => {
  await t.services.accounts.settled();
  return (await t.database.db.select({ n: count() }).from(mailOutbox).where(like(mailOutbox.to, pattern)))[0]?.n ?? 0;
};

const statuses = (answers: { statusCode: number }[]) => answers.map((a) => a.statusCode).sort((a, b) => a - b);

describe('the limits themselves', () => {
  it('are 5 sign-ups per client and 100 overall, and 5 mails per mailbox, an hour by default', () => {
    expect([SIGNUP_MAX_PER_CLIENT, SIGNUP_MAX_TOTAL, MAILS_MAX_PER_MAILBOX]).toEqual([5, 100, 5]);
    expect(
      loadConfig({
        NODE_ENV: 'test',
        DATA_DIR: dataDir,
        SESSION_SECRET: 'x'.repeat(32),
        ADMIN_TOKEN: 'y'.repeat(24),
      }).abuseLimits,
    ).toEqual({
      signUpsPerClient: 5,
      signUpsTotal: 100,
      mailsPerMailbox: 5,
    });
  });

  it('may be lowered in production, not raised where they protect others; the total is the operator’s', () => {
    const production = {
      NODE_ENV: 'production',
      DATA_DIR: dataDir,
      // Secrets as production wants them: random, and apart.
      SESSION_SECRET: randomBytes(32).toString('base64url'),
      ADMIN_TOKEN: randomBytes(32).toString('base64url'),
      DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
      PUBLIC_URL: 'https://my.soundid.test',
      SMTP_URL: 'smtp://127.0.0.1:1',
    };
    expect(() => loadConfig({ ...production, SIGNUP_LIMIT_PER_CLIENT: '6' })).toThrow(
      /SIGNUP_LIMIT_PER_CLIENT: may not exceed 5 in production/,
    );
    expect(() => loadConfig({ ...production, MAIL_LIMIT_PER_MAILBOX: '100000' })).toThrow(
      /MAIL_LIMIT_PER_MAILBOX: may not exceed 5 in production/,
    );
    expect(
      loadConfig({
        ...production,
        SIGNUP_LIMIT_PER_CLIENT: '3',
        MAIL_LIMIT_PER_MAILBOX: '2',
        SIGNUP_LIMIT_TOTAL: '5000',
      }).abuseLimits,
    ).toEqual({ signUpsPerClient: 3, signUpsTotal: 5000, mailsPerMailbox: 2 });
    for (const bad of ['0', '-1', 'many', '1.5']) {
      expect(() => loadConfig({ ...production, SIGNUP_LIMIT_TOTAL: bad })).toThrow(
        /SIGNUP_LIMIT_TOTAL: must be a whole number/,
      );
    }
  });

  it('count one mailbox for sub-addresses, case and Gmail’s dots; other dots are part of the name', () => {
    const table: [string, string][] = [
      ['ann@example.com', 'ann@example.com'],
      ['ann+1@example.com', 'ann@example.com'],
      ['Ann+Promo+2@EXAMPLE.com', 'ann@example.com'],
      ['a.nn@example.com', 'a.nn@example.com'],
      ['+tag@example.com', '+tag@example.com'],
      ['a.n.n+x@gmail.com', 'ann@gmail.com'],
      ['A.NN@googlemail.com', 'ann@gmail.com'],
    ];
    for (const [address, mailbox] of table) expect(mailboxOf(address), address).toBe(mailbox);
  });

  it('count an IPv6 client by its /64 network, an IPv4-mapped address as IPv4', () => {
    expect(clientOf('203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('::ffff:203.0.113.7')).toBe('203.0.113.7');
    expect(clientOf('2001:db8::1')).toBe(clientOf('2001:0db8:0:0:ffff:1:2:3'));
    expect(clientOf('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(clientOf('2001:db8:0:1::1')).not.toBe(clientOf('2001:db8::1'));
    expect(clientOf('fe80::1%eth0')).toBe('fe80:0:0:0::/64');
  });
});

describe('sign-ups (ASVS 2.4.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp(DEFAULTS);
  });
  afterAll(() => t.close());

  it('one client address makes 5 accounts an hour; the 6th is refused with 429, nothing made or mailed', async () => {
    for (let i = 1; i <= SIGNUP_MAX_PER_CLIENT; i++) {
      expect((await register(t, `seq${i}@example.com`, '198.51.100.1')).statusCode).toBe(201);
    }
    const over = await register(t, 'seq6@example.com', '198.51.100.1');
    expect(over.statusCode).toBe(429);
    expect(over.json().Fault).toMatchObject({
      ExceptionName: 'AttemptOverLimitSignUp',
      ExceptionType: 40,
      ExceptionUserText: faults.AttemptOverLimitSignUp.message,
    });
    expect(await accountsLike(t, 'seq6@%')).toBe(0);
    expect(await mailsLike(t, 'seq6@%')).toBe(0);

    // Another client is not held up; the same client is welcome again an hour later.
    expect((await register(t, 'other@example.com', '198.51.100.2')).statusCode).toBe(201);
    t.clock.advanceMinutes(59);
    expect((await register(t, 'seq6@example.com', '198.51.100.1')).statusCode).toBe(429);
    t.clock.advanceMinutes(1);
    expect((await register(t, 'seq6@example.com', '198.51.100.1')).statusCode).toBe(201);
  });

  it('a parallel burst of 15 from one client makes exactly 5 accounts and 5 mails', async () => {
    const answers = await Promise.all(
      Array.from({ length: 15 }, (_, i) => register(t, `burst${i}@example.com`, '198.51.100.3')),
    );
    expect(statuses(answers)).toEqual([...Array(5).fill(201), ...Array(10).fill(429)]);
    expect(await accountsLike(t, 'burst%')).toBe(5);
    expect(await mailsLike(t, 'burst%')).toBe(5);
  });

  it('an IPv6 client counts as its /64: new addresses inside it do not make new clients', async () => {
    const answers = [];
    for (let i = 1; i <= SIGNUP_MAX_PER_CLIENT + 1; i++)
      answers.push(await register(t, `six${i}@example.com`, `2001:db8:5::${i}`));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 429]);
  });
});

describe('sign-ups overall (ASVS 2.4.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ ...DEFAULTS, SIGNUP_LIMIT_TOTAL: '4' });
  });
  afterAll(() => t.close());

  it('a burst from many clients makes no more accounts than the overall limit', async () => {
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => register(t, `many${i}@example.com`, `192.0.2.${i + 1}`)),
    );
    expect(statuses(answers)).toEqual([...Array(4).fill(201), ...Array(6).fill(429)]);
    const refused = answers.find((a) => a.statusCode === 429);
    expect(faultOf(refused as { json(): unknown })).toBe('AttemptOverLimitSignUpTotal');
    expect(refused?.json().Fault.ExceptionUserText).toBe(faults.AttemptOverLimitSignUpTotal.message);
    expect(await accountsLike(t, 'many%')).toBe(4);
    expect(await mailsLike(t, 'many%')).toBe(4);
  });
});

describe('mails per mailbox (ASVS 2.4.1)', () => {
  let t: TestApp;
  beforeAll(async () => {
    // Sign-ups from one address are not what these tests are about.
    t = await createTestApp({ ...DEFAULTS, SIGNUP_LIMIT_PER_CLIENT: '1000', SIGNUP_LIMIT_TOTAL: '1000' });
  });
  afterAll(() => t.close());

  const overMailbox = (res: {
    statusCode: number;
    json(): { Fault?: { ExceptionName: string; ExceptionUserText: string } };
  }) => {
    expect(res.statusCode).toBe(429);
    expect(res.json().Fault).toMatchObject({
      ExceptionName: 'AttemptOverLimitMailbox',
      ExceptionUserText: faults.AttemptOverLimitMailbox.message,
    });
  };

  it('sign-ups through plus-addresses fill one inbox with 5 mails at most, then make no account', async () => {
    const answers = [];
    for (let i = 1; i <= 7; i++) answers.push(await register(t, `plus+${i}@example.com`, `192.0.2.${i}`));
    expect(answers.map((a) => a.statusCode)).toEqual([201, 201, 201, 201, 201, 429, 429]);
    overMailbox(answers[5] as (typeof answers)[number]);
    expect(await accountsLike(t, 'plus%')).toBe(5);
    expect(await mailsLike(t, 'plus%')).toBe(5);
  });

  it('resent verification mails count, by password and by expired link', async () => {
    expect((await register(t, 'vera@example.com')).statusCode).toBe(201);
    const link = await t.lastLinkToken('vera@example.com');
    for (let i = 0; i < MAILS_MAX_PER_MAILBOX - 1; i++) {
      const res = await t.call('/api/accounts/ResendVerificationEmail', {
        email: 'vera@example.com',
        password: PASSWORD,
      });
      expect(res.statusCode).toBe(200);
    }
    overMailbox(
      await t.call('/api/accounts/ResendVerificationEmail', { email: 'vera@example.com', password: PASSWORD }),
    );
    overMailbox(await t.call('/api/accounts/ResendVerificationEmailForToken', { token: link }));
    expect(await mailsLike(t, 'vera@%')).toBe(MAILS_MAX_PER_MAILBOX);
  });

  it('a parallel burst of password resets mails the mailbox no more than its limit', async () => {
    await signUpVerified(t, 'rita@example.com');
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => t.call('/api/accounts/InitiatePasswordReset', { email: 'rita@example.com' })),
    );
    // The sign-up's verification mail was the first of the hour.
    expect(statuses(answers)).toEqual([...Array(4).fill(200), ...Array(8).fill(429)]);
    overMailbox(answers.find((a) => a.statusCode === 429) as (typeof answers)[number]);
    expect(await mailsLike(t, 'rita@%')).toBe(MAILS_MAX_PER_MAILBOX);

    // The mailbox is welcome again an hour later.
    t.clock.advanceHours(1);
    expect((await t.call('/api/accounts/InitiatePasswordReset', { email: 'rita@example.com' })).statusCode).toBe(200);
    expect(await mailsLike(t, 'rita@%')).toBe(MAILS_MAX_PER_MAILBOX + 1);
  });

  it('a reset request over the limit answers alike for an address with and without an account (ASVS 6.3.8)', async () => {
    await signUpVerified(t, 'known@example.com');
    const reset = (email: string) => t.call('/api/accounts/InitiatePasswordReset', { email });
    for (let i = 0; i < MAILS_MAX_PER_MAILBOX - 1; i++) await reset('known@example.com');
    for (let i = 0; i < MAILS_MAX_PER_MAILBOX; i++) expect((await reset('unknown@example.com')).statusCode).toBe(200);
    const known = await reset('known@example.com');
    const unknown = await reset('unknown@example.com');
    overMailbox(known);
    expect([unknown.statusCode, unknown.body]).toEqual([known.statusCode, known.body]);
    expect(await mailsLike(t, 'unknown@%')).toBe(0);
  });

  it('an e-mail change counts against the new address’s mailbox', async () => {
    const token = await signUpVerified(t, 'mover@example.com');
    // Someone asked for resets of plus-addresses of the target: its mailbox is full.
    for (let i = 0; i < MAILS_MAX_PER_MAILBOX; i++) {
      await t.call('/api/accounts/InitiatePasswordReset', { email: `target+${i}@example.com` });
    }
    overMailbox(await t.call('/api/accounts/ChangeEmail', { newEmail: 'target@example.com' }, token));
    expect(await mailsLike(t, 'target%')).toBe(0);
    expect((await t.call('/api/accounts/ChangeEmail', { newEmail: 'elsewhere@example.com' }, token)).statusCode).toBe(
      200,
    );
    expect(await mailsLike(t, 'elsewhere@%')).toBe(1);
  });

  it('account deletion mails count', async () => {
    const token = await signUpVerified(t, 'dora@example.com');
    for (let i = 0; i < MAILS_MAX_PER_MAILBOX - 1; i++) {
      expect((await t.call('/api/accounts/DeleteAccount', {}, token)).statusCode).toBe(200);
    }
    overMailbox(await t.call('/api/accounts/DeleteAccount', {}, token));
    expect(await mailsLike(t, 'dora@%')).toBe(MAILS_MAX_PER_MAILBOX);
    const [user] = await t.database.db.select().from(users).where(eq(users.email, 'dora@example.com'));
    expect(user).toBeDefined();
  });
});
