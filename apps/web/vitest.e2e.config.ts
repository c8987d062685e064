import { defineConfig } from 'vitest/config';

/**
 * Browser tests: the real API serving the built SPA, driven through Debian's Chromium.
 * One worker, files in sequence: the suite shares one server and one database.
 */
export default defineConfig({
  test: {
    name: 'web-e2e',
    root: import.meta.dirname,
    include: ['e2e/**/*.spec.ts'],
    environment: 'node',
    globalSetup: ['./e2e/global-setup.ts'],
    pool: 'forks',
    maxWorkers: 1,
    fileParallelism: false,
    testTimeout: 120_000,
    hookTimeout: 240_000,
  },
});
