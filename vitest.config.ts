import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import { EMBEDDED_DATABASE_NODE_ARGS } from './apps/api/test/kit/service-process';

/**
 * One run for every workspace. The API suite runs on PGlite always and once more on
 * PostgreSQL when TEST_DATABASE_URL is set; each test file gets its own database.
 */
const apiProject = (name: string, env: Record<string, string>) => ({
  extends: false as const,
  test: {
    name,
    root: 'apps/api',
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    environment: 'node',
    globalSetup: ['test/global-setup.ts'],
    pool: 'forks' as const,
    // Node 24's V8 aborted a worker while freeing PGlite's Wasm code (README.md, "A lost test
    // worker"); the service processes and CLIs the kit starts get the same flags.
    execArgv: [...EMBEDDED_DATABASE_NODE_ARGS],
    // A worker keeps the service's modules from one file to the next (each file still builds its
    // own app, database and clock): import was a third of the suite's time (ADR 0035 addendum).
    isolate: false,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    env,
  },
});

export default defineConfig({
  test: {
    // The default report, then the files a dead worker took with it (README.md, "A lost test worker").
    reporters: ['default', './test/reporters/unfinished-files.ts'],
    // One worker more than cores: the suites spend much of their time waiting on the database,
    // child processes and timers (a clean unit run on 2 cores: 323 s with Vitest's default of
    // one worker, 219 s with three; docs/benchmarks.md, test time).
    maxWorkers: availableParallelism() + 1,
    projects: [
      { test: { name: 'contracts', root: 'packages/contracts', include: ['src/**/*.test.ts'] } },
      { test: { name: 'repository', root: '.', include: ['test/**/*.test.ts'] } },
      apiProject('api-pglite', { TEST_DB_KIND: 'pglite' }),
      ...(process.env.TEST_DATABASE_URL ? [apiProject('api-postgres', { TEST_DB_KIND: 'postgres' })] : []),
      'apps/web/vitest.config.ts',
      'apps/console/vitest.config.ts',
    ],
  },
});
