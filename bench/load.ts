import { SESSION_COOKIE_PLAIN } from '@soundid/contracts';
import autocannon from 'autocannon';
import { operatorKitFor } from '../apps/api/test/kit';
import { BENCH_PASSWORD, benchEmail, seedCustomers } from './seed';
import { BENCH_ADMIN_TOKEN, freshPostgres, type Running, startService } from './services';

/**
 * `npm run load`: mixed traffic (calls, and pages the service renders) at saturation against the
 * service on PostgreSQL for LOAD_SECONDS (default 60). Passes when nothing but the intended refusals comes back (401
 * wrong password, 402 no tokens, 429 lockout, 503 every hashing place taken (ADR 0028)), the heap after a collection is within 1.2x
 * of before, and every database connection is back in the pool.
 */
const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CUSTOMERS = 200;
const SERVER_URL = process.env.BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const INTENDED = new Set([200, 401, 402, 429, 503]);

interface Metrics {
  HeapUsedBytes: number;
  Database: { Connections: { total: number; idle: number; waiting: number } };
}

/** An operator with every role (ADR 0044), made through the bootstrap token once the service is up. */
let operator = '';

async function metrics(service: Running): Promise<Metrics> {
  const res = await fetch(`${service.url}/api/admin/metrics?gc=1`, {
    headers: { authorization: `Bearer ${operator}` },
  });
  return ((await res.json()) as { Result: Metrics }).Result;
}

async function post(service: Running, path: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${service.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  return (await res.json()) as { Token?: string };
}

async function main(): Promise<void> {
  const database = await freshPostgres(SERVER_URL);
  await seedCustomers({ url: database.url }, CUSTOMERS);
  const service = await startService({ url: database.url }, ['--expose-gc']);
  operator = await operatorKitFor(service.url, BENCH_ADMIN_TOKEN).tokenFor();

  const tokens: string[] = [];
  for (let i = 0; i < 20; i++) {
    const login = await post(service, '/api/accounts/LoginByEmail', { email: benchEmail(i), password: BENCH_PASSWORD });
    tokens.push(login.Token as string);
    await post(
      service,
      '/api/admin/grant-tokens',
      { email: benchEmail(i), amount: 10_000_000, reason: 'load test' },
      { authorization: `Bearer ${operator}` },
    );
  }

  // Warm up (the pages' first renders load their screens), then take the heap before.
  await autocannon({ url: `${service.url}/api/health`, duration: 3, connections: 20 });
  for (const page of ['/login', '/products']) {
    await fetch(`${service.url}${page}`, { headers: { cookie: `${SESSION_COOKIE_PLAIN}=${tokens[0]}` } });
  }
  const before = await metrics(service);

  let n = 0;
  const signedIn = (path: string, body: () => unknown): autocannon.Request => ({
    method: 'POST',
    path,
    setupRequest: (request) => ({
      ...request,
      headers: { 'content-type': 'application/json', authtoken: tokens[n++ % tokens.length] as string },
      body: JSON.stringify(body()),
    }),
  });
  const result = await autocannon({
    url: service.url,
    duration: SECONDS,
    connections: 50,
    requests: [
      signedIn('/api/accounts/LoginByToken', () => ({ getProfile: true })),
      signedIn('/api/accounts/GetOrUpdateProfile', () => ({})),
      signedIn('/api/voiceai/GetPurchaseHistory', () => ({ page: 1 })),
      signedIn('/api/apps/ConsumeTokens', () => ({ seconds: 7, requestId: `load-${n}-${Math.random()}` })),
      signedIn('/api/voiceai/GetActionHistory', () => ({ page: 1 })),
      {
        method: 'POST',
        path: '/api/accounts/LoginByEmail',
        setupRequest: (request) => ({
          ...request,
          headers: { 'content-type': 'application/json' },
          // Wrong passwords for the upper customers: 401s, then their lockout's 429s.
          body: JSON.stringify({ email: benchEmail(100 + (n++ % 100)), password: 'not the password' }),
        }),
      },
      { method: 'GET', path: '/api/accounts/features' },
      // Pages the service renders (ADR 0024): sign-in, and Licenses & Devices with its reads.
      { method: 'GET', path: '/login' },
      {
        method: 'GET',
        path: '/products',
        setupRequest: (request) => ({
          ...request,
          headers: { cookie: `${SESSION_COOKIE_PLAIN}=${tokens[n++ % tokens.length]}` },
        }),
      },
    ],
  });
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const after = await metrics(service);
  await service.stop();

  const statuses = Object.entries(result.statusCodeStats ?? {}).map(([code, stat]) => [Number(code), stat.count]);
  const unintended = statuses.filter(([code]) => !INTENDED.has(code as number));
  const heapRatio = after.HeapUsedBytes / before.HeapUsedBytes;
  const pool = after.Database.Connections;
  console.log(
    `requests: ${result.requests.total} in ${SECONDS} s (${result.requests.average.toFixed(0)}/s), p99 ${result.latency.p99} ms`,
  );
  console.log(`status codes: ${statuses.map(([c, k]) => `${c}×${k}`).join(', ')}`);
  console.log(`errors: ${result.errors}, timeouts: ${result.timeouts}`);
  console.log(
    `heap after GC: ${(before.HeapUsedBytes / 2 ** 20).toFixed(1)} → ${(after.HeapUsedBytes / 2 ** 20).toFixed(1)} MiB (×${heapRatio.toFixed(2)})`,
  );
  console.log(`database connections after: ${JSON.stringify(pool)}`);

  const problems = [
    ...(unintended.length ? [`unintended status codes ${JSON.stringify(unintended)}`] : []),
    ...(result.errors || result.timeouts ? [`${result.errors} errors, ${result.timeouts} timeouts`] : []),
    ...(heapRatio > 1.2 ? [`heap grew ×${heapRatio.toFixed(2)}`] : []),
    ...(pool.waiting > 0 || pool.total !== pool.idle ? ['connections not back in the pool'] : []),
  ];
  await database.drop();
  if (problems.length) {
    console.error(`FAILED: ${problems.join('; ')}`);
    process.exit(1);
  }
  console.log('load: passed');
}

await main();
