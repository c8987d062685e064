import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { EMBEDDED_DATABASE_NODE_ARGS, repoRoot } from './service-process';

/**
 * The operator CLI (`npm run admin`) and the desktop-app simulator (`npm run app`) as child
 * processes, for the suites that run them as a person does. `npm run` starts them through tsx,
 * which compiles the TypeScript on every start (1.5–3 s on a busy 2-core machine, 60-odd runs a
 * test run); the kit bundles each one once per test process with esbuild, the compiler tsx itself
 * uses, and runs the bundle with the same Node: the same source, arguments, environment and
 * output, at a tenth of the start-up (docs/decisions/0035-test-kit.md, addendum).
 */
const CLI_ENTRIES = {
  admin: 'apps/api/src/cli/admin.ts',
  app: 'apps/api/src/cli/app-simulator.ts',
} as const;

export type CliName = keyof typeof CLI_ENTRIES;

const bundles = new Map<CliName, Promise<string>>();

/** The CLI's bundle for this test process, built on first use; removed when the process exits on its own (a worker Vitest ends leaves its 1 MB in the temporary folder). */
function cliBundle(name: CliName): Promise<string> {
  let bundle = bundles.get(name);
  if (!bundle) {
    const folder = mkdtempSync(path.join(tmpdir(), `soundid-cli-${name}-`));
    process.once('exit', () => rmSync(folder, { recursive: true, force: true }));
    const outfile = path.join(folder, `${name}.mjs`);
    bundle = build({
      entryPoints: [path.join(repoRoot, CLI_ENTRIES[name])],
      outfile,
      bundle: true,
      platform: 'node',
      format: 'esm',
      target: 'node20',
      logLevel: 'error',
      // CommonJS packages in the bundle still call require for Node's own modules.
      banner: {
        js: "import { createRequire as __cliRequire } from 'node:module'; const require = __cliRequire(import.meta.url);",
      },
    }).then(() => outfile);
    bundles.set(name, bundle);
  }
  return bundle;
}

export interface CliRun {
  stdout: string;
  stderr: string;
}

/**
 * Runs the CLI with `args`, from the repository root (as `npm run` does) unless `cwd` says
 * otherwise. Rejects as `execFile` does on a non-zero exit: the error has `code`, `stdout` and
 * `stderr`.
 */
export async function runCli(
  name: CliName,
  args: string[],
  options: { env?: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number } = {},
): Promise<CliRun> {
  const { stdout, stderr } = await promisify(execFile)(
    process.execPath,
    [...EMBEDDED_DATABASE_NODE_ARGS, await cliBundle(name), ...args],
    {
      cwd: options.cwd ?? repoRoot,
      env: options.env ?? process.env,
      timeout: options.timeoutMs ?? 60_000,
    },
  );
  return { stdout, stderr };
}
