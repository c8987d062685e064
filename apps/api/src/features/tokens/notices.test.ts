import { LOW_BALANCE_DEFAULT_THRESHOLD } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { TOKEN_EXPIRY_NOTICES_JOB, TOKEN_NOTICE_MAIL_JOB } from './notices';

/**
 * Voice AI token notices (docs/decisions/0057-token-notices.md): expiry mails 30, 7 and 1 day
 * before a lot expires, once each, with the injected clock; a low-balance mail once per crossing;
 * the profile's preferences. Each test has an app (and a clock) of its own: the sweep sees every
 * lot of the database. Two service processes on one PostgreSQL: test/scale-out.
 */
let t: TestApp;
beforeEach(async () => {
  t = await createTestApp();
  // Queues only: the test runs each job itself (no schedule fires under the fake clock).
  await t.services.jobs.start({ work: false });
});
afterEach(() => t.close());

const DAY_HOURS = 24;
const grant = async (email: string, amount: number, reference: string) => {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/admin/grant-tokens',
    headers: { authorization: `Bearer ${await t.operatorToken(['finance'])}` },
    payload: { email, amount, reason: 'test grant', reference },
  });
  expect(res.statusCode).toBe(200);
};
const login = async (email: string) =>
  (await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD })).json().Token as string;
const spend = (token: string, seconds: number, requestId: string) =>
  t.call('/api/apps/ConsumeTokens', { seconds, requestId }, token);
const setPreferences = (token: string, body: object) => t.call('/api/accounts/SetNotificationPreferences', body, token);
const getPreferences = async (token: string) =>
  (await t.call('/api/accounts/GetNotificationPreferences', {}, token)).json().Result;

/** The sweep as the job queue runs it (JobQueue.drain), at the test's time. */
const sweep = async () => {
  await t.services.jobs.enqueue(TOKEN_EXPIRY_NOTICES_JOB);
  const [output] = await t.services.jobs.drain(TOKEN_EXPIRY_NOTICES_JOB);
  return output as { noticed: number; mailed: number; byKind: Record<string, number> };
};
const queuedMails = async () =>
  Number(
    (
      (await t.database.db.execute(
        sql`select count(*)::int as n from pgboss.job where name = ${TOKEN_NOTICE_MAIL_JOB} and state = 'created'`,
      )) as unknown as { rows: { n: number }[] }
    ).rows[0]?.n,
  );
const notices = async () =>
  (
    (await t.database.db.execute(
      sql`select kind, mailed, tokens from token_notices order by created_at, kind`,
    )) as unknown as { rows: { kind: string; mailed: boolean; tokens: number }[] }
  ).rows;
const sendMails = () => t.services.jobs.drain(TOKEN_NOTICE_MAIL_JOB);
const expiryMails = async (email: string) =>
  (await t.mailsTo(email)).map((m) => m.Subject).filter((subject) => subject.includes(' expire'));

/** Moves the clock to `days` days (and `minutes`) before a lot granted at the clock's start expires (12 months). */
const lotGrantedAt = () => t.clock.now();
const moveTo = (grantedAt: Date, daysBefore: number, minutes = 0) => {
  const expiry = new Date(grantedAt);
  expiry.setUTCMonth(expiry.getUTCMonth() + 12);
  const target = expiry.getTime() - daysBefore * DAY_HOURS * 3_600_000 + minutes * 60_000;
  t.clock.advanceMinutes((target - t.clock.now().getTime()) / 60_000);
};

describe('expiry notices', () => {
  it('mails 30, 7 and 1 day before a lot expires, once each, and nothing after it expired', async () => {
    const email = 'expiry@example.com';
    await signUpVerified(t, email);
    const grantedAt = lotGrantedAt();
    await grant(email, 1000, 'expiry-lot');

    // A minute before 30 days before: not yet.
    moveTo(grantedAt, 30, -1);
    expect((await sweep()).noticed).toBe(0);
    moveTo(grantedAt, 30);
    expect(await sweep()).toEqual({ noticed: 1, mailed: 1, byKind: { 'expiry-30': 1 } });
    expect(await sweep()).toMatchObject({ noticed: 0 });
    expect(await queuedMails()).toBe(1);
    expect(await sendMails()).toEqual([{ sent: true }]);
    const [mail] = await t.mailsTo(email);
    expect(mail?.Subject).toBe('1,000 SoundID VoiceAI tokens expire in 30 days');
    expect(mail?.Text).toContain('1,000 tokens of yours (about 100 seconds of processing) expire on 15 Jan 2027');
    expect(mail?.Links).toEqual([
      'http://localhost:3000/products/voice-ai',
      'http://localhost:3000/profile#token-notices',
    ]);

    moveTo(grantedAt, 8);
    expect((await sweep()).noticed).toBe(0);
    moveTo(grantedAt, 7);
    expect(await sweep()).toEqual({ noticed: 1, mailed: 1, byKind: { 'expiry-7': 1 } });
    expect(await sendMails()).toEqual([{ sent: true }]);
    moveTo(grantedAt, 1);
    expect(await sweep()).toEqual({ noticed: 1, mailed: 1, byKind: { 'expiry-1': 1 } });
    expect(await sendMails()).toEqual([{ sent: true }]);
    moveTo(grantedAt, 0, 1);
    expect((await sweep()).noticed).toBe(0);
    expect(await queuedMails()).toBe(0);
    expect(await expiryMails(email)).toEqual([
      '1,000 SoundID VoiceAI tokens expire in 1 day',
      '1,000 SoundID VoiceAI tokens expire in 7 days',
      '1,000 SoundID VoiceAI tokens expire in 30 days',
    ]);
    expect((await notices()).map((n) => n.kind)).toEqual(['expiry-30', 'expiry-7', 'expiry-1']);
  });

  it('sends only the nearer notice when a window passed unseen, and none for a lot with nothing left', async () => {
    const email = 'late@example.com';
    await signUpVerified(t, email);
    const grantedAt = lotGrantedAt();
    await grant(email, 200, 'late-lot');
    await signUpVerified(t, 'empty@example.com');
    await grant('empty@example.com', 100, 'empty-lot');
    expect((await spend(await login('empty@example.com'), 10, 'all')).json().Result.TokenBalance).toBe(0);

    moveTo(grantedAt, 5);
    expect(await sweep()).toEqual({ noticed: 1, mailed: 1, byKind: { 'expiry-7': 1 } });
    await sendMails();
    // The days actually left (5), not the notice's (7): the mail said 7 before.
    expect(await expiryMails(email)).toEqual(['200 SoundID VoiceAI tokens expire in 5 days']);
    expect(await expiryMails('empty@example.com')).toEqual([]);
  });

  it('tells a customer of several lots due at once in one mail, nearest first, leaving out a lot spent since', async () => {
    const email = 'digest@example.com';
    await signUpVerified(t, email);
    const grantedAt = lotGrantedAt();
    await grant(email, 1000, 'digest-1');
    t.clock.advanceHours(DAY_HOURS * 2);
    await grant(email, 2500, 'digest-2');
    t.clock.advanceHours(DAY_HOURS * 3);
    await grant(email, 120, 'digest-3');
    // The first sweep after the notices came in (or after an outage) finds all three in the 30-day window.
    moveTo(grantedAt, 25);
    expect(await sweep()).toEqual({ noticed: 3, mailed: 3, byKind: { 'expiry-30': 3 } });
    expect(await queuedMails()).toBe(1);
    // Before the mail goes, the oldest lot (spent first) is spent to nothing: the mail leaves it out.
    expect((await spend(await login(email), 100, 'digest-spend')).json().Result.TokenBalance).toBe(2620);
    // The expiry mail, and the low-balance mail of that spend (below 3,000).
    expect(await sendMails()).toEqual([{ sent: true }, { sent: true }]);
    const mails = (await t.mailsTo(email)).filter((m) => m.Subject.includes(' expire'));
    expect(mails.map((m) => m.Subject)).toEqual(['2,620 SoundID VoiceAI tokens expire within 30 days']);
    const text = mails[0]?.Text ?? '';
    expect(text).toContain('2,620 tokens of yours (about 4 minutes of processing) expire soon:');
    const lines = ['2,500 tokens on 17 Jan 2027, in 27 days.', '120 tokens on 20 Jan 2027, in 30 days.'];
    expect(text.indexOf(lines[0] ?? '')).toBeGreaterThan(-1);
    expect(text.indexOf(lines[1] ?? '')).toBeGreaterThan(text.indexOf(lines[0] ?? ''));
    expect(text).not.toContain('1,000 tokens on');
    expect(text).toContain('Tokens must be used within 12 months of purchase.');
  });

  it('pages through more due lots than a page holds, lots of one expiry to the microsecond among them', async () => {
    await signUpVerified(t, 'many@example.com');
    await t.database.db.execute(sql`
      insert into token_lots (user_id, amount, remaining, cause, source_ref, purchased_at, expires_at)
      select u.id, 10, 10, 'grant', 'many-' || n, '2025-02-01T10:00:00Z',
             '2026-02-01T10:00:00.123456Z'::timestamptz + case when n % 3 = 0 then interval '1 hour' else interval '0' end
      from users u cross join generate_series(1, 250) n where u.email = 'many@example.com'`);
    // 2026-02-01 is 17 days after the clock's start: the 30-day notice is due for every lot.
    expect(await sweep()).toEqual({ noticed: 250, mailed: 250, byKind: { 'expiry-30': 250 } });
    // One mail per page that found the customer's lots due (200 and 50), not one per lot.
    expect(await queuedMails()).toBe(2);
    expect(await sweep()).toMatchObject({ noticed: 0 });
    expect(await t.services.tokenNotices.sweep()).toMatchObject({ noticed: 0 });
  });

  it('a mail job queued before mails were grouped ({ noticeId }) still sends its one-lot mail', async () => {
    const email = 'queued.before@example.com';
    await signUpVerified(t, email);
    const grantedAt = lotGrantedAt();
    await grant(email, 400, 'queued-before-lot');
    moveTo(grantedAt, 7);
    expect(await sweep()).toMatchObject({ noticed: 1 });
    // The job as the service queued it until ADR 0057's addendum, for the notice just written.
    await t.database.db.execute(sql`delete from pgboss.job where name = ${TOKEN_NOTICE_MAIL_JOB}`);
    const [notice] = (
      (await t.database.db.execute(sql`select id from token_notices`)) as unknown as { rows: { id: string }[] }
    ).rows;
    await t.services.jobs.enqueue(TOKEN_NOTICE_MAIL_JOB, { noticeId: notice?.id });
    expect(await sendMails()).toEqual([{ sent: true }]);
    expect(await expiryMails(email)).toEqual(['400 SoundID VoiceAI tokens expire in 7 days']);
  });

  it('two sweeps at once write each notice once and queue one mail per customer', async () => {
    const grantedAt = lotGrantedAt();
    for (const n of [1, 2, 3]) {
      await signUpVerified(t, `race${n}@example.com`);
      await grant(`race${n}@example.com`, 100 * n, `race-lot-${n}`);
    }
    moveTo(grantedAt, 7);
    const [a, b] = await Promise.all([t.services.tokenNotices.sweep(), t.services.tokenNotices.sweep()]);
    expect((a?.noticed ?? 0) + (b?.noticed ?? 0)).toBe(3);
    expect(await queuedMails()).toBe(3);
    expect((await notices()).map((n) => n.kind)).toEqual(['expiry-7', 'expiry-7', 'expiry-7']);
  });

  it('honours the opt-out: the notice is recorded unmailed, and turning it back on mails the next one', async () => {
    const email = 'optout@example.com';
    const token = await signUpVerified(t, email);
    const grantedAt = lotGrantedAt();
    await grant(email, 500, 'optout-lot');
    const off = await setPreferences(token, {
      expiryNotices: false,
      lowBalanceNotices: true,
      lowBalanceThreshold: LOW_BALANCE_DEFAULT_THRESHOLD,
    });
    expect(off.json().Result.ExpiryNotices).toBe(false);

    moveTo(grantedAt, 30);
    expect(await sweep()).toEqual({ noticed: 1, mailed: 0, byKind: { 'expiry-30': 1 } });
    expect(await queuedMails()).toBe(0);
    expect(await sweep()).toMatchObject({ noticed: 0 });

    await setPreferences(await login(email), {
      expiryNotices: true,
      lowBalanceNotices: true,
      lowBalanceThreshold: LOW_BALANCE_DEFAULT_THRESHOLD,
    });
    moveTo(grantedAt, 7);
    expect(await sweep()).toEqual({ noticed: 1, mailed: 1, byKind: { 'expiry-7': 1 } });
    await sendMails();
    expect(await expiryMails(email)).toEqual(['500 SoundID VoiceAI tokens expire in 7 days']);
    expect((await notices()).map((n) => [n.kind, n.mailed])).toEqual([
      ['expiry-30', false],
      ['expiry-7', true],
    ]);
  });
});

describe('low-balance notices', () => {
  const lowMails = async (email: string) =>
    (await t.mailsTo(email)).filter((m) => m.Subject === 'Your SoundID VoiceAI token balance is low');

  it('mails once per crossing below the default threshold (5 minutes of processing), again after a top-up', async () => {
    const email = 'low@example.com';
    const token = await signUpVerified(t, email);
    expect(LOW_BALANCE_DEFAULT_THRESHOLD).toBe(3000);
    await grant(email, 3500, 'low-1');
    // Above the threshold after the spend: nothing.
    expect((await spend(token, 7, 's1')).json().Result.TokenBalance).toBe(3430);
    expect(await queuedMails()).toBe(0);
    // Below it: one mail.
    expect((await spend(token, 50, 's2')).json().Result.TokenBalance).toBe(2930);
    expect(await queuedMails()).toBe(1);
    // The same request again, and a further spend below: no second mail.
    expect((await spend(token, 50, 's2')).json().Result.TokenBalance).toBe(2930);
    expect((await spend(token, 7, 's3')).json().Result.TokenBalance).toBe(2860);
    expect(await queuedMails()).toBe(1);
    await sendMails();
    const [mail] = await lowMails(email);
    expect(mail?.Text).toContain(
      'Your balance is 2,930 tokens (about 4 minutes of processing), below the 3,000 tokens you asked us to tell you about.',
    );
    expect(mail?.Links).toContain('http://localhost:3000/profile#token-notices');

    // Topped up above the threshold, then below again: a second mail.
    await grant(email, 1000, 'low-2');
    expect((await spend(token, 100, 's4')).json().Result.TokenBalance).toBe(2860);
    expect(await queuedMails()).toBe(1);
    await sendMails();
    expect(await lowMails(email)).toHaveLength(2);
    expect((await notices()).map((n) => [n.kind, n.tokens])).toEqual([
      ['low-balance', 2930],
      ['low-balance', 2860],
    ]);
  });

  it('parallel spends across the threshold mail once (ASVS 2.3.4)', async () => {
    const email = 'parallel.low@example.com';
    const token = await signUpVerified(t, email);
    await grant(email, 3200, 'par-1');
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => spend(token, 7, `p${i}`)));
    expect(results.every((r) => r.statusCode === 200)).toBe(true);
    expect((await spend(token, 7, 'p-last')).json().Result.TokenBalance).toBe(3200 - 9 * 70);
    expect(await queuedMails()).toBe(1);
  });

  it("uses the customer's threshold, and none when low-balance mails are off", async () => {
    const email = 'own.threshold@example.com';
    const token = await signUpVerified(t, email);
    await grant(email, 1000, 'own-1');
    await setPreferences(token, { expiryNotices: true, lowBalanceNotices: true, lowBalanceThreshold: 500 });
    expect((await spend(token, 40, 'o1')).json().Result.TokenBalance).toBe(600);
    expect(await queuedMails()).toBe(0);
    expect((await spend(token, 20, 'o2')).json().Result.TokenBalance).toBe(400);
    expect(await queuedMails()).toBe(1);

    await grant(email, 1000, 'own-2');
    await setPreferences(token, { expiryNotices: true, lowBalanceNotices: false, lowBalanceThreshold: 500 });
    expect((await spend(token, 100, 'o3')).json().Result.TokenBalance).toBe(400);
    expect(await queuedMails()).toBe(1);
    expect((await notices()).length).toBe(1);
    // The customer's data export lists both (ADR 0038).
    const exported = (await t.call('/api/accounts/ExportMyData', {}, token)).json().Result;
    expect(exported.NotificationPreferences).toMatchObject({
      ExpiryNotices: true,
      LowBalanceNotices: false,
      LowBalanceThreshold: 500,
    });
    expect(exported.TokenNotices).toEqual([
      expect.objectContaining({ Kind: 'low-balance', LotId: null, Tokens: 400, Threshold: 500, Mailed: true }),
    ]);
  });
});

describe('notification preferences', () => {
  it('answers the defaults, saves a choice, and saving it again changes nothing', async () => {
    const token = await signUpVerified(t, 'prefs@example.com');
    const defaults = {
      ExpiryNotices: true,
      LowBalanceNotices: true,
      LowBalanceThreshold: 3000,
      DefaultLowBalanceThreshold: 3000,
    };
    expect(await getPreferences(token)).toEqual(defaults);
    const choice = { expiryNotices: false, lowBalanceNotices: true, lowBalanceThreshold: 1200 };
    const saved = { ...defaults, ExpiryNotices: false, LowBalanceThreshold: 1200 };
    expect((await setPreferences(token, choice)).json().Result).toEqual(saved);
    expect((await setPreferences(token, choice)).json().Result).toEqual(saved);
    expect(await getPreferences(token)).toEqual(saved);
  });

  it('refuses a threshold that is not a positive whole number with a clear Fault, and changes nothing (ASVS 2.2.1)', async () => {
    const token = await signUpVerified(t, 'bad.threshold@example.com');
    await setPreferences(token, { expiryNotices: true, lowBalanceNotices: true, lowBalanceThreshold: 800 });
    for (const lowBalanceThreshold of [0, -5, 1.5, '100', null, 10_000_001]) {
      const res = await setPreferences(token, { expiryNotices: false, lowBalanceNotices: false, lowBalanceThreshold });
      expect(res.statusCode).toBe(400);
      expect(faultOf(res)).toBe('RequestInvalid');
      expect(res.json().Fault.ExceptionVariables).toEqual([
        {
          Key: 'lowBalanceThreshold',
          Value: 'The low balance threshold must be a whole number of tokens greater than zero (at most 10,000,000).',
        },
      ]);
    }
    expect(await getPreferences(token)).toMatchObject({
      ExpiryNotices: true,
      LowBalanceNotices: true,
      LowBalanceThreshold: 800,
    });
  });

  it('needs a session (ASVS 8.2.1)', async () => {
    const res = await t.call('/api/accounts/GetNotificationPreferences', {});
    expect(res.statusCode).toBe(401);
    const set = await t.call('/api/accounts/SetNotificationPreferences', {
      expiryNotices: false,
      lowBalanceNotices: false,
      lowBalanceThreshold: 10,
    });
    expect(set.statusCode).toBe(401);
  });
});
