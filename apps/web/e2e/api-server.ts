import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';

export const webDir = path.resolve(import.meta.dirname, '..');
export const repoRoot = path.resolve(webDir, '../..');

/** The operator token of the test service, so that specs can grant tokens and issue keys. */
export const E2E_ADMIN_TOKEN = 'e2e-operator-token-0123456789abcdef';

export interface RunningApi {
  baseUrl: string;
  /** What the service printed so far (its start-up lines name the demo customer). */
  output(): string;
  stop(): Promise<void>;
}

export interface DemoAccount {
  email: string;
  password: string;
}

/** The demo customer the service seeds on an empty database and prints at start-up. */
export async function demoAccount(api: RunningApi, timeoutMs = 20_000): Promise<DemoAccount> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const match = /e-mail (\S+@\S+)\s+password (\S+)/.exec(api.output());
    if (match?.[1] && match[2]) return { email: match[1], password: match[2] };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error('The service printed no demo customer');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

async function waitForHealth(baseUrl: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The API exited with code ${child.exitCode} before it was healthy`);
    try {
      const response = await fetch(`${baseUrl}/api/ready`);
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`The API was not ready (${baseUrl}/api/ready) within ${timeoutMs} ms`);
}

/**
 * The production build, as `npm start` makes it. Vitest sets NODE_ENV=test, which Vite would
 * otherwise pass on to React (its development build, twice the size: see bundle-budget.spec.ts).
 */
export function buildWeb(): void {
  // As `npm run build` does: the SPA, then the page renderer the API imports (ADR 0024).
  for (const ssr of [[], ['--ssr', 'src/server-entry.tsx']]) {
    execFileSync('npx', ['vite', 'build', '--logLevel', 'warn', ...ssr], {
      cwd: webDir,
      stdio: 'inherit',
      env: { ...process.env, NODE_ENV: 'production' },
    });
  }
}

/** Starts the real API on a free port with a fresh database, serving the built SPA. */
export async function startApi(): Promise<RunningApi> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(tmpdir(), 'soundid-web-e2e-'));
  const log: string[] = [];
  const child = spawn('npx', ['tsx', 'apps/api/src/server.ts'], {
    cwd: repoRoot,
    env: {
      ...process.env,
      PORT: String(port),
      DATA_DIR: dataDir,
      NODE_ENV: 'development',
      PUBLIC_URL: baseUrl,
      ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      // The suite signs up many customers from one address, and mails some often (ADR 0031).
      SIGNUP_LIMIT_PER_CLIENT: '100000',
      SIGNUP_LIMIT_TOTAL: '100000',
      MAIL_LIMIT_PER_MAILBOX: '100000',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group, so that stopping it also stops what npx started.
    detached: true,
  });
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));

  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };

  try {
    await waitForHealth(baseUrl, child, 120_000);
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n--- API output ---\n${log.join('').slice(-4000)}`);
  }
  return { baseUrl, output: () => log.join(''), stop };
}
