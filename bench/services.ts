import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { BENCH_PASSWORD, benchEmail } from './seed';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export interface Running {
  url: string;
  stop(): Promise<void>;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`${url}: process exited with ${child.exitCode}`);
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not answer`);
}

function run(
  script: string,
  env: Record<string, string>,
  readyPath: string,
  port: number,
  nodeArgs: string[] = [],
): Promise<Running> {
  const child = spawn(process.execPath, [...nodeArgs, '--import', 'tsx', script], {
    cwd: repoRoot,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null) return resolve();
      child.once('exit', () => resolve());
      child.kill('SIGTERM');
    });
  return waitFor(`${url}${readyPath}`, child).then(() => ({ url, stop }));
}

/** The built service, as `npm start` runs it, on the given database. */
export async function startService(
  database: { url?: string; dataDir?: string },
  nodeArgs: string[] = [],
): Promise<Running> {
  const port = await freePort();
  return run(
    'apps/api/src/server.ts',
    {
      NODE_ENV: 'development',
      LOG_LEVEL: 'warn',
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: database.dataDir ?? mkdtempSync(path.join(tmpdir(), 'soundid-bench-')),
      ADMIN_TOKEN: BENCH_ADMIN_TOKEN,
      ...(database.url ? { DATABASE_URL: database.url } : {}),
    },
    '/api/ready',
    port,
    nodeArgs,
  );
}

export const BENCH_ADMIN_TOKEN = 'bench-operator-token-0123456789abcdef';

/** The baseline: bare Fastify + node-postgres answering one primary-key SELECT. */
export async function startBaseline(databaseUrl: string): Promise<Running> {
  const port = await freePort();
  return run('bench/baseline-server.ts', { DATABASE_URL: databaseUrl }, '/health', port);
}

/** A new, empty database on the server, dropped by `drop()`. */
export async function freshPostgres(serverUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `soundid_bench_${Date.now().toString(36)}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    async drop() {
      const dropper = new pg.Client({ connectionString: serverUrl });
      await dropper.connect();
      await dropper.query(`drop database if exists ${name} with (force)`);
      await dropper.end();
    },
  };
}

export async function postgresAvailable(serverUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** Signs seeded customer `i` in as an app does (AuthToken header) and returns the session token. */
export async function signIn(service: Running, i: number): Promise<string> {
  const res = await fetch(`${service.url}/api/accounts/LoginByEmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: benchEmail(i), password: BENCH_PASSWORD, keepMeSignedIn: true }),
  });
  if (!res.ok) throw new Error(`sign-in of customer ${i}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { Token: string }).Token;
}
