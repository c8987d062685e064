/**
 * The test kit (ADR 0035): starting the service as a child process on a free port, throwaway
 * databases and calls to a running service, for the API suites, the browser suite
 * (apps/web/e2e) and the benchmarks (bench/). The in-process service with a per-file database
 * (test-app.ts, test-database.ts) needs Vitest and stays out of this entry.
 */
export { type CliName, runCli } from './cli';
export { adminQuery, postgresAvailable, scratchDatabase } from './databases';
export { devMails, postJson, signIn, signUpThrough, tearDown } from './http';
export { OPERATOR_TEST_PASSWORD, OperatorKit, type OperatorPost, operatorKitFor } from './operators';
export { freePort } from './ports';
export {
  type ProcessOptions,
  repoRoot,
  type ServiceProcess,
  serviceEntry,
  startProcess,
  startRefusedService,
  startService,
  TEST_SERVICE_ENV,
} from './service-process';
