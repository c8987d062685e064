import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { startProcess, TEST_SERVICE_ENV } from '../../api/test/kit';

export const webDir = path.resolve(import.meta.dirname, '..');
export const repoRoot = path.resolve(webDir, '../..');
/** The back-office console (ADR 0047), built beside the portal and served by the API under /console. */
export const consoleDir = path.resolve(repoRoot, 'apps/console');

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

/** The console's production build, as `npm run build` makes it after the portal's. */
export function buildConsole(): void {
  execFileSync('npx', ['vite', 'build', '--logLevel', 'warn'], {
    cwd: consoleDir,
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'production' },
  });
}

/**
 * Starts the real API through the test kit (ADR 0035) on a free port with a fresh database,
 * serving the built SPA, at the test runs' password-hashing cost.
 */
export async function startApi(): Promise<RunningApi> {
  const service = await startProcess({
    hostname: 'localhost',
    env: {
      NODE_ENV: 'development',
      ADMIN_TOKEN: E2E_ADMIN_TOKEN,
      // The suite signs up many customers from one address, and mails some often (ADR 0031).
      ...TEST_SERVICE_ENV,
    },
    timeoutMs: 120_000,
  });
  return { baseUrl: service.url, output: service.output, stop: service.stop };
}
