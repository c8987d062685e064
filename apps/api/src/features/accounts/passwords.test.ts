import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, defaultHashingThreads, loadConfig } from '../../config';
import { Fault } from '../../lib/fault';
import {
  ARGON2_PARAMS,
  ARGON2_TEST_PARAMS,
  HASHES_PER_THREAD,
  type HashingBackend,
  hashPassword,
  MAX_WAITING_HASHES,
  needsRehash,
  PasswordHashing,
  sharedHashing,
  workerPool,
} from './passwords';

const hashing = sharedHashing(defaultHashingThreads());

/** A backend that counts what reaches it and holds every verification until opened. */
function gatedBackend() {
  let open: () => void = () => {};
  const gate = new Promise<void>((resolve) => (open = resolve));
  const counts = { verify: 0, hash: 0 };
  const backend: HashingBackend = {
    async hash(password) {
      counts.hash += 1;
      return `plain:${password}`;
    },
    async verify(passwordHash, password) {
      counts.verify += 1;
      await gate;
      return passwordHash === `plain:${password}`;
    },
  };
  return { backend, counts, open };
}

const busyFault = (error: unknown) => error instanceof Fault && error.faultName === 'ServiceBusy';

describe('passwords', () => {
  it('hashes with argon2id at OWASP minimum parameters and verifies', async () => {
    const stored = await hashing.hash('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(ARGON2_PARAMS).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await hashing.admit().verify(stored, 'correct horse battery')).toBe(true);
    expect(await hashing.admit().verify(stored, 'wrong')).toBe(false);
    expect(await hashing.admit().verify('not a hash', 'x')).toBe(false);
    expect(await hashing.admit().verify(await hashPassword('seeded'), 'seeded')).toBe(true);
    expect(needsRehash(stored)).toBe(false);
    expect(needsRehash(stored.replace('m=19456', 'm=4096'))).toBe(true);
  });

  it('hashes at argon2 minimum cost with PASSWORD_HASH_COST=test, and rehashes across the two costs', async () => {
    const cheap = sharedHashing(1, 'test');
    const stored = await cheap.hash('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=1024,t=1,p=1\$/);
    expect(ARGON2_TEST_PARAMS).toEqual({ memoryCost: 1024, timeCost: 1, parallelism: 1 });
    expect(await cheap.admit().verify(stored, 'correct horse battery')).toBe(true);
    expect(await cheap.admit().verify(await hashPassword('seeded', 'test'), 'seeded')).toBe(true);
    // Each pool keeps the hashes made at its own cost and replaces the others.
    expect(cheap.needsRehash(stored)).toBe(false);
    expect(hashing.needsRehash(stored)).toBe(true);
    expect(cheap.needsRehash(await hashing.hash('production cost'))).toBe(true);
  });

  it('refuses a flood past the bounded queue with ServiceBusy (503) before hashing it (ASVS 2.4.1)', async () => {
    // The same admission at argon2's cheapest cost: 65 production hashes on a niced thread took
    // over 30 s on a machine busy with other suites, and the cost is not what is under test.
    const pool = sharedHashing(defaultHashingThreads(), 'test');
    const stored = await pool.hash('flood password');
    const results = await Promise.allSettled(
      // Each admission is taken in order, synchronously; a refusal becomes a rejection.
      Array.from({ length: 150 }, async () => pool.admit().verify(stored, 'flood password')),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    const admitted = pool.threads * HASHES_PER_THREAD + MAX_WAITING_HASHES;
    expect(results.filter((r) => r.status === 'fulfilled' && r.value === true)).toHaveLength(admitted);
    expect(refused).toHaveLength(150 - admitted);
    for (const r of refused) {
      const reason = (r as PromiseRejectedResult).reason as Fault;
      expect(reason.faultName).toBe('ServiceBusy');
      expect(reason.status).toBe(503);
    }
  });

  it('answers a full queue at once, without hashing, and an unused turn frees its place (ASVS 2.4.1)', async () => {
    const { backend, counts, open } = gatedBackend();
    const gated = new PasswordHashing(backend, 1, 1);
    const first = gated.admit().verify('plain:a', 'a');
    const second = gated.admit().verify('plain:b', 'b');
    // One hashes, one waits: the third is refused synchronously, before anything reaches the backend.
    expect(() => gated.admit()).toThrowError(expect.objectContaining({ faultName: 'ServiceBusy' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(counts.verify).toBe(1);
    expect(gated.load).toEqual({ running: 1, waiting: 1 });
    open();
    expect(await Promise.all([first, second])).toEqual([true, true]);
    expect(counts.verify).toBe(2);

    const taken = [gated.admit(), gated.admit()];
    expect(busyFault(catchOf(() => gated.admit()))).toBe(true);
    for (const turn of taken) turn.release();
    expect(gated.load).toEqual({ running: 0, waiting: 0 });
    expect(await gated.admit().verify('plain:c', 'c')).toBe(true);
    expect(counts.verify).toBe(3);
  });

  it('hands each thread its next hash while it runs one, so no thread waits for the event loop (ADR 0023)', async () => {
    const pool = workerPool(1, ARGON2_TEST_PARAMS);
    try {
      const stored = await pool.hash('pipelined');
      const two = [pool.verify(stored, 'pipelined'), pool.verify(stored, 'wrong')];
      // Both are in the thread's own queue: none waits on the event loop for the first to end.
      expect(pool.undispatched?.()).toBe(0);
      const third = pool.verify(stored, 'pipelined');
      expect(pool.undispatched?.()).toBe(1);
      expect(await Promise.all([...two, third])).toEqual([true, false, true]);
      expect(pool.undispatched?.()).toBe(0);
    } finally {
      await pool.close?.();
    }
  });

  it('lets the pool hold HASHES_PER_THREAD hashes per thread at once and no more (ADR 0023)', async () => {
    const { backend, counts, open } = gatedBackend();
    const gated = new PasswordHashing(backend, 1, 1, ARGON2_TEST_PARAMS, HASHES_PER_THREAD);
    const admitted = Array.from({ length: HASHES_PER_THREAD + 1 }, (_, i) =>
      gated.admit().verify(`plain:${i}`, `${i}`),
    );
    expect(() => gated.admit()).toThrowError(expect.objectContaining({ faultName: 'ServiceBusy' }));
    await new Promise((resolve) => setImmediate(resolve));
    expect(counts.verify).toBe(HASHES_PER_THREAD);
    expect(gated.load).toEqual({ running: HASHES_PER_THREAD, waiting: 1 });
    open();
    expect(await Promise.all(admitted)).toEqual(admitted.map(() => true));
  });

  it.runIf(existsSync('/proc/thread-self'))(
    'hashes on threads niced 10 below the process, however the process was started (ADR 0023)',
    async () => {
      await Promise.all(Array.from({ length: hashing.threads * 2 }, (_, i) => hashing.hash(`warm ${i}`)));
      const niceness = (tid: string) => {
        const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
      };
      const own = niceness(String(process.pid));
      const threads = readdirSync('/proc/self/task').map(niceness);
      expect(threads.filter((n) => n === Math.min(19, own + 10)).length).toBeGreaterThanOrEqual(hashing.threads);
    },
  );

  // A field of /proc/<pid>/task/<tid>/stat, counted from 1 as proc(5) counts them.
  const statField = (tid: string, field: number) => {
    const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[field - 3]);
  };
  const SCHED_IDLE = 5;
  const idleThreads = () => readdirSync('/proc/self/task').filter((tid) => statField(tid, 41) === SCHED_IDLE).length;

  // The worker finds chrt on PATH; so does this check.
  const hasChrt = spawnSync('chrt', ['--version'], { stdio: 'ignore' }).status === 0;

  it.runIf(existsSync('/proc/thread-self') && hasChrt)(
    'hashes under SCHED_IDLE unless HASHING_PRIORITY=nice: a thread that wakes takes the core from a hash at once (ADR 0023 addendum)',
    async () => {
      const before = idleThreads();
      const ownPolicy = statField(String(process.pid), 41);
      const idle = workerPool(2, ARGON2_TEST_PARAMS, 'idle');
      const nice = workerPool(2, ARGON2_TEST_PARAMS, 'nice');
      try {
        await Promise.all([idle, nice].flatMap((pool) => [pool.hash('a'), pool.hash('b'), pool.hash('c')]));
        expect(idleThreads() - before).toBe(2);
        // The process itself (its event loop) keeps the policy it was started with.
        expect(statField(String(process.pid), 41)).toBe(ownPolicy);
      } finally {
        await Promise.all([idle.close?.(), nice.close?.()]);
      }
    },
  );
});

describe('HASHING_PRIORITY (ADR 0023 addendum)', () => {
  const base = () => ({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soundid-hashing-')) });
  it('is idle unless set, and names a bad value', () => {
    expect(loadConfig(base()).hashingPriority).toBe('idle');
    expect(loadConfig({ ...base(), HASHING_PRIORITY: 'nice' }).hashingPriority).toBe('nice');
    expect(loadConfig({ ...base(), HASHING_PRIORITY: '' }).hashingPriority).toBe('idle');
    expect(() => loadConfig({ ...base(), HASHING_PRIORITY: 'realtime' })).toThrow(/HASHING_PRIORITY/);
  });
});

describe('HASHING_THREADS (ADR 0028)', () => {
  const base = () => ({ DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soundid-hashing-')) });
  it('leaves a core to the event loop unless set, and names a bad value', () => {
    expect(loadConfig(base()).hashingThreads).toBe(Math.max(1, availableParallelism() - 1));
    expect(loadConfig({ ...base(), HASHING_THREADS: '3' }).hashingThreads).toBe(3);
    for (const bad of ['0', '-1', 'two', '1.5']) {
      expect(() => loadConfig({ ...base(), HASHING_THREADS: bad })).toThrow(ConfigError);
      expect(() => loadConfig({ ...base(), HASHING_THREADS: bad })).toThrow(/HASHING_THREADS/);
    }
  });
});

function catchOf(run: () => unknown): unknown {
  try {
    run();
  } catch (error) {
    return error;
  }
  return undefined;
}
