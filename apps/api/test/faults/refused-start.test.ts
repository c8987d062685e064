import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../src/lib/data-dir-lock';
import { freePort, startRefusedService } from '../kit';

/**
 * A refused start-up loads nothing it does not need (docs/decisions/0027-deployment-safety.md,
 * addendum): a port in use or a data directory held by another process stops the service before
 * the application (features, database driver, seeds, integrations) is loaded, so that the
 * refusal comes in the time it takes to read the configuration, also on a busy machine. The
 * module hooks in ./module-trace name every module of apps/api/src the process loads.
 */
const trace = ['--import', fileURLToPath(new URL('./module-trace/register.mjs', import.meta.url))];
const APPLICATION = /module loaded: \S*\/apps\/api\/src\/(app\.ts|services\.ts|features\/|db\/|dev\/|integrations\/)/;
const loadedModules = (output: string) => output.split('\n').filter((line) => line.startsWith('module loaded: '));

describe('a refused start-up loads nothing it does not need', () => {
  let taken: Server;
  let port: number;
  beforeAll(async () => {
    port = await freePort();
    taken = createServer();
    await new Promise<void>((resolve) => taken.listen(port, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => taken.close(() => resolve())));

  it('a port in use: refused before the application is loaded', async () => {
    const refused = await startRefusedService(undefined, { PORT: String(port) }, 60_000, trace);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(`127.0.0.1:${port} is already in use`);
    // The hooks did see the service start (the entry and its configuration).
    expect(loadedModules(refused.output).some((line) => line.endsWith('/apps/api/src/server.ts'))).toBe(true);
    expect(refused.output).not.toMatch(APPLICATION);
  });

  it('a data directory another live process holds: refused before the application is loaded', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'soundid-refused-start-'));
    // This test's own process holds the directory: alive, on this machine.
    const owner = { pid: process.pid, host: hostname(), startedAt: new Date().toISOString(), port: 1, dataDir };
    writeFileSync(path.join(dataDir, LOCK_FILE_NAME), `${JSON.stringify(owner)}\n`);
    const refused = await startRefusedService(undefined, { DATA_DIR: dataDir }, 60_000, trace);
    expect(refused.code, refused.output).toBe(1);
    expect(refused.output).toContain(`the data directory ${dataDir} is in use by another My SoundID process`);
    expect(loadedModules(refused.output).some((line) => line.endsWith('/apps/api/src/server.ts'))).toBe(true);
    expect(refused.output).not.toMatch(APPLICATION);
  });
});
