import { createHash } from 'node:crypto';
import http from 'node:http';
import { performance } from 'node:perf_hooks';
import {
  CUSTOMER_SEARCH_LIMIT,
  type CustomerSearchKind,
  IDLE_SEAT_RELEASE_DAYS,
  TOKEN_EXPIRY_NOTICE_KINDS,
} from '@soundid/contracts';
import { drizzle } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import type { Database } from '../apps/api/src/db/client';
import * as schema from '../apps/api/src/db/schema';
import { SessionService } from '../apps/api/src/features/accounts/sessions';
import { searchCustomers } from '../apps/api/src/features/admin/customer-search';
import { Deeplinks } from '../apps/api/src/features/licences/deeplinks';
import { dueSeatsPage } from '../apps/api/src/features/licences/idle-seats';
import { LicenceList } from '../apps/api/src/features/licences/licence-list';
import { TokenLedger } from '../apps/api/src/features/tokens/ledger';
import { type DueLotsCursor, dueLotsPage } from '../apps/api/src/features/tokens/notices';
import { addDays, systemClock } from '../apps/api/src/lib/clock';
import { operatorKitFor } from '../apps/api/test/kit';
import { type Figure, figureTable, machine, meets, writeBlock } from './report';
import { PER_CUSTOMER, seedCustomers } from './seed';
import { BENCH_ADMIN_TOKEN, freshPostgres, postgresAvailable, type Running, signIn, startService } from './services';

/**
 * `npm run bench:scale`: the p50 of the signed-in calls whose cost could grow with the tables
 * (the licence list, the purchase history's first page, the usage history's first page (one row
 * per job, ADR 0056), a token spend, the apps' CheckLicense) and of the operators'
 * customer search (each kind) on 100,000 customers (1,000,000 devices, 2,000,000 ledger rows)
 * against the same calls on 1,000 customers, and the EXPLAIN (ANALYZE, BUFFERS) plans of the SQL
 * behind them on the large database. The token expiry sweep (ADR 0057) reads the same due lots on
 * both (EXPIRY_DUE_LOTS, added to the seed): its time must not grow with the ledger.
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
  /** The body for seeded customer `i` (seed.ts names their machines). */
  body: (i: number) => unknown;
}

let spendNo = 0;
const CALLS: Call[] = [
  { name: 'GetAccountLicensesByProductLine', path: '/api/licenses/GetAccountLicensesByProductLine', body: () => ({}) },
  { name: 'GetPurchaseHistory page 1', path: '/api/voiceai/GetPurchaseHistory', body: () => ({ page: 1 }) },
  // One row per job (ADR 0056): a page of spends (token_spends_user_idx), then that page's allocations.
  { name: 'GetActionHistory page 1', path: '/api/voiceai/GetActionHistory', body: () => ({ page: 1 }) },
  {
    name: 'ConsumeTokens',
    path: '/api/apps/ConsumeTokens',
    body: () => ({ seconds: 7, requestId: `scale-${process.pid}-${spendNo++}` }),
  },
  {
    // The desktop apps' hot path (ADR 0049): an active machine of the customer's.
    name: 'CheckLicense',
    path: '/api/apps/CheckLicense',
    body: (i) => ({ productName: 'SoundIDReference', machineId: `machine-${i}-1-sid-reference` }),
  },
];

/**
 * Lots due for an expiry notice, the same on both databases: one each for customers 0 to 999
 * but those the timed calls sign in as (spread(): every 50th on the small one), expiring within
 * the next 30 days, so that each notice kind has some due.
 */
const EXPIRY_DUE_SQL = `
  insert into token_lots (user_id, amount, remaining, cause, source_ref, purchased_at, expires_at)
  select u.id, 600, 600, 'grant', 'bench-expiry-' || g.g, now() - interval '340 days',
         now() + ((g.g % 30) || ' days')::interval + interval '1 hour'
  from generate_series(0, 999) g(g)
  join users u on u.email = 'bench' || g.g || '@example.com'
  where g.g % 50 <> 0`;
const EXPIRY_DUE_LOTS = 980;
/**
 * The notices of the past, as the sweep leaves them: each customer's lot that expired (seed.ts'
 * fourth) had its three. Without them token_notices would be empty, and the plan would say
 * nothing of how a lot's notice is looked up.
 */
const PAST_NOTICES_SQL = `
  insert into token_notices (user_id, kind, lot_id, tokens, expires_at, mailed, created_at)
  select l.user_id, k.kind, l.id, l.remaining, l.expires_at, true, l.expires_at - (k.days || ' days')::interval
  from token_lots l cross join (values ('expiry-30', 30), ('expiry-7', 7), ('expiry-1', 1)) as k(kind, days)
  where l.source_ref like 'bench-%-4' and l.expires_at < now()`;
const EXPIRY_SWEEP = 'Token expiry sweep, every due page of the three kinds (ADR 0057)';

/** The expiry sweep's reads, every kind, page after page (what the hourly job reads before it writes). */
async function readDueLots(db: Database): Promise<number> {
  const now = systemClock.now();
  let due = 0;
  for (const kind of TOKEN_EXPIRY_NOTICE_KINDS) {
    let after: DueLotsCursor | undefined;
    for (;;) {
      const page = await dueLotsPage(db, kind, now, after);
      due += page.length;
      const last = page.at(-1);
      if (page.length < 200 || !last) break;
      after = { expiresAt: last.expiresAt, id: last.id };
    }
  }
  return due;
}

/**
 * The operators' customer search (AdminSearchCustomers), one figure a kind, each query naming the
 * seeded customer `i` (seed.ts) but the shared device name, which every customer's devices bear.
 */
interface Search {
  name: string;
  query: (i: number) => { q: string; by?: CustomerSearchKind };
  /** What the answer must hold for customer `i`: that customer, or a full page with More. */
  finds: 'the customer' | 'a full page';
}
/** The last group of customer g's key of the n-th Reference product, as seed.ts writes it. */
const keyEnding = (g: number, n: number) =>
  createHash('md5').update(`${g}-${n}`).digest('hex').slice(0, 6).toUpperCase();
const SEARCHES: Search[] = [
  { name: 'e-mail prefix', query: (i) => ({ q: `bench${i}@`, by: 'email' }), finds: 'the customer' },
  { name: 'key, last group', query: (i) => ({ q: keyEnding(i, 1), by: 'key' }), finds: 'the customer' },
  {
    name: 'device, machine id',
    query: (i) => ({ q: `machine-${i}-1-sid-reference`, by: 'device' }),
    finds: 'the customer',
  },
  {
    name: 'device, a name every customer has',
    query: () => ({ q: 'STUDIO MACHINE 3', by: 'device' }),
    finds: 'a full page',
  },
  { name: 'order number', query: (i) => ({ q: `#${1000 + i}`, by: 'order' }), finds: 'the customer' },
  { name: 'invoice tag', query: (i) => ({ q: `inv_bench_${i}`, by: 'invoice' }), finds: 'the customer' },
  { name: 'every kind (an invoice tag)', query: (i) => ({ q: `inv_bench_${i}` }), finds: 'the customer' },
];
const searchPath = (query: { q: string; by?: string }) =>
  `/api/admin/search-customers?${new URLSearchParams(query as Record<string, string>)}`;

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

/** An operator's GET; answers the status and the body. */
function get(url: string, token: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      url,
      { method: 'GET', agent, headers: { authorization: `Bearer ${token}` } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, body: Buffer.concat(chunks).toString('utf8') }),
        );
      },
    );
    request.on('error', reject);
    request.end();
  });
}

/** The median time of a request, in milliseconds with sub-millisecond resolution. */
async function p50<T>(name: string, targets: T[], send: (target: T) => Promise<number>, seconds: number) {
  const times: number[] = [];
  const deadline = performance.now() + seconds * 1000;
  let next = 0;
  const loop = async () => {
    while (performance.now() < deadline) {
      const target = targets[next++ % targets.length] as T;
      const started = performance.now();
      const status = await send(target);
      if (status !== 200) throw new Error(`${name}: ${status}`);
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

/** What to explain: each section runs its calls; what it sent after `from()` is explained. */
type Sections = [title: string, run: (from: () => void) => Promise<unknown>][];

/**
 * The plans of the SQL that `sections(db, userId)` send (for the customer `email`), each run once
 * with Drizzle's logger capturing it, then explained with its parameters.
 */
async function plans(
  url: string,
  email: string,
  sections: (db: Database, userId: string) => Sections,
): Promise<{ text: string; seqScans: string[]; buffers: number[] }> {
  const pool = new pg.Pool({ connectionString: url, max: 2 });
  const captured: { query: string; params: unknown[] }[] = [];
  const db = drizzle(pool, {
    schema,
    logger: { logQuery: (query, params) => captured.push({ query, params }) },
  }) as unknown as Database;
  const { rows } = await pool.query<{ id: string }>('select id from users where email = $1', [email]);
  const userId = (rows[0] as { id: string }).id;
  const out: string[] = [];
  const seqScans: string[] = [];
  /** Per section, the buffers its statements touched (each plan's top node counts its children's). */
  const buffers: number[] = [];
  const client = await pool.connect();
  try {
    for (const [title, run] of sections(db, userId)) {
      captured.length = 0;
      await run(() => {
        captured.length = 0;
      });
      out.push(`#### ${title}\n`);
      let touched = 0;
      for (const { query, params } of captured.filter((c) => /^\s*(select|insert|update|delete)/i.test(c.query))) {
        await client.query('begin');
        // The spend was made: explaining its insert again under the same request id would conflict.
        const fresh = params.map((p) => (p === SPENT_REQUEST_ID ? `${SPENT_REQUEST_ID}-explained` : p));
        const explained = await client.query(`explain (analyze, buffers, timing off, summary off) ${query}`, fresh);
        await client.query('rollback');
        const plan = explained.rows.map((r: Record<string, string>) => r['QUERY PLAN']).join('\n');
        if (/Seq Scan/.test(plan)) seqScans.push(`${title}: ${query}`);
        const top = /Buffers: shared(?: hit=(\d+))?(?: read=(\d+))?/.exec(plan);
        touched += Number(top?.[1] ?? 0) + Number(top?.[2] ?? 0);
        out.push(`\`\`\`sql\n${query}\n\`\`\`\n\`\`\`\n${plan}\n\`\`\`\n`);
      }
      buffers.push(touched);
    }
  } finally {
    client.release();
    await pool.end();
  }
  return { text: out.join('\n'), seqScans, buffers };
}

/** The signed-in calls' SQL, and the session check in front of them. */
const callSections = (db: Database, userId: string): Sections => {
  const sessions = new SessionService(db, systemClock, 'scale-bench-secret-0123456789abcdef');
  const ledger = new TokenLedger(db, systemClock);
  return [
    [
      'Session check (every signed-in call)',
      async (from) => {
        const issued = await sessions.issue(db, userId, true);
        from();
        await sessions.authenticate(issued.token);
      },
    ],
    [
      'GetAccountLicensesByProductLine (its session check and the holdings in one statement)',
      async (from) => {
        const issued = await sessions.issue(db, userId, true);
        const list = new LicenceList(db, systemClock, new Deeplinks('soundid'));
        from();
        await sessions.authenticateWith(issued.token, list.readWithSession);
      },
    ],
    ['GetPurchaseHistory page 1', () => ledger.purchaseHistory(userId, 1)],
    ['GetActionHistory page 1 (one row per job, ADR 0056)', () => ledger.usageHistory(userId, 1)],
    ['ConsumeTokens', () => ledger.spend(userId, 7, SPENT_REQUEST_ID)],
    [
      // ADR 0052: one page of the hourly sweep reads only due seats (devices_idle_idx).
      `The idle-seat sweep, one page of due seats (${IDLE_SEAT_RELEASE_DAYS} days unseen)`,
      () => dueSeatsPage(db, 'sid-reference', addDays(systemClock.now(), -IDLE_SEAT_RELEASE_DAYS)),
    ],
    [
      // ADR 0057: one page of the hourly expiry-notice sweep reads only lots with tokens left
      // that expire within 30 days (token_lots_expiry_idx), each checked in token_notices_lot_kind_key.
      'The token expiry sweep, one page of lots due for their 30-day notice',
      () => dueLotsPage(db, 'expiry-30', systemClock.now()),
    ],
  ];
};

/** The customer search's SQL, each kind for customer `i`. */
const searchSections =
  (i: number) =>
  (db: Database): Sections =>
    SEARCHES.map((search) => {
      const { q, by } = search.query(i);
      return [
        `AdminSearchCustomers, ${search.name}: \`${q}\`${by ? ` by ${by}` : ''}`,
        () => searchCustomers(db, q, by),
      ];
    });

/** Checks that each search finds what it should on this database before it is timed. */
async function checkSearches(service: Running, token: string, i: number): Promise<void> {
  for (const search of SEARCHES) {
    const res = await get(`${service.url}${searchPath(search.query(i))}`, token);
    const result = (JSON.parse(res.body) as { Result?: { Customers: { Email: string }[]; More: boolean } }).Result;
    const ok =
      search.finds === 'a full page'
        ? result?.Customers.length === CUSTOMER_SEARCH_LIMIT && result.More
        : result?.Customers.some((c) => c.Email === `bench${i}@example.com`);
    if (!ok)
      throw new Error(`search ${search.name} for customer ${i} answered ${res.status} ${res.body.slice(0, 300)}`);
  }
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
      const pool = new pg.Pool({ connectionString: database.url, max: CONCURRENCY });
      // Its connections end when the database is dropped (finally, below), whatever happened.
      pool.on('error', () => {});
      await pool.query(PAST_NOTICES_SQL);
      await pool.query(EXPIRY_DUE_SQL);
      await pool.query('analyze token_lots, token_notices');
      const sweepDb = drizzle(pool, { schema }) as unknown as Database;
      const found = await readDueLots(sweepDb);
      if (found !== EXPIRY_DUE_LOTS) throw new Error(`the expiry sweep read ${found} due lots, not ${EXPIRY_DUE_LOTS}`);
      const service = await startService({ url: database.url });
      const tokens: { token: string; i: number }[] = [];
      const customers = spread(count);
      for (const i of customers) tokens.push({ token: await signIn(service, i), i });
      const operator = await operatorKitFor(service.url, BENCH_ADMIN_TOKEN).tokenFor(['support']);
      for (const i of customers) await checkSearches(service, operator, i);
      const timings = [
        ...CALLS.map((call) => ({
          name: call.name,
          run: (seconds: number) =>
            p50(call.name, tokens, ({ token, i }) => post(`${service.url}${call.path}`, token, call.body(i)), seconds),
        })),
        ...SEARCHES.map((search) => ({
          name: search.name,
          run: (seconds: number) =>
            p50(
              search.name,
              customers,
              async (i) => (await get(`${service.url}${searchPath(search.query(i))}`, operator)).status,
              seconds,
            ),
        })),
        {
          name: EXPIRY_SWEEP,
          run: (seconds: number) =>
            p50(
              EXPIRY_SWEEP,
              [sweepDb],
              async (db) => ((await readDueLots(db)) === EXPIRY_DUE_LOTS ? 200 : 500),
              seconds,
            ),
        },
      ];
      for (const timing of timings) await timing.run(1); // warm-up
      sides.push({ count, service, pool, timings, p50s: timings.map(() => [] as number[]) });
    }
    // Rounds alternate between the two databases so that a noisy moment hits both alike.
    for (let round = 0; round < ROUNDS; round++) {
      for (const side of sides) {
        for (const [i, timing] of side.timings.entries()) side.p50s[i]?.push(await timing.run(SECONDS));
      }
    }
    for (const side of sides) {
      await side.service.stop();
      await side.pool.end();
    }
    const [smallSide, largeSide] = sides as [(typeof sides)[0], (typeof sides)[0]];
    const figure = (i: number, name: string): Figure => ({
      name,
      database: `PostgreSQL, ${LARGE.toLocaleString('en')} customers`,
      value: median(largeSide.p50s[i] as number[]),
      unit: 'ms',
      baseline: median(smallSide.p50s[i] as number[]),
      baselineName: `${SMALL.toLocaleString('en')} customers`,
      bar: { op: '<=', limit: BAR, on: 'ratio' },
    });
    const figures = CALLS.map((call, i) => figure(i, `${call.name} p50 (${CONCURRENCY} in flight)`));
    const searchFigures = SEARCHES.map((search, i) =>
      figure(CALLS.length + i, `AdminSearchCustomers, ${search.name} p50 (${CONCURRENCY} in flight)`),
    );
    figures.push(
      figure(
        CALLS.length + SEARCHES.length,
        `${EXPIRY_SWEEP} p50, ${EXPIRY_DUE_LOTS} due lots on both (${CONCURRENCY} in flight)`,
      ),
    );

    const middle = Math.floor(LARGE / 2);
    const explained = await plans(large.url, `bench${middle}@example.com`, callSections);
    const searchExplained = await plans(large.url, `bench${middle}@example.com`, searchSections(middle));
    const smallMiddle = Math.floor(SMALL / 2);
    const smallSearch = await plans(small.url, `bench${smallMiddle}@example.com`, searchSections(smallMiddle));
    // The work each search does, free of the machine's noise: the buffers its statements touch.
    const bufferTable = [
      `| Search | Buffers, ${SMALL.toLocaleString('en')} customers | Buffers, ${LARGE.toLocaleString('en')} customers |`,
      '|---|---|---|',
      ...SEARCHES.map((search, i) => `| ${search.name} | ${smallSearch.buffers[i]} | ${searchExplained.buffers[i]} |`),
    ].join('\n');
    const table = figureTable(figures);
    const searchTable = figureTable(searchFigures);
    console.log(`\n${table}\n\n${searchTable}\n\n${bufferTable}\n`);
    const all = [...figures, ...searchFigures];
    console.log(`${all.filter(meets).length} of ${all.length} figures meet their bar`);
    for (const [what, result] of [
      ['calls', explained],
      ['customer search', searchExplained],
    ] as const) {
      console.log(
        result.seqScans.length
          ? `Sequential scans in the ${what}' plans on the large database:\n${result.seqScans.join('\n')}`
          : `No sequential scan in the ${what}' plans.`,
      );
    }
    console.log(`\n${searchExplained.text}`);
    const run = `Run: ${new Date().toISOString()}. Seeding ${LARGE.toLocaleString('en')} customers (${(LARGE * PER_CUSTOMER.devices).toLocaleString('en')} devices, ${(LARGE * PER_CUSTOMER.ledgerRows).toLocaleString('en')} ledger rows: token lots, spends and their allocations) took ${seedSeconds.toFixed(0)} s.`;
    const planNote = (result: { seqScans: string[] }, of: string) =>
      `Plans on the ${LARGE.toLocaleString('en')}-customer database (${of}), of the SQL the service's code generates, captured through Drizzle's logger: ${result.seqScans.length ? `**${result.seqScans.length} with a sequential scan**` : 'no sequential scan'}.`;
    writeBlock(
      'scale',
      [
        `Command: \`npm run bench:scale\` (${ROUNDS} rounds of ${SECONDS} s per call and database, alternating; \`BENCH_SECONDS\`, \`BENCH_ROUNDS\`).`,
        `Machine: ${machine()}.`,
        run,
        '',
        table,
        '',
        planNote(explained, 'a customer in the middle of the table'),
        '',
        '<details><summary>EXPLAIN (ANALYZE, BUFFERS)</summary>',
        '',
        explained.text,
        '</details>',
      ].join('\n'),
    );
    writeBlock(
      'customer-search',
      [
        `Command: \`npm run bench:scale\` (the same run as the table above: ${ROUNDS} rounds of ${SECONDS} s per kind and database, alternating), a support operator's API token, ${SIGNED_IN} customers spread over the table searched in turn.`,
        `Machine: ${machine()}.`,
        run,
        '',
        searchTable,
        '',
        `Buffers touched by each search's statements (shared hits and reads of their plans; customer ${smallMiddle} and customer ${middle}):`,
        '',
        bufferTable,
        '',
        planNote(
          searchExplained,
          `customer ${middle}'s e-mail, key, machine id, order and invoice; the device name every customer has`,
        ),
        '',
        '<details><summary>EXPLAIN (ANALYZE, BUFFERS)</summary>',
        '',
        searchExplained.text,
        '</details>',
      ].join('\n'),
    );
  } finally {
    await small.drop();
    await large.drop();
  }
}

await main();
