import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  operatorKitFor,
  postJson as post,
  type ServiceProcess,
  scratchDatabase,
  signUpThrough,
  startService,
} from '../kit';

/**
 * The service killed (SIGKILL) in the middle of token spending, then restarted: no partial
 * state (every spend's allocations add up, every lot's remaining matches), and retrying the
 * same request ids charges each of them exactly once.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const runs = process.env.TEST_DB_KIND === 'postgres' && serverUrl !== undefined;
const ADMIN = 'kill-test-operator-token-0123456789';
const start = (databaseUrl: string) =>
  startService(databaseUrl, { SESSION_SECRET: 'kill-test-session-secret-0123456789abcdef', ADMIN_TOKEN: ADMIN });

/** A finance operator's token on the test's database (made once, it outlives restarts). */
let finance: Promise<string> | undefined;
const financeToken = (base: string) => {
  finance ??= operatorKitFor(base, ADMIN).tokenFor(['finance']);
  return finance;
};

describe.runIf(runs)('SIGKILL during token spending', () => {
  let database: Awaited<ReturnType<typeof scratchDatabase>>;
  let databaseUrl: string;
  let db: pg.Client;
  let service: ServiceProcess;

  beforeAll(async () => {
    database = await scratchDatabase(serverUrl as string, 'soundid_kill');
    databaseUrl = database.url;
  });

  afterAll(async () => {
    await service?.stop();
    await db?.end();
    await database?.drop();
  });

  it('leaves no partial spend, and the retries charge each request once', async () => {
    service = await start(databaseUrl);
    const email = 'killed@example.com';
    await signUpThrough(service.url, email, 'killed mid spend 1');
    for (const [amount, reference] of [
      [500, 'a'],
      [700, 'b'],
      [900, 'c'],
    ] as const) {
      await post(
        `${service.url}/api/admin/grant-tokens`,
        { email, amount, reference, reason: 'kill test' },
        { authorization: `Bearer ${await financeToken(service.url)}` },
      );
    }
    const login = (await (
      await post(`${service.url}/api/accounts/LoginByEmail`, { email, password: 'killed mid spend 1' })
    ).json()) as { Token: string };

    // 30 spends of 70 tokens in flight; the process dies while they run.
    const ids = Array.from({ length: 30 }, (_, i) => `kill-${i}`);
    const inFlight = ids.map((requestId) =>
      post(`${service.url}/api/apps/ConsumeTokens`, { seconds: 7, requestId }, { authtoken: login.Token }).catch(
        () => undefined,
      ),
    );
    // Killed as soon as the first spend has been answered, while the others are under way.
    await Promise.any(inFlight.map((p) => p.then((res) => (res?.ok ? res : Promise.reject()))));
    await Promise.all([service.kill(), ...inFlight]);

    db = new pg.Client({ connectionString: databaseUrl });
    await db.connect();
    const consistent = async () => {
      const lots = await db.query(`
        select l.amount, l.remaining, coalesce(sum(a.tokens), 0)::int as allocated
        from token_lots l left join token_spend_allocations a on a.lot_id = l.id group by l.id`);
      for (const lot of lots.rows) expect(lot.amount - lot.remaining).toBe(lot.allocated);
      const spends = await db.query(`
        select s.tokens, coalesce(sum(a.tokens), 0)::int as allocated
        from token_spends s left join token_spend_allocations a on a.spend_id = s.id group by s.id`);
      for (const spend of spends.rows) expect(spend.allocated).toBe(spend.tokens);
      return spends.rowCount ?? 0;
    };
    const survived = await consistent();
    expect(survived).toBeGreaterThanOrEqual(1);
    expect(survived).toBeLessThanOrEqual(30);

    // Restart and retry every request id: each is charged once in all.
    service = await start(databaseUrl);
    const retries = await Promise.all(
      ids.map(async (requestId) =>
        (
          await post(`${service.url}/api/apps/ConsumeTokens`, { seconds: 7, requestId }, { authtoken: login.Token })
        ).json(),
      ),
    );
    expect(retries.every((r) => (r as { Result?: { TokensSpent: number } }).Result?.TokensSpent === 70)).toBe(true);
    expect(await consistent()).toBe(30);
    const balance = await db.query('select sum(remaining)::int as left from token_lots');
    expect(balance.rows[0].left).toBe(2100 - 30 * 70);
  }, 120_000);
});

describe.skipIf(runs)('SIGKILL during token spending', () => {
  it.skip('runs only in the PostgreSQL project (TEST_DATABASE_URL)', () => {});
});
