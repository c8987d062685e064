import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { configDefaults, defineConfig } from 'vitest/config';
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

/**
 * A front end's tests as two projects. Most files share the worker's modules and jsdom from one
 * file to the next (`isolate: false`): a fresh module graph and environment per file was over half
 * of these suites' CPU time (ADR 0035, addendum "front-end tests share their modules"). Each test
 * still starts from an empty page (test/fresh-page.ts) and its app's fresh client state. A file that would leak
 * into the files after it (SHARES_BADLY) runs in a project of its own, isolated as before; the
 * split follows the files' text, no list to keep.
 */
function frontEndProjects(configFile: string, name: string) {
  const root = path.dirname(configFile);
  const files = readdirSync(path.join(root, 'src'), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.test\.tsx?$/.test(file))
    .map((file) => path.join('src', file));
  const apart = files.filter((file) => SHARES_BADLY.test(readFileSync(path.join(root, file), 'utf8')));
  // `extends` adds to the config file's include and exclude lists: each project excludes the other's files.
  const excluding = (others: string[]) => [...configDefaults.exclude, ...others];
  return [
    { extends: configFile, test: { name, isolate: false, exclude: excluding(apart), setupFiles: [FRESH_PAGE] } },
    ...(apart.length > 0
      ? [
          {
            extends: configFile,
            test: { name: `${name}-isolated`, exclude: excluding(files.filter((file) => !apart.includes(file))) },
          },
        ]
      : []),
  ];
}

const FRESH_PAGE = path.join(import.meta.dirname, 'test/fresh-page.ts');

/**
 * What a file must not share with the files after it: a module it replaces (`vi.mock`), or a
 * render on the server, which leaves React's context values set where the client's next render
 * reads them ("You cannot render a <Router> inside another <Router>").
 */
const SHARES_BADLY = /\bvi\.(mock|doMock)\(|from '(react-dom\/(server|static)|[\w./-]*\/server-entry)'/;

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
      ...frontEndProjects('apps/web/vitest.config.ts', 'web'),
      ...frontEndProjects('apps/console/vitest.config.ts', 'console'),
    ],
  },
});
