import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { TOTP_DIGITS, TOTP_PERIOD_SECONDS } from '@soundid/contracts';
import autocannon from 'autocannon';
import { generateSync } from 'otplib';
import pg from 'pg';
import { defaultHashingThreads } from '../apps/api/src/config';
import { type Figure, figureTable, machine, meets, ratioOf, writeBlock } from './report';
import {
  BENCH_PASSWORD,
  BENCH_TOTP_SECRET,
  benchEmail,
  benchTotpEmail,
  seedCustomers,
  seedTotpCustomers,
} from './seed';
import {
  BENCH_SESSION_SECRET,
  freshPostgres,
  postgresAvailable,
  type Running,
  repoRoot,
  signIn,
  startBaseline,
  startService,
} from './services';

const execFileAsync = promisify(execFile);

/**
 * `npm run bench`: each figure beside its baseline measured in the same run, and the ratio.
 * PostgreSQL (the production path) first, the embedded PGlite beside it.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CUSTOMERS = 1000;
/**
 * Customers with TOTP: a code is accepted once per account and time step, so each signs in at
 * most once a run; as many as a thousand sign-ins a second would need.
 */
const TOTP_CUSTOMERS = DURATION * 1000;
/** Signed-in reads rotate through this many customers' sessions. */
const SIGNED_IN = 20;
const CONNECTIONS = 100;
/** The LoginByToken probe beside the sign-in flood: a steady, modest rate, idle and flooded. */
const PROBE = { connections: 10, rate: 200 };
const FLOOD_FACTOR = 3;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
/**
 * A signed-in call's p99 over the bare PK SELECT's p99 measured in the same run: absolute
 * times differ several-fold between machines of the same kind, a ratio does not (ADR 0028).
 */
const READ_P99_RATIO = 1.3;
/** LoginByToken's p99 during the sign-in flood over its idle p99. */
const FLOOD_P99_RATIO = 2;
/** The service's hashing threads (its own default unless HASHING_THREADS says otherwise). */
const HASHING_THREADS = Number(process.env.HASHING_THREADS || defaultHashingThreads());
/**
 * `BENCH_ONLY=flood` measures only the flood figure (with the sign-in throughput that sets the
 * flood's rate), `BENCH_ONLY=reads` only the signed-in calls beside the PK SELECT,
 * `BENCH_ONLY=signin` only the two sign-in figures (password, and password with TOTP) beside
 * raw argon2id; each prints without writing docs/benchmarks.md; unset: every figure.
 */
const ONLY = process.env.BENCH_ONLY;
if (ONLY !== undefined && ONLY !== 'flood' && ONLY !== 'reads' && ONLY !== 'signin')
  throw new Error(`BENCH_ONLY must be "flood", "reads" or "signin" (got "${ONLY}")`);
const WARM_UP_SECONDS = 2;
/**
 * `BENCH_NODE_ARGS` is handed to the service processes' node, e.g. `--cpu-prof
 * --cpu-prof-dir=/tmp/prof` to see where a figure's time goes (docs/benchmarks.md).
 */
const SERVICE_NODE_ARGS = (process.env.BENCH_NODE_ARGS ?? '').split(/\s+/).filter(Boolean);

/** autocannon's default: a request unanswered this long counts as a timeout. */
const TIMEOUT_SECONDS = 10;

async function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return autocannon({ duration: DURATION, timeout: TIMEOUT_SECONDS, ...options });
}

/**
 * The p99 with unanswered requests counted as the slowest: when more than 1 % of the requests
 * timed out the p99 is at least the timeout, and that is what is recorded.
 */
function p99Counting(result: autocannon.Result): number {
  const sent = result.requests.sent || 1;
  return result.timeouts / sent > 0.01 ? TIMEOUT_SECONDS * 1000 : result.latency.p99;
}

function loginRequests(): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: '/api/accounts/LoginByEmail',
      headers: { 'content-type': 'application/json' },
      setupRequest: (request) => {
        const email = benchEmail(next++ % CUSTOMERS);
        return { ...request, body: JSON.stringify({ email, password: BENCH_PASSWORD, keepMeSignedIn: true }) };
      },
    },
  ];
}

/**
 * A sign-in with TOTP as the SPA makes it (ADR 0037): LoginByEmail answers SecondFactorRequired
 * with a Challenge, LoginSecondFactor completes it with the current code. Each connection runs
 * the two in turn; every TOTP customer signs in once. `failures` counts any other answer.
 */
function totpSignInRequests(): { requests: autocannon.Request[]; failures: string[] } {
  let next = 0;
  const failures: string[] = [];
  const fail = (what: string) => {
    if (failures.length < 5) failures.push(what);
    else failures.length++;
  };
  return {
    failures,
    requests: [
      {
        method: 'POST',
        path: '/api/accounts/LoginByEmail',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          const email = benchTotpEmail(next++ % TOTP_CUSTOMERS);
          return { ...request, body: JSON.stringify({ email, password: BENCH_PASSWORD, keepMeSignedIn: false }) };
        },
        onResponse: (status, body, context) => {
          const challenge = (
            JSON.parse(body) as { Fault?: { ExceptionVariables?: { Key: string; Value: string }[] } }
          ).Fault?.ExceptionVariables?.find((v) => v.Key === 'Challenge')?.Value;
          if (status !== 401 || !challenge) fail(`LoginByEmail ${status} ${body.slice(0, 200)}`);
          (context as { challenge?: string }).challenge = challenge;
        },
      },
      {
        method: 'POST',
        path: '/api/accounts/LoginSecondFactor',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request, context) => {
          const code = generateSync({ secret: BENCH_TOTP_SECRET, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
          return {
            ...request,
            body: JSON.stringify({ challenge: (context as { challenge?: string }).challenge ?? 'none', code }),
          };
        },
        onResponse: (status, body) => {
          if (status !== 200) fail(`LoginSecondFactor ${status} ${body.slice(0, 200)}`);
        },
      },
    ],
  };
}

/**
 * One call, the given paths and tokens taking turns. The service's calls and the baseline's are
 * made by this same generator (the same headers, body and per-request work), because the load
 * generator shares the two cores with the server: a cheaper client would flatter whichever
 * side it loads.
 */
function rotatingRequests(
  paths: string[],
  tokens: string[],
  body: (turn: number) => unknown = () => ({}),
): autocannon.Request[] {
  let next = 0;
  return [
    {
      method: 'POST',
      path: paths[0] as string,
      setupRequest: (request) => {
        const turn = next++;
        return {
          ...request,
          path: paths[turn % paths.length] as string,
          headers: { 'content-type': 'application/json', authtoken: tokens[turn % tokens.length] as string },
          body: JSON.stringify(body(turn % tokens.length)),
        };
      },
    },
  ];
}

/** One signed-in call, the sessions taking turns; `body` is given the index of the turn's customer. */
const signedInRequests = (path: string, tokens: string[], body?: (customer: number) => unknown) =>
  rotatingRequests([path], tokens, body);

/**
 * CheckLicense as a running app sends it: the customer's first Reference machine (active in
 * bench/seed.ts), with a version and OS, so the first check of each writes last-seen and the
 * rest within the hour read only (ADR 0049).
 */
const checkLicenseBody = (customer: number) => ({
  productName: 'SoundIDReference',
  machineId: `machine-${customer}-1-sid-reference`,
  appVersion: '5.12.1',
  os: 'macOS 14.5',
});
const SIGNED_IN_CALLS = [
  ['LoginByToken', '/api/accounts/LoginByToken', 0.7, undefined],
  ['GetAccountLicensesByProductLine', '/api/licenses/GetAccountLicensesByProductLine', 0.35, undefined],
  // ADR 0049: the apps' hot path, one statement, at least half the bare PK SELECT.
  ['CheckLicense', '/api/apps/CheckLicense', 0.5, checkLicenseBody],
] as const;

/** The LoginByToken probe, run by bench/probe.ts in a process of its own. */
async function probeFromOwnProcess(url: string, tokens: string[]): Promise<autocannon.Result> {
  const { stdout } = await execFileAsync(process.execPath, ['--import', 'tsx', 'bench/probe.ts'], {
    cwd: repoRoot,
    env: { ...process.env, PROBE: JSON.stringify({ url, seconds: DURATION, ...PROBE, tokens }) },
    maxBuffer: 64 * 1024 * 1024,
  });
  return JSON.parse(stdout.trim().split('\n').pop() as string) as autocannon.Result;
}

/** Raw argon2id on as many threads as the service hashes on: the service's ceiling on this machine. */
function argon2Baseline(): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/argon2-baseline.ts', String(DURATION), '16'], {
    cwd: repoRoot,
    encoding: 'utf8',
    env: { ...process.env, UV_THREADPOOL_SIZE: String(HASHING_THREADS) },
  });
  return (JSON.parse(out.trim().split('\n').pop() as string) as { perSecond: number }).perSecond;
}

/**
 * Every response was a 2xx: a figure made of errors would flatter the service. With
 * `timeoutsCount`, requests that got no answer within autocannon's timeout are part of the
 * figure (see `p99Counting`), not a failed run: a slow machine's queue is a result to record.
 */
function assertOk(name: string, result: autocannon.Result, allowed: number[] = [], timeoutsCount = false): void {
  const bad = Object.entries(result.statusCodeStats ?? {}).filter(
    ([code]) => !code.startsWith('2') && !allowed.includes(Number(code)),
  );
  const errors = timeoutsCount ? result.errors - result.timeouts : result.errors;
  if (bad.length || errors || (result.timeouts && !timeoutsCount)) {
    throw new Error(
      `${name}: unexpected answers ${JSON.stringify(result.statusCodeStats)}, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
}

interface Baseline {
  perSecond: number;
  p99: number;
}

interface Baselines {
  argon2(): number;
  read(tokens: string[]): Promise<Baseline>;
}

async function signInCustomers(running: Running): Promise<string[]> {
  const tokens: string[] = [];
  for (let i = 0; i < SIGNED_IN; i++) tokens.push(await signIn(running, i));
  return tokens;
}

/** The signed-in calls, each beside the bare PK SELECT measured right before it. */
async function measureReads(
  database: string,
  running: Running,
  baselines: Baselines,
  tokens?: string[],
): Promise<Figure[]> {
  const figures: Figure[] = [];
  tokens ??= await signInCustomers(running);
  // A short unmeasured run of each call first: the figures are of a warmed-up process.
  for (const [, path, , body] of SIGNED_IN_CALLS) {
    await autocannon({
      url: running.url,
      duration: WARM_UP_SECONDS,
      connections: 10,
      requests: signedInRequests(path, tokens, body),
    });
  }

  for (const [call, path, bar, body] of SIGNED_IN_CALLS) {
    const baseline = await baselines.read(tokens);
    const result = await cannon({
      url: running.url,
      connections: CONNECTIONS,
      requests: signedInRequests(path, tokens, body),
    });
    assertOk(call, result, [], true);
    if (result.timeouts) {
      console.log(
        `${database}: ${call}: ${result.timeouts} of ${result.requests.sent} requests unanswered after ${TIMEOUT_SECONDS} s${p99Counting(result) > result.latency.p99 ? ' (over 1 %: its p99 is the timeout)' : ''}`,
      );
    }
    figures.push(
      {
        name: `${call} throughput (${CONNECTIONS} connections)`,
        database,
        value: result.requests.average,
        unit: 'req/s',
        baseline: baseline.perSecond,
        baselineName: 'Fastify + pg PK SELECT',
        bar: { op: '>=', limit: bar, on: 'ratio' },
      },
      {
        name: `${call} p99 (${CONNECTIONS} connections)`,
        database,
        value: p99Counting(result),
        unit: 'ms',
        baseline: baseline.p99,
        baselineName: 'PK SELECT p99',
        bar: { op: '<=', limit: READ_P99_RATIO, on: 'ratio' },
      },
    );
  }

  return figures;
}

/**
 * The service's figures on one database. Each baseline is measured right before the figure
 * it stands beside, so that a busy moment on a shared machine weighs on both alike.
 */
async function measure(database: string, running: Running, baselines: Baselines): Promise<Figure[]> {
  const figures: Figure[] = [];
  const argon = ONLY && ONLY !== 'signin' ? undefined : baselines.argon2();
  if (ONLY === 'reads') return measureReads(database, running, baselines);
  const login = await cannon({ url: running.url, connections: 16, requests: loginRequests() });
  assertOk('LoginByEmail', login);
  if (argon !== undefined) {
    figures.push({
      name: 'LoginByEmail throughput (16 connections)',
      database,
      value: login.requests.average,
      unit: 'req/s',
      baseline: argon,
      baselineName: `raw argon2id verify on ${HASHING_THREADS} thread${HASHING_THREADS === 1 ? '' : 's'}`,
      bar: { op: '>=', limit: 0.75, on: 'ratio' },
    });
  }

  if (argon !== undefined) {
    // The same sign-in with a second factor: two calls, one argon2id verify; its own baseline
    // right before it, as every figure has.
    const totpArgon = baselines.argon2();
    const totp = totpSignInRequests();
    const result = await cannon({ url: running.url, connections: 16, requests: totp.requests });
    assertOk('TOTP sign-in', result, [401]);
    if (totp.failures.length)
      throw new Error(`TOTP sign-in: ${totp.failures.length} failed: ${totp.failures.join('; ')}`);
    const signedIn = result.statusCodeStats?.['200' as keyof typeof result.statusCodeStats]?.count ?? 0;
    figures.push({
      name: 'Sign-in with TOTP throughput (16 connections; LoginByEmail + LoginSecondFactor)',
      database,
      value: signedIn / result.duration,
      unit: 'req/s',
      baseline: totpArgon,
      baselineName: `raw argon2id verify on ${HASHING_THREADS} thread${HASHING_THREADS === 1 ? '' : 's'}`,
      bar: { op: '>=', limit: 0.75, on: 'ratio' },
    });
  }

  if (ONLY === 'signin') return figures;
  const tokens = await signInCustomers(running);
  if (!ONLY) figures.push(...(await measureReads(database, running, baselines, tokens)));

  // LoginByToken at a steady rate, alone, then while sign-in is flooded at 3x what it sustained.
  const probe = () => probeFromOwnProcess(running.url, tokens);
  const before = await probe();
  assertOk('LoginByToken idle probe', before);
  const [flooded, flood] = await Promise.all([
    probe(),
    cannon({
      url: running.url,
      connections: CONNECTIONS,
      overallRate: Math.ceil(login.requests.average * FLOOD_FACTOR),
      requests: loginRequests(),
    }),
  ]);
  assertOk('LoginByToken flooded probe', flooded);
  // Refused at the door: the address locked (429) or every hashing place taken (503 ServiceBusy).
  assertOk('LoginByEmail flood', flood, [429, 503]);
  const after = await probe();
  assertOk('LoginByToken idle probe', after);
  // Idle before and after the flood; the lower p99 of the two is the stricter yardstick.
  const idleP99 = Math.min(before.latency.p99, after.latency.p99);
  const answered = (code: string) => flood.statusCodeStats?.[code as keyof typeof flood.statusCodeStats]?.count ?? 0;
  const floodFigure: Figure = {
    name: `LoginByToken p99 at ${PROBE.rate}/s during a ${FLOOD_FACTOR}x sign-in flood`,
    database,
    value: flooded.latency.p99,
    unit: 'ms',
    baseline: idleP99,
    baselineName: 'same probe idle (better of before and after)',
    bar: { op: '<=', limit: FLOOD_P99_RATIO, on: 'ratio' },
  };
  console.log(
    [
      `${database}: sign-in flood of ${flood.requests.total} requests at ${flood.requests.average.toFixed(0)}/s (${FLOOD_FACTOR}x the ${login.requests.average.toFixed(0)}/s sign-in sustains, ${HASHING_THREADS} hashing thread${HASHING_THREADS === 1 ? '' : 's'}): ${answered('200')} signed in, ${answered('503')} refused busy (503), ${answered('429')} refused locked (429)`,
      `${database}: flood figure: LoginByToken p99 idle ${idleP99.toFixed(1)} ms (before ${before.latency.p99} ms, after ${after.latency.p99} ms), flooded ${flooded.latency.p99.toFixed(1)} ms: ${ratioOf(floodFigure).toFixed(2)}x, bar <= ${FLOOD_P99_RATIO}x, ${meets(floodFigure) ? 'meets' : 'MISSES'}`,
    ].join('\n'),
  );
  figures.push(floodFigure);
  return figures;
}

/**
 * The PostgreSQL server shares the machine: a phase's writes (sign-ins, the flood) leave it a
 * checkpoint and autovacuum to do, which would otherwise run during the next database's
 * figures. Each database's phase starts after them (a checkpoint, a vacuum, a few idle seconds).
 */
async function settlePostgres(url: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('vacuum (analyze)');
    // CHECKPOINT needs a superuser or pg_checkpoint: without, the idle seconds have to do.
    await client
      .query('checkpoint')
      .catch((error: Error) => console.log(`PostgreSQL: no checkpoint (${error.message})`));
  } finally {
    await client.end();
  }
  await new Promise((resolve) => setTimeout(resolve, SETTLE_MS));
}
const SETTLE_MS = 5_000;

async function main(): Promise<void> {
  if (!(await postgresAvailable(SERVER_URL)))
    throw new Error(`No PostgreSQL at ${SERVER_URL} (set BENCH_DATABASE_URL)`);
  const pgDb = await freshPostgres(SERVER_URL);
  await seedCustomers({ url: pgDb.url }, CUSTOMERS);
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'soundid-bench-pglite-'));
  await seedCustomers({ dataDir }, CUSTOMERS);
  if (!ONLY || ONLY === 'signin') {
    await seedTotpCustomers({ url: pgDb.url }, TOTP_CUSTOMERS, BENCH_SESSION_SECRET);
    await seedTotpCustomers({ dataDir }, TOTP_CUSTOMERS, BENCH_SESSION_SECRET);
  }

  const baselineServer = await startBaseline(pgDb.url);
  const reader = new pg.Client({ connectionString: pgDb.url });
  await reader.connect();
  const ids = (await reader.query('select id from users order by email limit $1', [SIGNED_IN])).rows.map(
    (row: { id: string }) => row.id,
  );
  await reader.end();
  const baselines: Baselines = {
    argon2() {
      const perSecond = argon2Baseline();
      console.log(`raw argon2id verify: ${perSecond.toFixed(0)}/s`);
      return perSecond;
    },
    async read(tokens) {
      // The primary keys of as many customers as the signed-in calls rotate through, each
      // request carrying the same session tokens (the baseline ignores them).
      const result = await cannon({
        url: baselineServer.url,
        connections: CONNECTIONS,
        requests: rotatingRequests(
          ids.map((id) => `/pk/${id}`),
          tokens,
        ),
      });
      assertOk('baseline', result);
      console.log(`bare PK SELECT: ${result.requests.average.toFixed(0)}/s, p99 ${result.latency.p99} ms`);
      return { perSecond: result.requests.average, p99: result.latency.p99 };
    },
  };

  const figures: Figure[] = [];
  // A failed figure stops the run, never leaving the baseline server or the scratch database behind.
  try {
    for (const [database, start] of [
      ['PostgreSQL', () => startService({ url: pgDb.url }, SERVICE_NODE_ARGS)],
      ['PGlite', () => startService({ dataDir }, SERVICE_NODE_ARGS)],
    ] as const) {
      await settlePostgres(pgDb.url);
      const running = await start();
      try {
        figures.push(...(await measure(database, running, baselines)));
      } finally {
        await running.stop();
      }
    }
  } finally {
    await baselineServer.stop();
    await pgDb.drop();
  }

  const table = figureTable(figures);
  console.log(`\n${table}\n`);
  const missed = figures.filter((f) => !meets(f)).length;
  console.log(`${figures.length - missed} of ${figures.length} figures meet their bar`);
  // A subset is indicative only: the recorded block stays that of a full run.
  if (ONLY) return;
  writeBlock(
    'bench',
    `Command: \`npm run bench\` (${DURATION} s per figure; \`BENCH_SECONDS\` changes it).\nMachine: ${machine()}.\nRun: ${new Date().toISOString()}.\n\n${table}`,
  );
}

await main();
