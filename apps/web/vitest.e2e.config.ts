import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the real API serving the built SPA, driven through Debian's Chromium.
 * One worker, files in sequence: the suite shares one server and one database. The files share
 * modules (`isolate: false`), and so one Chromium (e2e/browser.ts); each test still gets a fresh
 * browser context. Two workers, each with its own service, took as long on two cores: the suite
 * is CPU-bound there (docs/benchmarks.md, test time).
 */
export default defineConfig({
  test: {
    name: 'web-e2e',
    root: import.meta.dirname,
    include: ['e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['./e2e/global-setup.ts'],
    pool: 'forks',
    isolate: false,
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
