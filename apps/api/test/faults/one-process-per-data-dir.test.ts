import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LOCK_FILE_NAME } from '../../src/lib/data-dir-lock';
import { freePort, operatorKitFor, postJson, type ServiceProcess, startRefusedService, startService } from '../kit';

/**
 * The embedded database belongs to one process (ADR 0027): real service processes on one
 * DATA_DIR. A second process on the directory refuses to start, naming the directory and the
 * owner, and the first keeps serving; `npm start` twice (same port, same directory) refuses
 * before touching the directory; after a SIGKILL of the owner under write load the next start
 * takes the stale lock over, the directory opens, and every acknowledged sign-up is there.
 * PGlite only: with DATABASE_URL the service takes no lock (replicas share PostgreSQL).
 */
const ADMIN = 'one-process-operator-token-Qm7Rz4Kp9Xw2';
const SESSION_SECRET = 'one-process-session-secret-Vb3Nh8Tq5Lc1Jy6';
const runs = process.env.TEST_DB_KIND !== 'postgres';

/** Every file under dir with its size and modification time: what a start-up could have touched. */
function snapshot(dir: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (at: string) => {
    for (const entry of readdirSync(at, { withFileTypes: true })) {
      const full = path.join(at, entry.name);
      if (entry.isDirectory()) walk(full);
      else {
        const stat = statSync(full);
        files[path.relative(dir, full)] = `${stat.size}:${stat.mtimeMs}`;
      }
    }
  };
  walk(dir);
  return files;
}

/** A support operator's token, made on the first service that asks (the database outlives restarts). */
let support: Promise<string> | undefined;
const userExists = async (base: string, email: string) => {
  support ??= operatorKitFor(base, ADMIN).tokenFor(['support']);
  const res = await fetch(`${base}/api/admin/user?email=${encodeURIComponent(email)}`, {
    headers: { authorization: `Bearer ${await support}` },
  });
  return res.status === 200;
};

describe.runIf(runs)('one service process per DATA_DIR (embedded database)', () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'soundid-one-process-'));
  const env = (extra: Record<string, string> = {}) => ({
    DATA_DIR: dataDir,
    ADMIN_TOKEN: ADMIN,
    SESSION_SECRET,
    // No job workers (ADR 0051): their polling writes to the directory now and then, and the
    // test proves that a refused start writes nothing there.
    JOB_WORKERS: 'false',
    ...extra,
  });
  const lockFile = path.join(dataDir, LOCK_FILE_NAME);
  const services: ServiceProcess[] = [];
  afterAll(async () => {
    for (const service of services) await service.kill();
  });

  it('refuses a second process, keeps the first serving, and loses nothing acknowledged to a SIGKILL', async () => {
    const port = await freePort();
    const first = await startService(undefined, env({ PORT: String(port) }));
    services.push(first);
    const owner = JSON.parse(readFileSync(lockFile, 'utf8'));
    expect(owner).toMatchObject({ pid: first.child.pid, port, dataDir });

    // `npm start` twice: the same port and directory. Refused at the port, before the directory
    // is locked or the database opened: not a file in DATA_DIR changes.
    const before = snapshot(dataDir);
    const twice = await startRefusedService(undefined, env({ PORT: String(port) }));
    expect(twice.code, twice.output).toBe(1);
    expect(twice.output).toContain(`127.0.0.1:${port} is already in use`);
    expect(twice.output).not.toMatch(/\n\s+at /);
    expect(snapshot(dataDir)).toEqual(before);

    // Sign-ups keep arriving at the first process while a second one starts on its directory.
    const acknowledged: string[] = [];
    let loading = true;
    let next = 0;
    const writer = async () => {
      while (loading) {
        const email = `acknowledged-${next++}@example.com`;
        try {
          const res = await postJson(`${first.url}/api/accounts/register`, { email, password: 'one process only 1' });
          if (res.ok) acknowledged.push(email);
          // Refused (a sign-up limit, say): no point in hammering; the load is the accepted ones.
          else await new Promise((resolve) => setTimeout(resolve, 50));
        } catch {
          // the process was killed under this request: not acknowledged
        }
      }
    };
    const writers = [writer(), writer()];

    // The same directory on another port: refused, naming the directory and its owner.
    const second = await startRefusedService(undefined, env());
    expect(second.code, second.output).toBe(1);
    expect(second.output).toContain(`the data directory ${dataDir} is in use by another My SoundID process`);
    expect(second.output).toContain(`pid ${first.child.pid} on this machine, port ${port}`);
    expect(second.output).not.toMatch(/\n\s+at /);
    expect(JSON.parse(readFileSync(lockFile, 'utf8'))).toEqual(owner);

    // The first keeps serving, reads and writes.
    while (acknowledged.length < 2) await new Promise((resolve) => setTimeout(resolve, 100));
    expect((await fetch(`${first.url}/api/ready`)).status).toBe(200);
    expect(await userExists(first.url, acknowledged[0] as string)).toBe(true);

    // SIGKILL with sign-ups in flight: no shutdown hook runs, the lock file stays behind.
    await first.kill();
    loading = false;
    await Promise.all(writers);
    expect(existsSync(lockFile)).toBe(true);

    // The next start takes the stale lock over (its process is gone), opens the directory, and
    // has every sign-up the first process acknowledged.
    const restarted = await startService(undefined, env());
    services.push(restarted);
    expect(JSON.parse(readFileSync(lockFile, 'utf8')).pid).toBe(restarted.child.pid);
    for (const email of acknowledged) expect(await userExists(restarted.url, email), email).toBe(true);

    // A graceful stop releases the directory.
    await restarted.stop();
    expect(existsSync(lockFile)).toBe(false);
  }, 300_000);
});
