import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  acquireDataDirLock,
  DataDirLocked,
  LOCK_FILE_NAME,
  type LockOwner,
  type ProcessFacts,
  systemProcessFacts,
} from './data-dir-lock';

/** The DATA_DIR lock (ADR 0027) on its own; the service processes are in test/faults/one-process-per-data-dir. */
const dataDir = () => mkdtempSync(path.join(tmpdir(), 'soundid-lock-'));
const lockOf = (dir: string) => path.join(dir, LOCK_FILE_NAME);
const read = (dir: string) => JSON.parse(readFileSync(lockOf(dir), 'utf8')) as LockOwner;
const write = (dir: string, owner: Partial<LockOwner> | string) =>
  writeFileSync(lockOf(dir), typeof owner === 'string' ? owner : JSON.stringify(owner));

/** A pid that no process has any more: a child that has already exited. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid as number;

const holder = (dir: string, owner: Partial<LockOwner>): Partial<LockOwner> => ({
  host: hostname(),
  bootId: systemProcessFacts.bootId(),
  startedAt: '2026-11-25T08:00:00.000Z',
  port: 3000,
  dataDir: dir,
  ...owner,
});

describe('DATA_DIR lock', () => {
  it('writes the owner (pid, host, start, port, directory), owner-only, and removes it on release', () => {
    const dir = dataDir();
    const lock = acquireDataDirLock(dir, { port: 3123, now: new Date('2026-11-25T09:00:00Z') });
    expect(read(dir)).toMatchObject({
      pid: process.pid,
      host: hostname(),
      port: 3123,
      startedAt: '2026-11-25T09:00:00.000Z',
      dataDir: dir,
    });
    expect(statSync(lockOf(dir)).mode & 0o777).toBe(0o600);
    // Nothing else is left in the directory (the draft it was linked from is gone).
    expect(readdirSync(dir)).toEqual([LOCK_FILE_NAME]);
    lock.release();
    lock.release();
    expect(existsSync(lockOf(dir))).toBe(false);
  });

  it('refuses while the owner runs, naming the directory and the owner, and leaves its lock alone', () => {
    const dir = dataDir();
    const owner = acquireDataDirLock(dir, { port: 3000 });
    const before = readFileSync(lockOf(dir), 'utf8');
    try {
      // As another process of this machine would: this one, the owner, runs.
      acquireDataDirLock(dir, { port: 3001, pid: process.pid + 1 });
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(DataDirLocked);
      const message = (error as Error).message;
      expect(message).toContain(`the data directory ${dir} is in use by another My SoundID process`);
      expect(message).toContain(`pid ${process.pid} on this machine, port 3000`);
      expect(message).toContain(`lock file: ${lockOf(dir)}`);
    }
    expect(readFileSync(lockOf(dir), 'utf8')).toBe(before);
    owner.release();
  });

  it('takes over a lock whose process is gone (stale pid)', () => {
    const dir = dataDir();
    write(dir, holder(dir, { pid: deadPid() }));
    const lock = acquireDataDirLock(dir, { port: 3001 });
    expect(read(dir)).toMatchObject({ pid: process.pid, port: 3001 });
    lock.release();
  });

  it('takes over a lock of an earlier boot, of its own pid (a restarted container), of a reused pid, or unreadable', () => {
    const live = process.ppid;
    const cases: Partial<LockOwner>[] = [
      { pid: live, bootId: 'an-earlier-boot' },
      { pid: process.pid },
      { pid: live, processStart: '1' },
    ];
    for (const owner of cases) {
      const dir = dataDir();
      write(dir, holder(dir, owner));
      acquireDataDirLock(dir, { port: 3002 }).release();
    }
    const dir = dataDir();
    write(dir, '{"pid": 12');
    acquireDataDirLock(dir, { port: 3002 }).release();
    // The same live process, its start time matching: held.
    const held = dataDir();
    write(held, holder(held, { pid: live, processStart: systemProcessFacts.processStart(live) }));
    expect(() => acquireDataDirLock(held, { port: 3002 })).toThrow(DataDirLocked);
  });

  it('refuses a lock of another host: nothing here can tell whether that process still runs', () => {
    const dir = dataDir();
    write(dir, holder(dir, { pid: deadPid(), host: 'replica-b' }));
    expect(() => acquireDataDirLock(dir, { port: 3003 })).toThrow(
      /pid \d+ on host replica-b[\s\S]*If no process on replica-b uses .* any more, delete the lock file/,
    );
  });

  it('asks the process facts, not the clock: a fake machine decides', () => {
    const dir = dataDir();
    const facts: ProcessFacts = {
      hostname: () => 'box',
      bootId: () => 'boot-1',
      processStart: (pid) => (pid === 4242 ? '777' : '100'),
      isAlive: (pid) => pid === 4242,
    };
    write(dir, { pid: 4242, host: 'box', bootId: 'boot-1', processStart: '777', port: 3000, dataDir: dir });
    expect(() => acquireDataDirLock(dir, { port: 3004, pid: 5000, facts })).toThrow(DataDirLocked);
    write(dir, { pid: 4242, host: 'box', bootId: 'boot-1', processStart: '776', port: 3000, dataDir: dir });
    expect(acquireDataDirLock(dir, { port: 3004, pid: 5000, facts }).owner).toMatchObject({ pid: 5000, host: 'box' });
  });

  it('gives a stale lock to exactly one of several processes starting at once', async () => {
    const dir = dataDir();
    write(dir, holder(dir, { pid: deadPid() }));
    const moduleUrl = new URL('./data-dir-lock.ts', import.meta.url).href;
    const at = Date.now() + 8000;
    // Each waits for the same instant, tries, reports, and holds what it got until it is killed.
    // Asking whether a pid lives takes a second here: every starter reads the stale lock, then
    // all of them try to take it over at about the same time (a plain delete-and-create would
    // let several win).
    const script = `
      const { acquireDataDirLock, systemProcessFacts } = await import(${JSON.stringify(moduleUrl)});
      const facts = { ...systemProcessFacts, isAlive: (pid) => {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 1000);
        return systemProcessFacts.isAlive(pid);
      } };
      while (Date.now() < ${at}) {}
      let outcome;
      try { acquireDataDirLock(${JSON.stringify(dir)}, { port: 1, facts }); outcome = 'won'; }
      catch (error) { outcome = error.name; }
      console.log(outcome);
      setTimeout(() => {}, 120000);`;
    const children = Array.from({ length: 8 }, () =>
      spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], {
        cwd: path.dirname(fileURLToPath(import.meta.url)),
        stdio: ['ignore', 'pipe', 'inherit'],
      }),
    );
    const outcomes = await Promise.all(
      children.map(
        (child) =>
          new Promise<string>((resolve) => {
            child.stdout.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
            child.once('exit', () => resolve('exited'));
          }),
      ),
    );
    for (const child of children) child.kill('SIGKILL');
    expect(outcomes.filter((outcome) => outcome === 'won')).toHaveLength(1);
    expect(outcomes.filter((outcome) => outcome === 'DataDirLocked')).toHaveLength(7);
  }, 60_000);
});
