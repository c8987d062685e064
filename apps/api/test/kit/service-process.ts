import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from './ports';

/**
 * The real service (or another server script) as a child process, for the suites that kill it,
 * cut it off, run two of it or expect it to refuse (faults, scale-out), the browser suite and the
 * benchmarks (ADR 0035). It imports nothing of the service, so the web workspace can use it.
 */
export const repoRoot = fileURLToPath(new URL('../../../..', import.meta.url));
export const serviceEntry = path.join(repoRoot, 'apps/api/src/server.ts');

/**
 * What every test start-up of the service adds outside production: allowances out of the way of
 * suites that sign up many customers from 127.0.0.1 (ADR 0031's limits are tested on their own)
 * and argon2's cheapest cost (PASSWORD_HASH_COST, ADR 0035), which production refuses.
 */
export const TEST_SERVICE_ENV: Record<string, string> = {
  SIGNUP_LIMIT_PER_CLIENT: '100000',
  SIGNUP_LIMIT_TOTAL: '100000',
  MAIL_LIMIT_PER_MAILBOX: '100000',
  PASSWORD_HASH_COST: 'test',
};

/**
 * Where a test's service looks for the portal's and the console's builds: directories that hold
 * none. Whether a build exists must not change a test's outcome, and `npm test` builds the portal
 * for the browser suite while the unit suites run (ADR 0035, addendum "the unit and browser
 * suites at once").
 */
export const NO_BUILD_ENV: Readonly<Record<string, string>> = {
  WEB_DIST_DIR: path.join(tmpdir(), 'soundid-no-spa'),
  CONSOLE_DIST_DIR: path.join(tmpdir(), 'soundid-no-console'),
};

/**
 * Node flags for every process the kit starts that may open the embedded database. Node 24's V8
 * aborted a process now and then while freeing PGlite's Wasm code ("Check failed:
 * jit_page_->allocations_.erase(addr) == 1" in WasmEngine::FreeDeadCode; README.md, "A lost test
 * worker"): a process that compiles PGlite once keeps its code, which is never garbage.
 */
export const EMBEDDED_DATABASE_NODE_ARGS: readonly string[] = ['--no-wasm-code-gc'];

export interface ServiceProcess {
  url: string;
  child: ChildProcess;
  /** What it printed so far (stdout and stderr). */
  output(): string;
  /** SIGKILL: no shutdown hook runs, in-flight requests and transactions are cut where they are. */
  kill(): Promise<void>;
  /** SIGTERM, SIGKILL when it has not exited within 10 s; removes the DATA_DIR the kit made. */
  stop(): Promise<void>;
}

export interface ProcessOptions {
  /** The server script (from the repository root); the service by default. */
  script?: string;
  /** On top of the inherited environment and the kit's PORT, HOST, PUBLIC_URL and DATA_DIR. */
  env?: Record<string, string>;
  /** Answers 200 once the process is ready. */
  readyPath?: string;
  /** The host name in `url` and PUBLIC_URL (the browser suite uses localhost). */
  hostname?: string;
  nodeArgs?: string[];
  /** Also print its stderr (the benchmarks show the service's warnings). */
  echoStderr?: boolean;
  timeoutMs?: number;
}

/**
 * Starts a server script and waits until `readyPath` answers. env.PORT picks the port (a free
 * one otherwise); env.DATA_DIR the embedded database's directory (a fresh one otherwise).
 */
export async function startProcess(options: ProcessOptions = {}): Promise<ServiceProcess> {
  const { readyPath = '/api/ready', timeoutMs = 60_000 } = options;
  const spawned = await spawnProcess(options);
  const { child, url, output } = spawned;
  const exited = new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve();
    else child.once('exit', () => resolve());
  });
  const signal = async (name: NodeJS.Signals) => {
    if (child.exitCode === null && child.signalCode === null) child.kill(name);
    await exited;
  };
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<'late'>((resolve) => {
      timer = setTimeout(() => resolve('late'), 10_000);
    });
    if ((await Promise.race([exited, late])) === 'late') await signal('SIGKILL');
    clearTimeout(timer);
    spawned.removeDataDir();
  };
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`${url} exited with code ${child.exitCode}:\n${output()}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) {
        return { url, child, output, kill: () => signal('SIGKILL'), stop };
      }
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  await signal('SIGKILL');
  spawned.removeDataDir();
  throw new Error(`${url}${readyPath} did not answer within ${timeoutMs} ms:\n${output().slice(-4000)}`);
}

/**
 * Starts the service for a test and waits until /api/ready answers: on the PostgreSQL database
 * given, or (undefined) on the embedded PGlite in env.DATA_DIR (a fresh directory when unset),
 * with TEST_SERVICE_ENV unless env.NODE_ENV is production.
 */
export function startService(databaseUrl: string | undefined, env: Record<string, string>): Promise<ServiceProcess> {
  return startProcess({ env: testServiceEnv(databaseUrl, env) });
}

/**
 * Starts the service expecting it to refuse: waits (at most timeoutMs) for it to exit and
 * returns its exit code (null: still running at the deadline, then killed) and what it printed.
 */
export async function startRefusedService(
  databaseUrl: string | undefined,
  env: Record<string, string>,
  timeoutMs = 60_000,
  nodeArgs: string[] = [],
): Promise<{ code: number | null; output: string }> {
  const { child, output, removeDataDir } = await spawnProcess({ env: testServiceEnv(databaseUrl, env), nodeArgs });
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
  removeDataDir();
  return { code, output: output() };
}

function testServiceEnv(databaseUrl: string | undefined, env: Record<string, string>): Record<string, string> {
  return {
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    DATABASE_URL: databaseUrl ?? '',
    ...NO_BUILD_ENV,
    ...(env.NODE_ENV === 'production' ? {} : TEST_SERVICE_ENV),
    ...env,
  };
}

async function spawnProcess(options: ProcessOptions) {
  const env = options.env ?? {};
  const port = env.PORT ? Number(env.PORT) : await freePort();
  const url = `http://${options.hostname ?? '127.0.0.1'}:${port}`;
  const ownDataDir = env.DATA_DIR ? undefined : mkdtempSync(path.join(tmpdir(), 'soundid-service-'));
  const script = options.script ? path.resolve(repoRoot, options.script) : serviceEntry;
  const child = spawn(
    process.execPath,
    [...EMBEDDED_DATABASE_NODE_ARGS, ...(options.nodeArgs ?? []), '--import', 'tsx', script],
    {
      cwd: repoRoot,
      env: {
        ...process.env,
        HOST: '127.0.0.1',
        PUBLIC_URL: url,
        ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
        ...env,
        PORT: String(port),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  const chunks: string[] = [];
  child.stdout?.on('data', (chunk: Buffer) => chunks.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => {
    chunks.push(chunk.toString());
    if (options.echoStderr) process.stderr.write(chunk);
  });
  return {
    child,
    url,
    output: () => chunks.join(''),
    removeDataDir: () => {
      if (ownDataDir) rmSync(ownDataDir, { recursive: true, force: true });
    },
  };
}
