import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { scratchDatabase, signIn as signInThrough, startProcess } from '../apps/api/test/kit';
import { BENCH_PASSWORD, benchEmail } from './seed';

/** The benchmarks start their servers through the test kit (ADR 0035), at the production cost. */
export { freePort, postgresAvailable, repoRoot } from '../apps/api/test/kit';

export interface Running {
  url: string;
  stop(): Promise<void>;
}

/** The built service, as `npm start` runs it, on the given database. */
export async function startService(
  database: { url?: string; dataDir?: string },
  nodeArgs: string[] = [],
): Promise<Running> {
  return startProcess({
    env: {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      DATA_DIR: database.dataDir ?? mkdtempSync(path.join(tmpdir(), 'soundid-bench-')),
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      // Known to the bench, which seals the TOTP customers' secret under it (seed.ts).
      SESSION_SECRET: BENCH_SESSION_SECRET,
      // The bench times requests: the hourly idle-seat sweep (ADR 0052) firing on the seeded due
      // seats mid-run would be noise, so the job queue's workers stay off (ADR 0051).
      JOB_WORKERS: 'false',
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    },
    nodeArgs,
    echoStderr: true,
  });
}

export const BENCH_ADMIN_TOKEN = 'bench-operator-token-0123456789abcdef';
export const BENCH_SESSION_SECRET = 'bench-session-secret-0123456789abcdefghij';

/** The baseline: bare Fastify + node-postgres answering one primary-key SELECT. */
export async function startBaseline(databaseUrl: string): Promise<Running> {
  return startProcess({
    script: 'bench/baseline-server.ts',
    env: { DATABASE_URL: databaseUrl },
    readyPath: '/health',
    echoStderr: true,
  });
}

/** A new, empty database on the server, dropped by `drop()`. */
export const freshPostgres = (serverUrl: string) => scratchDatabase(serverUrl, 'soundid_bench');

/** Signs seeded customer `i` in as an app does (AuthToken header) and returns the session token. */
export function signIn(service: Running, i: number): Promise<string> {
  return signInThrough(service.url, { email: benchEmail(i), password: BENCH_PASSWORD });
}
