import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';

/**
 * The embedded database belongs to one process (ADR 0027). PGlite takes no lock of its own: two
 * processes on one DATA_DIR each serve their own copy and ruin the directory between them. So
 * the service writes DATA_DIR/soundid.pid before it opens the database, as PostgreSQL writes
 * postmaster.pid, naming the process that holds the directory; a second process reads it and
 * refuses to start. A lock whose process is gone (SIGKILL, a crash, a reboot, a container
 * restarted with the same pid) is taken over.
 */
export const LOCK_FILE_NAME = 'soundid.pid';

/** What the lock file says about the process that holds the directory. */
export interface LockOwner {
  pid: number;
  host: string;
  /** Linux: the kernel's boot id; another id means the machine restarted since. */
  bootId?: string;
  /** Linux: the process's start in clock ticks after boot; another value means the pid was reused. */
  processStart?: string;
  startedAt: string;
  port: number;
  dataDir: string;
}

export class DataDirLocked extends Error {
  constructor(
    readonly dataDir: string,
    readonly lockFile: string,
    readonly owner: LockOwner,
    onThisMachine: boolean,
  ) {
    super(describeRefusal(dataDir, lockFile, owner, onThisMachine));
    this.name = 'DataDirLocked';
  }
}

export interface DataDirLock {
  file: string;
  owner: LockOwner;
  /** Removes the lock file if it is still this process's. Safe to call more than once. */
  release(): void;
}

/** Facts about a process, read from /proc where there is one (Linux). */
export interface ProcessFacts {
  hostname(): string;
  bootId(): string | undefined;
  processStart(pid: number): string | undefined;
  /** False only when no process has the pid (ESRCH); a process of another user counts as alive. */
  isAlive(pid: number): boolean;
}

const readProc = (file: string): string | undefined => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
};

export const systemProcessFacts: ProcessFacts = {
  hostname: () => hostname(),
  bootId: () => readProc('/proc/sys/kernel/random/boot_id')?.trim(),
  processStart: (pid) => {
    // Field 22 of /proc/<pid>/stat; the command name (field 2) may hold spaces, so count after ')'.
    const stat = readProc(`/proc/${pid}/stat`);
    return stat?.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  },
  isAlive: (pid) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch (error) {
      return (error as NodeJS.ErrnoException).code !== 'ESRCH';
    }
  },
};

/**
 * Takes DATA_DIR for this process or throws DataDirLocked naming the holder. The lock file is
 * written whole to a private name and linked into place: link() fails if the name exists, so
 * the file appears at once, complete, or not at all.
 */
export function acquireDataDirLock(
  dataDir: string,
  options: { port: number; facts?: ProcessFacts; pid?: number; now?: Date },
): DataDirLock {
  const facts = options.facts ?? systemProcessFacts;
  const pid = options.pid ?? process.pid;
  const dir = path.resolve(dataDir);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, LOCK_FILE_NAME);
  const owner: LockOwner = {
    pid,
    host: facts.hostname(),
    ...optional('bootId', facts.bootId()),
    ...optional('processStart', facts.processStart(pid)),
    startedAt: (options.now ?? new Date()).toISOString(),
    port: options.port,
    dataDir: dir,
  };
  const text = `${JSON.stringify(owner, null, 2)}\n`;

  for (let attempt = 0; attempt < 200; attempt++) {
    const draft = `${file}.${pid}-${randomBytes(6).toString('hex')}`;
    writeFileSync(draft, text, { mode: 0o600, flag: 'wx' });
    try {
      linkSync(draft, file);
      return { file, owner, release: () => releaseIfOurs(file, text) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    } finally {
      rmSync(draft, { force: true });
    }
    const found = readProc(file);
    if (found === undefined) continue; // released between our link and our read: try again
    const holder = parseOwner(found);
    if (holder && holds(holder, pid, facts)) throw new DataDirLocked(dir, file, holder, holder.host === owner.host);
    takeOver(file, found);
  }
  throw new Error(`Could not take ${file}: it keeps changing (several processes starting at once?)`);
}

function optional<K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, string>);
}

function parseOwner(text: string): LockOwner | undefined {
  try {
    const value = JSON.parse(text) as Partial<LockOwner>;
    return typeof value.pid === 'number' && typeof value.host === 'string' ? (value as LockOwner) : undefined;
  } catch {
    // Not ours, or cut short by a crash of the machine: a complete lock is never half written.
    return undefined;
  }
}

/** Whether the recorded process may still be running: when in doubt, it holds. */
function holds(holder: LockOwner, self: number, facts: ProcessFacts): boolean {
  // Another machine on a shared volume: nothing here can tell whether it still runs.
  if (holder.host !== facts.hostname()) return true;
  const bootId = facts.bootId();
  if (holder.bootId && bootId && holder.bootId !== bootId) return false;
  // Our own pid in an earlier life (a container restarted: the service is pid 1 again).
  if (holder.pid === self) return false;
  if (!facts.isAlive(holder.pid)) return false;
  const start = facts.processStart(holder.pid);
  if (holder.processStart && start && holder.processStart !== start) return false;
  return true;
}

/**
 * Removes a stale lock, under a take-over mutex (a directory beside it: mkdir() is atomic), so
 * that of several processes finding the same stale lock one removes it and each then races
 * for the name by link() as on a first start: one wins. Under the mutex the lock is read again
 * and removed only if it is still the stale one read before; nothing else replaces a lock
 * (link() never does, and only its owner releases it). A mutex older than a few seconds was
 * left by a process that died in the middle of this and is cleared.
 */
function takeOver(file: string, staleText: string): void {
  const mutex = `${file}.takeover`;
  try {
    mkdirSync(mutex, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    try {
      if (Date.now() - statSync(mutex).mtimeMs > STALE_MUTEX_MS) rmdirSync(mutex);
    } catch {
      // Gone meanwhile: its holder finished.
    }
    pause(TAKEOVER_RETRY_MS);
    return;
  }
  try {
    if (readProc(file) === staleText) rmSync(file, { force: true });
  } finally {
    rmdirSync(mutex);
  }
}

const STALE_MUTEX_MS = 10_000;
const TAKEOVER_RETRY_MS = 10;

/** Start-up waits a moment for another process's take-over (synchronous, as the lock is). */
function pause(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function releaseIfOurs(file: string, text: string): void {
  if (readProc(file) === text) rmSync(file, { force: true });
}

function describeRefusal(dataDir: string, lockFile: string, owner: LockOwner, onThisMachine: boolean): string {
  const where = onThisMachine ? 'on this machine' : `on host ${owner.host}`;
  const lines = [
    `My SoundID cannot start: the data directory ${dataDir} is in use by another My SoundID process.`,
    `  owner: pid ${owner.pid} ${where}, port ${owner.port}, started ${owner.startedAt}`,
    `  lock file: ${lockFile}`,
    'Stop that process first, or give this one another DATA_DIR (or a DATABASE_URL).',
  ];
  if (!onThisMachine) {
    lines.push(`If no process on ${owner.host} uses ${dataDir} any more, delete the lock file and start again.`);
  }
  return lines.join('\n');
}
