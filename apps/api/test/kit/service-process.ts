import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';

/**
 * The real service as a child process on a PostgreSQL database or the embedded PGlite, for the
 * suites that kill it, cut it off, run two of it or expect it to refuse (faults, scale-out), and
 * the throwaway databases they use.
 */
const serverEntry = fileURLToPath(new URL('../src/server.ts', import.meta.url));

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** SIGKILL: no shutdown hook runs, in-flight requests and transactions are cut where they are. */
  kill(): Promise<void>;
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

/**
 * Starts the service and waits until /api/ready answers: on the PostgreSQL database given, or
 * (undefined) on the embedded PGlite in env.DATA_DIR (a fresh directory when unset). env.PORT
 * picks the port (a free one otherwise).
 */
export async function startService(
  databaseUrl: string | undefined,
  env: Record<string, string>,
): Promise<ServiceProcess> {
  const { child, url, output } = await spawnService(databaseUrl, env);
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const signal = async (name: NodeJS.Signals) => {
    child.kill(name);
    await exited;
  };
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) throw new Error(`service exited with code ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}/api/ready`)).ok) {
        return { url, child, kill: () => signal('SIGKILL'), stop: () => signal('SIGTERM') };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await signal('SIGKILL');
  throw new Error(`service did not start:\n${output()}`);
}

/**
 * Starts the service expecting it to refuse: waits (at most timeoutMs) for it to exit and
 * returns its exit code (null: still running at the deadline, then killed) and what it printed.
 */
export async function startRefusedService(
  databaseUrl: string | undefined,
  env: Record<string, string>,
  timeoutMs = 60_000,
): Promise<{ code: number | null; output: string }> {
  const { child, output } = await spawnService(databaseUrl, env);
  const code = await new Promise<number | null>((resolve) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      resolve(null);
    }, timeoutMs);
    child.once('exit', (exitCode) => {
      clearTimeout(timer);
      resolve(exitCode);
    });
  });
  return { code, output: output() };
}

async function spawnService(
  databaseUrl: string | undefined,
  env: Record<string, string>,
): Promise<{ child: ChildProcess; url: string; output(): string }> {
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATABASE_URL: databaseUrl ?? '',
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soundid-service-')),
      LOG_LEVEL: 'silent',
      // Suites sign up many customers from 127.0.0.1 (ADR 0031's limits are tested elsewhere).
      SIGNUP_LIMIT_PER_CLIENT: '100000',
      SIGNUP_LIMIT_TOTAL: '100000',
      MAIL_LIMIT_PER_MAILBOX: '100000',
      ...env,
      PORT: String(port),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  return { child, url, output: () => chunks.join('') };
}

/** A database of its own on the TEST_DATABASE_URL server, dropped (with its connections) after. */
export async function scratchDatabase(
  serverUrl: string,
  prefix: string,
): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  const run = async (statement: string) => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    try {
      await admin.query(statement);
    } finally {
      await admin.end();
    }
  };
  await run(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => run(`drop database if exists ${name} with (force)`) };
}

/** POSTs JSON to a running service. */
export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/** Signs up through the running service, opens the mailed link, and returns a session token. */
export async function signUpThrough(base: string, email: string, password: string): Promise<string> {
  await postJson(`${base}/api/accounts/register`, { email, password });
  const mail = (await (await fetch(`${base}/api/dev/mail?to=${encodeURIComponent(email)}`)).json()) as {
    Result: { Links: string[] }[];
  };
  const verified = await postJson(`${base}/api/accounts/VerifyEmail`, {
    token: mail.Result[0]?.Links[0]?.split('/').pop(),
  });
  return ((await verified.json()) as { Token: string }).Token;
}

/**
 * Runs a suite's clean-up steps in order, each given `limitMs`: a step that fails or outlasts its
 * limit is reported by name and the rest still run, so one stuck close neither hides which step
 * it was nor leaves the scratch database behind (a CI run once timed out the whole hook unnamed).
 */
export async function tearDown(steps: Record<string, () => Promise<unknown> | undefined>, limitMs = 10_000) {
  const problems: string[] = [];
  for (const [name, step] of Object.entries(steps)) {
    let timer: NodeJS.Timeout | undefined;
    const limit = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), limitMs);
    });
    try {
      if ((await Promise.race([Promise.resolve(step()), limit])) === 'late')
        problems.push(`${name}: over ${limitMs} ms`);
    } catch (error) {
      problems.push(`${name}: ${(error as Error).message}`);
    } finally {
      clearTimeout(timer);
    }
  }
  if (problems.length > 0) console.warn(`clean-up steps that did not finish: ${problems.join('; ')}`);
}
