import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import pg from 'pg';
import { BENCH_PASSWORD, benchEmail, seedCustomers } from './seed';
import { freshPostgres, type Running, repoRoot, startBaseline, startService } from './services';

/**
 * `npm run bench`: each figure beside its baseline measured in the same run, and the ratio.
 * PostgreSQL (the production path) first, the embedded PGlite beside it.
 */
const DURATION = Number(process.env.BENCH_SECONDS ?? 10);
const CUSTOMERS = 1000;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

interface Figure {
  name: string;
  database: string;
  value: number;
  p99?: number;
  baseline: number;
  baselineName: string;
  bar: number;
}

async function cannon(options: autocannon.Options): Promise<autocannon.Result> {
  return autocannon({ duration: DURATION, ...options });
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

function argon2Baseline(): number {
  const out = execFileSync(process.execPath, ['--import', 'tsx', 'bench/argon2-baseline.ts', String(DURATION), '16'], {
    cwd: repoRoot,
    encoding: 'utf8',
  });
  return (JSON.parse(out.trim().split('\n').pop() as string) as { perSecond: number }).perSecond;
}

async function signIn(service: Running): Promise<string> {
  const res = await fetch(`${service.url}/api/accounts/LoginByEmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchEmail(0), password: BENCH_PASSWORD, keepMeSignedIn: true }),
  });
  return ((await res.json()) as { Token: string }).Token;
}

async function postgresAvailable(): Promise<boolean> {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

async function main(): Promise<void> {
  const figures: Figure[] = [];
  const argonPerSecond = argon2Baseline();
  console.log(`raw argon2id verify: ${argonPerSecond.toFixed(0)}/s`);

  if (!(await postgresAvailable())) throw new Error(`No PostgreSQL at ${SERVER_URL} (set BENCH_DATABASE_URL)`);
  const pgDb = await freshPostgres(SERVER_URL);
  await seedCustomers({ url: pgDb.url }, CUSTOMERS);
  const baseline = await startBaseline(pgDb.url);
  const pgService = await startService({ url: pgDb.url });
  const reader = new pg.Client({ connectionString: pgDb.url });
  await reader.connect();
  const { id } = (await reader.query('select id from users limit 1')).rows[0] as { id: string };
  await reader.end();
  const baselineRead = await cannon({ url: `${baseline.url}/pk/${id}`, method: 'POST', connections: 100 });
  await baseline.stop();

  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'soundid-bench-pglite-'));
  await seedCustomers({ dataDir }, CUSTOMERS);

  for (const [database, service] of [
    ['PostgreSQL', pgService],
    ['PGlite', null],
  ] as const) {
    const running = service ?? (await startService({ dataDir }));
    const login = await cannon({ url: running.url, connections: 16, requests: loginRequests() });
    figures.push({
      name: 'LoginByEmail req/s',
      database,
      value: login.requests.average,
      p99: login.latency.p99,
      baseline: argonPerSecond,
      baselineName: 'raw argon2id verify/s',
      bar: 0.75,
    });
    const token = await signIn(running);
    const byToken = await cannon({
      url: `${running.url}/api/accounts/LoginByToken`,
      method: 'POST',
      connections: 100,
      headers: { 'content-type': 'application/json', authtoken: token },
      body: '{}',
    });
    figures.push({
      name: 'LoginByToken req/s (100 connections)',
      database,
      value: byToken.requests.average,
      p99: byToken.latency.p99,
      baseline: baselineRead.requests.average,
      baselineName: 'Fastify + pg PK SELECT req/s',
      bar: 0.7,
    });
    await running.stop();
  }
  await pgDb.drop();
  report(figures, baselineRead);
}

function report(figures: Figure[], baselineRead: autocannon.Result): void {
  const lines = figures.map((f) => {
    const ratio = f.value / f.baseline;
    const verdict = ratio >= f.bar ? 'meets' : 'misses';
    return `| ${f.name} | ${f.database} | ${f.value.toFixed(0)} | ${f.p99 ?? '-'} ms | ${f.baselineName}: ${f.baseline.toFixed(0)} | ${ratio.toFixed(2)} | >= ${f.bar} (${verdict}) |`;
  });
  const table = [
    '| Figure | Database | Value | p99 | Baseline (same run) | Ratio | Bar |',
    '|---|---|---|---|---|---|---|',
    ...lines,
  ].join('\n');
  console.log(`\n${table}\n`);
  console.log(`baseline PK SELECT p99: ${baselineRead.latency.p99} ms`);
  const machine = `${os.cpus().length} × ${os.cpus()[0]?.model ?? 'cpu'}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, Node ${process.version}`;
  // The figures go between the markers; the hand-written reading around them stays.
  const file = path.join(repoRoot, 'docs/benchmarks.md');
  const figuresBlock = `<!-- bench:start -->\nCommand: \`npm run bench\` (${DURATION} s per figure; \`BENCH_SECONDS\` changes it).\nMachine: ${machine}.\nRun: ${new Date().toISOString()}.\n\n${table}\n\nBaseline PK SELECT p99: ${baselineRead.latency.p99} ms.\n<!-- bench:end -->`;
  const current = existsSync(file)
    ? readFileSync(file, 'utf8')
    : '# Benchmarks\n\n<!-- bench:start --><!-- bench:end -->\n';
  writeFileSync(file, current.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, figuresBlock));
}

await main();
