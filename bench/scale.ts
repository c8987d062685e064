import http from 'node:http';
import { performance } from 'node:perf_hooks';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../apps/api/src/db/client';
import * as schema from '../apps/api/src/db/schema';
import { SessionService } from '../apps/api/src/features/accounts/sessions';
import { Deeplinks } from '../apps/api/src/features/licences/deeplinks';
import { LicenceList } from '../apps/api/src/features/licences/licence-list';
import { TokenLedger } from '../apps/api/src/features/tokens/ledger';
import { systemClock } from '../apps/api/src/lib/clock';
import { type Figure, figureTable, machine, meets, writeBlock } from './report';
import { PER_CUSTOMER, seedCustomers } from './seed';
import { freshPostgres, postgresAvailable, type Running, signIn, startService } from './services';

/**
 * `npm run bench:scale`: the p50 of the signed-in calls whose cost could grow with the tables
 * (the licence list, the purchase history's first page, a token spend) on 100,000 customers
 * (1,000,000 devices, 2,000,000 ledger rows) against the same calls on 1,000 customers, and the
 * EXPLAIN (ANALYZE, BUFFERS) plans of the SQL behind them on the large database.
 */
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);
const SMALL = 1_000;
const LARGE = Number(process.env.BENCH_SCALE_CUSTOMERS ?? 100_000);
/** Few enough in flight that the p50 is the call's own time, not a queue's. */
const CONCURRENCY = 4;
const SIGNED_IN = 10;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const BAR = 1.3;

interface Call {
  name: string;
  path: string;
  body: () => unknown;
}

let spendNo = 0;
const CALLS: Call[] = [
  { name: 'GetAccountLicensesByProductLine', path: '/api/licenses/GetAccountLicensesByProductLine', body: () => ({}) },
  { name: 'GetPurchaseHistory page 1', path: '/api/voiceai/GetPurchaseHistory', body: () => ({ page: 1 }) },
  {
    name: 'ConsumeTokens',
    path: '/api/apps/ConsumeTokens',
    body: () => ({ seconds: 7, requestId: `scale-${process.pid}-${spendNo++}` }),
  },
];

const agent = new http.Agent({ keepAlive: true, maxSockets: CONCURRENCY });

function post(url: string, token: string, body: unknown): Promise<number> {
  const payload = JSON.stringify(body);
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      {
        method: 'POST',
        agent,
        headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload), authtoken: token },
      },
      (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
      },
    );
    request.on('error', reject);
    request.end(payload);
  });
}

/** The median time of a call, in milliseconds with sub-millisecond resolution. */
async function p50(service: Running, tokens: string[], call: Call, seconds: number): Promise<number> {
  const times: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const token = tokens[next++ % tokens.length] as string;
      const started = performance.now();
      const status = await post(`${service.url}${call.path}`, token, call.body());
      if (status !== 200) throw new Error(`${call.name}: ${status}`);
      times.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, loop));
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)] as number;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] as number;

/** Customers spread over the whole table, so that the large database is read everywhere. */
const spread = (count: number) =>
  Array.from({ length: SIGNED_IN }, (_, i) => Math.floor(((i + 0.5) * count) / SIGNED_IN));

/**
 * The SQL the service's own code sends for these calls (and for the session check in front of
 * them), captured through Drizzle's logger, then run under EXPLAIN (ANALYZE, BUFFERS) in a
 * transaction that is rolled back.
 */
const SPENT_REQUEST_ID = `explain-${process.pid}`;

async function plans(url: string, email: string): Promise<{ text: string; seqScans: string[] }> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const captured: { query: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Database;
  const { rows } = await pool.query<{ id: string }>('select id from users where email = $1', [email]);
  const userId = (rows[0] as { id: string }).id;
  const sessions = new SessionService(db, systemClock, 'scale-bench-secret-0123456789abcdef');
  const ledger = new TokenLedger(db, systemClock);
  const sections: [string, () => Promise<unknown>][] = [
    [
      'Session check (every signed-in call)',
      async () => {
        const issued = await sessions.issue(db, userId, true);
        captured.length = 0;
        await sessions.authenticate(issued.token);
      },
    ],
    [
      'GetAccountLicensesByProductLine (its session check and the holdings in one statement)',
      async () => {
        const issued = await sessions.issue(db, userId, true);
        const list = new LicenceList(db, systemClock, new Deeplinks('soundid'));
        captured.length = 0;
        await sessions.authenticateWith(issued.token, list.readWithSession);
      },
    ],
    ['GetPurchaseHistory page 1', () => ledger.purchaseHistory(userId, 1)],
    ['ConsumeTokens', () => ledger.spend(userId, 7, SPENT_REQUEST_ID)],
  ];
  const out: string[] = [];
  const seqScans: string[] = [];
  const client = await pool.connect();
  try {
    for (const [title, run] of sections) {
      captured.length = 0;
      await run();
      out.push(`#### ${title}\n`);
      for (const { query, params } of captured.filter((c) => /^\s*(select|insert|update|delete)/i.test(c.query))) {
        await client.query('begin');
        // The spend was made: explaining its insert again under the same request id would conflict.
        const fresh = params.map((p) => (p === SPENT_REQUEST_ID ? `${SPENT_REQUEST_ID}-explained` : p));
        const explained = await client.query(`explain (analyze, buffers, timing off, summary off) ${query}`, fresh);
        await client.query('rollback');
        const plan = explained.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        if (/Seq Scan/.test(plan)) seqScans.push(`${title}: ${query}`);
        out.push(`\`\`\`sql\n${query}\n\`\`\`\n\`\`\`\n${plan}\n\`\`\`\n`);
      }
    }
  } finally {
    client.release();
    await pool.end();
  }
  return { text: out.join('\n'), seqScans };
}

async function main(): Promise<void> {
  if (!(await postgresAvailable(SERVER_URL)))
    throw new Error(`No PostgreSQL at ${SERVER_URL} (set BENCH_DATABASE_URL)`);
  const small = await freshPostgres(SERVER_URL);
  const large = await freshPostgres(SERVER_URL);
  try {
    let started = Date.now();
    await seedCustomers({ url: small.url }, SMALL);
    console.log(`seeded ${SMALL} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`);
    started = Date.now();
    await seedCustomers({ url: large.url }, LARGE);
    const seedSeconds = (Date.now() - started) / 1000;
    console.log(
      `seeded ${LARGE} customers, ${LARGE * PER_CUSTOMER.devices} devices, ${LARGE * PER_CUSTOMER.ledgerRows} ledger rows in ${seedSeconds.toFixed(1)} s`,
    );

    const sides = [];
    for (const [database, count] of [
      [small, SMALL],
      [large, LARGE],
    ] as const) {
      const service = await startService({ url: database.url });
      const tokens: string[] = [];
      for (const i of spread(count)) tokens.push(await signIn(service, i));
      for (const call of CALLS) await p50(service, tokens, call, 1); // warm-up
      sides.push({ count, service, tokens, p50s: CALLS.map(() => [] as number[]) });
    }
    // Rounds alternate between the two databases so that a noisy moment hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        for (const [i, call] of CALLS.entries())
          side.p50s[i]?.push(await p50(side.service, side.tokens, call, SECONDS));
      }
    }
    for (const side of sides) await side.service.stop();
    const [smallSide, largeSide] = sides as [(typeof sides)[0], (typeof sides)[0]];
    const figures: Figure[] = CALLS.map((call, i) => ({
      name: `${call.name} p50 (${CONCURRENCY} in flight)`,
      database: `PostgreSQL, ${LARGE.toLocaleString('en')} customers`,
      value: median(largeSide.p50s[i] as number[]),
      unit: 'ms',
      baseline: median(smallSide.p50s[i] as number[]),
      baselineName: `${SMALL.toLocaleString('en')} customers`,
      bar: { op: '<=', limit: BAR, on: 'ratio' },
    }));

    const explained = await plans(large.url, `bench${Math.floor(LARGE / 2)}@example.com`);
    const table = figureTable(figures);
    console.log(`\n${table}\n`);
    console.log(`${figures.filter(meets).length} of ${figures.length} figures meet their bar`);
    console.log(
      explained.seqScans.length
        ? `Sequential scans on the large database:\n${explained.seqScans.join('\n')}`
        : 'No sequential scan in the plans.',
    );
    writeBlock(
      'scale',
      [
        `Command: \`npm run bench:scale\` (${ROUNDS} rounds of ${SECONDS} s per call and database, alternating; \`BENCH_SECONDS\`, \`BENCH_ROUNDS\`).`,
        `Machine: ${machine()}.`,
        `Run: ${new Date().toISOString()}. Seeding ${LARGE.toLocaleString('en')} customers (${(LARGE * PER_CUSTOMER.devices).toLocaleString('en')} devices, ${(LARGE * PER_CUSTOMER.ledgerRows).toLocaleString('en')} ledger rows: token lots, spends and their allocations) took ${seedSeconds.toFixed(0)} s.`,
        '',
        table,
        '',
        `Plans on the ${LARGE.toLocaleString('en')}-customer database (a customer in the middle of the table), of the SQL the service's code generates, captured through Drizzle's logger: ${explained.seqScans.length ? `**${explained.seqScans.length} with a sequential scan**` : 'no sequential scan'}.`,
        '',
        '<details><summary>EXPLAIN (ANALYZE, BUFFERS)</summary>',
        '',
        explained.text,
        '</details>',
      ].join('\n'),
    );
  } finally {
    await small.drop();
    await large.drop();
  }
}

await main();
