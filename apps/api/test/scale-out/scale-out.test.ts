import type { FastifyBaseLogger } from 'fastify';
import pg from 'pg';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deriveSandboxWebhookSecret, sandboxSessionIdOf } from '../../src/dev/stripe-sandbox/provider';
import { IDLE_SEAT_MAIL_JOB, RELEASE_IDLE_SEATS_JOB } from '../../src/features/licences/idle-seats';
import { TOKEN_EXPIRY_NOTICES_JOB, TOKEN_NOTICE_MAIL_JOB } from '../../src/features/tokens/notices';
import { JobQueue } from '../../src/integrations/job-queue';
import { postJson, type ServiceProcess, scratchDatabase, signUpThrough, startService } from '../kit';
import { PAID_1K, paidSessionEvent } from '../payment-webhooks';

/**
 * Two service processes on one PostgreSQL, on different ports: what one replica records
 * (sessions, lockout counters, action tokens, payment events) the other one honours.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const runs = process.env.TEST_DB_KIND === 'postgres' && serverUrl !== undefined;
const SESSION_SECRET = 'replicas-share-this-session-secret-0123456789';
const replicas: ServiceProcess[] = [];
const PASSWORD = 'shared across replicas';
let database: Awaited<ReturnType<typeof scratchDatabase>>;

const startReplica = (databaseUrl: string) =>
  startService(databaseUrl, { SESSION_SECRET, ADMIN_TOKEN: 'replicas-share-this-admin-token-0123', LOG_LEVEL: 'warn' });

const call = async (base: string, name: string, body: unknown, token?: string) => {
  const res = await fetch(`${base}/api/accounts/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authtoken: token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { Token?: string; Fault?: { ExceptionName: string } } };
};

describe.runIf(runs)('two replicas on one PostgreSQL', () => {
  let a: string;
  let b: string;

  /** A customer of the test's own, signed up on replica A; the link A mailed is opened on replica B. */
  const signUpAcross = async (email: string) => {
    await call(a, 'register', { email, password: PASSWORD });
    const mail = (await (await fetch(`${a}/api/dev/mail?to=${encodeURIComponent(email)}`)).json()) as {
      Result: { Links: string[] }[];
    };
    const token = mail.Result[0]?.Links[0]?.split('/').pop();
    expect((await call(b, 'VerifyEmail', { token })).status).toBe(200);
  };

  beforeAll(async () => {
    database = await scratchDatabase(serverUrl as string, 'soundid_scale');
    // Both start at once: the migration lock lets one migrate while the other waits.
    replicas.push(...(await Promise.all([startReplica(database.url), startReplica(database.url)])));
    [a, b] = replicas.map((r) => r.url) as [string, string];
  }, 120_000);

  afterAll(async () => {
    await Promise.all(replicas.map((r) => r.stop()));
    await database?.drop();
  });

  it('a session signed in on one replica and revoked on it is refused by the other', async () => {
    await signUpAcross('rep@example.com');
    const token = (await call(a, 'LoginByEmail', { email: 'rep@example.com', password: PASSWORD })).body.Token;
    expect((await call(b, 'LoginByToken', {}, token)).status).toBe(200);
    await call(b, 'Logout', {}, token);
    const after = await call(a, 'LoginByToken', {}, token);
    expect(after.body.Fault?.ExceptionName).toBe('UserAuthenticationFailed');
  });

  it('sign-in lockout counts failures on both replicas', async () => {
    await signUpAcross('locked@example.com');
    for (const base of [a, b, a, b]) {
      expect((await call(base, 'LoginByEmail', { email: 'locked@example.com', password: 'wrong one!' })).status).toBe(
        401,
      );
    }
    const fifth = await call(b, 'LoginByEmail', { email: 'locked@example.com', password: 'wrong one!' });
    expect(fifth.body.Fault?.ExceptionName).toBe('AttemptOverLimitLogin');
    const right = await call(a, 'LoginByEmail', { email: 'locked@example.com', password: PASSWORD });
    expect(right.status).toBe(429);
  });

  it('a parallel burst of wrong guesses split over both replicas locks the address; the right password after it is refused (ASVS 6.3.1)', async () => {
    await signUpThrough(a, 'burst@example.com', PASSWORD);
    const guesses = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(i % 2 ? a : b, 'LoginByEmail', {
          email: i % 3 ? 'burst@example.com' : 'BURST@Example.com',
          password: 'wrong one!',
        }),
      ),
    );
    // At most the allowance is checked: the rest is refused before hashing, whichever replica it reached.
    expect(guesses.filter((g) => g.status === 401).length).toBeLessThan(5);
    expect(guesses.filter((g) => g.status === 429).length).toBeGreaterThan(35);
    const right = await call(b, 'LoginByEmail', { email: 'burst@example.com', password: PASSWORD });
    expect(right.status).toBe(429);
    expect(right.body.Token).toBeUndefined();
  });

  it('a payment webhook delivered to both replicas, several times at once, credits once', async () => {
    const token = await signUpThrough(a, 'payer@example.com', PASSWORD);
    const prepared = (await (
      await postJson(
        `${a}/api/voiceai/PrepareTokenPurchaseCheckout`,
        { priceId: 'price_sandbox_tokens_1000' },
        {
          authtoken: token,
        },
      )
    ).json()) as { Result: { CheckoutSession: string; InvoiceTag: string } };
    const { CheckoutSession, InvoiceTag } = prepared.Result;
    const payload = JSON.stringify(
      paidSessionEvent(
        'evt_both_replicas',
        sandboxSessionIdOf(CheckoutSession) as string,
        InvoiceTag,
        new Date(),
        PAID_1K,
      ),
    );
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: deriveSandboxWebhookSecret(SESSION_SECRET),
      timestamp: Math.floor(Date.now() / 1000),
    });
    const deliveries = await Promise.all(
      [a, b, a, b, a, b].map(async (base) => {
        const res = await fetch(`${base}/api/webhooks/stripe`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'stripe-signature': signature },
          body: payload,
        });
        expect(res.status).toBe(200);
        return ((await res.json()) as { Result: { Duplicate: boolean; Outcome: string } }).Result;
      }),
    );
    expect(deliveries.filter((d) => !d.Duplicate)).toEqual([
      { EventId: 'evt_both_replicas', Duplicate: false, Outcome: 'credited' },
    ]);
    const history = (await (
      await postJson(`${b}/api/voiceai/GetPurchaseHistory`, { page: 1 }, { authtoken: token })
    ).json()) as { Result: { PageItems: { TokenAmount: number }[] } };
    expect(history.Result.PageItems.map((lot) => lot.TokenAmount)).toEqual([1000]);
  });

  it('the idle-seat sweep and its mails run once with both replicas working the job queue (ADR 0051, ADR 0052)', async () => {
    const email = 'idle.replicas@example.com';
    await signUpThrough(a, email, PASSWORD);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const count = async (query: string, values: unknown[]) =>
      Number((await client.query<{ n: string }>(query, values)).rows[0]?.n ?? 0);
    try {
      const userId = (await client.query<{ id: string }>('select id from users where email = $1', [email])).rows[0]?.id;
      const licenceId = (
        await client.query<{ id: string }>(
          "insert into licences (user_id, product_code) values ($1, 'sid-reference') returning id",
          [userId],
        )
      ).rows[0]?.id;
      const seats = 12;
      await client.query(
        `insert into devices (licence_id, user_id, machine_id, name, method, activated_at, last_seen_at)
         select $1, $2, 'idle-' || n, 'Machine ' || n, 'online', now() - interval '200 days', now() - interval '61 days'
         from generate_series(1, ${seats}) n`,
        [licenceId, userId],
      );
      // The sweep queued twice at once from a third process: it is exclusive, so one job stands.
      const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
      const queue = new JobQueue({ connection: { kind: 'postgres', url: database.url }, log: silent });
      queue.define({ name: RELEASE_IDLE_SEATS_JOB, policy: 'exclusive', run: async () => undefined });
      await queue.start({ work: false });
      const queued = await Promise.all([queue.enqueue(RELEASE_IDLE_SEATS_JOB), queue.enqueue(RELEASE_IDLE_SEATS_JOB)]);
      await queue.stop();
      expect(queued.filter(Boolean)).toHaveLength(1);

      // The replicas poll every 2 seconds: the sweep, then one mail job per seat, each taken by one of them.
      const mails = () =>
        count("select count(*) as n from mail_outbox where user_id = $1 and subject like '% was signed out of %'", [
          userId,
        ]);
      for (let i = 0; i < 300 && (await mails()) < seats; i++) await new Promise((r) => setTimeout(r, 100));
      const mailJobs = () =>
        count(`select count(*) as n from pgboss.job where name = $1 and state = 'completed'`, [IDLE_SEAT_MAIL_JOB]);
      for (let i = 0; i < 100 && (await mailJobs()) < seats; i++) await new Promise((r) => setTimeout(r, 100));
      // Another round of polling on both replicas, and still exactly one mail per seat.
      await new Promise((r) => setTimeout(r, 2500));
      expect(await mails()).toBe(seats);
      expect(await mailJobs()).toBe(seats);
      expect(
        await count(`select count(*) as n from devices where user_id = $1 and deactivation_cause = 'idle'`, [userId]),
      ).toBe(seats);
      expect(
        await count(`select count(*) as n from pgboss.job where name = $1 and state = 'completed'`, [
          RELEASE_IDLE_SEATS_JOB,
        ]),
      ).toBe(1);
    } finally {
      await client.end();
    }
  }, 60_000);

  it('the token expiry sweep runs once per lot and kind, and its one mail of the customer’s lots once, with both replicas working the job queue (ADR 0057)', async () => {
    const email = 'expiry.replicas@example.com';
    await signUpThrough(b, email, PASSWORD);
    const client = new pg.Client({ connectionString: database.url });
    await client.connect();
    const count = async (query: string, values: unknown[]) =>
      Number((await client.query<{ n: string }>(query, values)).rows[0]?.n ?? 0);
    const silent = { info() {}, warn() {}, error() {} } as unknown as FastifyBaseLogger;
    const queue = new JobQueue({ connection: { kind: 'postgres', url: database.url }, log: silent });
    queue.define({ name: TOKEN_EXPIRY_NOTICES_JOB, policy: 'exclusive', run: async () => undefined });
    await queue.start({ work: false });
    try {
      const userId = (await client.query<{ id: string }>('select id from users where email = $1', [email])).rows[0]?.id;
      // Lots due for their 7-day notice by the replicas' own clocks (the real one).
      const lots = 6;
      await client.query(
        `insert into token_lots (user_id, amount, remaining, cause, source_ref, purchased_at, expires_at)
         select $1, 100 * n, 100 * n, 'grant', 'replica-lot-' || n, now() - interval '358 days', now() + interval '6 days 12 hours'
         from generate_series(1, ${lots}) n`,
        [userId],
      );
      const sweeps = () =>
        count(`select count(*) as n from pgboss.job where name = $1 and state = 'completed'`, [
          TOKEN_EXPIRY_NOTICES_JOB,
        ]);
      const mails = () =>
        count("select count(*) as n from mail_outbox where user_id = $1 and subject like '% expire within 7 days'", [
          userId,
        ]);
      const wait = async (done: () => Promise<boolean>) => {
        for (let i = 0; i < 300 && !(await done()); i++) await new Promise((r) => setTimeout(r, 100));
      };
      // Two sweeps one after the other, each taken by whichever replica polls first; the second
      // finds every notice written.
      const before = await sweeps();
      for (const round of [1, 2]) {
        expect(await queue.enqueue(TOKEN_EXPIRY_NOTICES_JOB)).toBeTruthy();
        await wait(async () => (await sweeps()) >= before + round);
      }
      // Both completed (the hourly schedule may have added one of its own).
      expect(await sweeps()).toBeGreaterThanOrEqual(before + 2);
      await wait(async () => (await mails()) >= 1);
      // Another round of polling on both replicas, and still exactly one mail: the customer's six
      // lots, found due together, in one (ADR 0057, addendum).
      await new Promise((r) => setTimeout(r, 2500));
      expect(await mails()).toBe(1);
      expect(
        await count(`select count(*) as n from token_notices where user_id = $1 and kind = 'expiry-7'`, [userId]),
      ).toBe(lots);
      expect(await count(`select count(*) as n from token_notices where user_id = $1`, [userId])).toBe(lots);
      expect(
        await count(
          `select count(*) as n from pgboss.job where name = $1 and state = 'completed'
             and jsonb_array_length(data->'noticeIds') = $3
             and data->'noticeIds' <@ (select jsonb_agg(id::text) from token_notices where user_id = $2)`,
          [TOKEN_NOTICE_MAIL_JOB, userId, lots],
        ),
      ).toBe(1);
    } finally {
      await queue.stop();
      await client.end();
    }
  }, 60_000);
});

describe.skipIf(runs)('two replicas on one PostgreSQL', () => {
  it.skip('runs only in the PostgreSQL project (TEST_DATABASE_URL)', () => {});
});
