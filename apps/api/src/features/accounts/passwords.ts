import { type Algorithm, hash } from '@node-rs/argon2';
import { Piscina } from 'piscina';
import { type Admission, BoundedQueue } from '../../lib/bounded-queue';
import { Fault } from '../../lib/fault';

/** Algorithm.Argon2id (a const enum, which isolated modules cannot import by value). */
const ARGON2ID: Algorithm = 2;

export interface Argon2Params {
  readonly memoryCost: number;
  readonly timeCost: number;
  readonly parallelism: number;
}

/** Argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1). */
export const ARGON2_PARAMS: Argon2Params = { memoryCost: 19_456, timeCost: 2, parallelism: 1 };

/**
 * argon2's smallest cost (m = 8 × p KiB is its floor; 1 MiB here, t = 1): for test runs only,
 * where thousands of sign-ups would otherwise spend minutes hashing. `PASSWORD_HASH_COST=test`
 * selects it and production refuses that setting (config.ts, ADR 0035).
 */
export const ARGON2_TEST_PARAMS: Argon2Params = { memoryCost: 1024, timeCost: 1, parallelism: 1 };

/** `PASSWORD_HASH_COST`: the service's parameters, or the test runs' cheap ones. */
export type PasswordHashCost = 'production' | 'test';
export const argon2Params = (cost: PasswordHashCost): Argon2Params =>
  cost === 'test' ? ARGON2_TEST_PARAMS : ARGON2_PARAMS;

const hashOptions = (params: Argon2Params) => ({ algorithm: ARGON2ID, ...params });

/** Hashes that may wait for a hashing thread; past that a request is refused before any work. */
export const MAX_WAITING_HASHES = 64;

/**
 * Hashes handed to each hashing thread at once (ADR 0023 addendum, 2026-11-27): the one it runs
 * and the next, waiting in the thread's own message queue, so that a thread finishing a hash
 * starts the next at once instead of idling until the busy event loop hands it one. Still one
 * hash at a time per thread: a hash is pure CPU.
 */
export const HASHES_PER_THREAD = 2;

/** What does the hashing: the worker-thread pool in the service, an observable wrapper in tests. */
export interface HashingBackend {
  hash(password: string): Promise<string>;
  /** False for a wrong password and for a stored hash that is not argon2. */
  verify(passwordHash: string, password: string): Promise<boolean>;
  close?(): Promise<void>;
  /** Hashes the backend holds on the event loop, not yet handed to a thread (the worker pool's). */
  undispatched?(): number;
}

/**
 * How the hashing threads yield the cores to the event loop, the database and everything else
 * on the machine (hashing-worker.mjs, ADR 0023 and its addendum of 2026-11-27): `idle` under
 * Linux's SCHED_IDLE and niced, `nice` only niced 10 below the process.
 */
export type HashingPriority = 'idle' | 'nice';

/**
 * Threads below the event loop and the database (hashing-worker.mjs, ADR 0023): a hash
 * is pure CPU, so more at once than threads adds no throughput, and at a lower priority a
 * sign-in flood uses only the CPU that signed-in requests leave.
 */
export function workerPool(
  threads: number,
  params: Argon2Params = ARGON2_PARAMS,
  priority: HashingPriority = 'idle',
): HashingBackend {
  const options = hashOptions(params);
  const pool = new Piscina({
    filename: new URL('./hashing-worker.mjs', import.meta.url).href,
    minThreads: threads,
    maxThreads: threads,
    // Idle threads stay: starting one (and its argon2 module) on a sign-in would cost that sign-in.
    idleTimeout: Number.POSITIVE_INFINITY,
    concurrentTasksPerWorker: HASHES_PER_THREAD,
    workerData: { priority },
  });
  return {
    hash: (password) => pool.run({ op: 'hash', password, options }) as Promise<string>,
    verify: (passwordHash, password) => pool.run({ op: 'verify', hash: passwordHash, password }) as Promise<boolean>,
    close: () => pool.destroy(),
    undispatched: () => pool.queueSize,
  };
}

/** A place on the hashing threads, taken before the caller spends anything else on the request. */
export interface HashingTurn {
  hash(password: string): Promise<string>;
  verify(passwordHash: string, password: string): Promise<boolean>;
  /** Gives the place back unused (the request was refused before it hashed); idempotent. */
  release(): void;
}

/**
 * Admission to password hashing (ADR 0028): `threads` hash at once (each with `perThread` handed
 * to it, HASHES_PER_THREAD on the worker pool) and `maxWaiting` more wait;
 * past that `admit` refuses at once with `ServiceBusy` (503, Retry-After), so a flood costs
 * neither a hash nor a database write. A turn is one hash or verification.
 */
export class PasswordHashing {
  private readonly queue: BoundedQueue;
  private dummy: Promise<string> | undefined;

  constructor(
    private readonly backend: HashingBackend,
    readonly threads: number,
    maxWaiting = MAX_WAITING_HASHES,
    /** The parameters the backend hashes with: a stored hash made with others is replaced. */
    readonly params: Argon2Params = ARGON2_PARAMS,
    perThread = 1,
  ) {
    this.queue = new BoundedQueue(threads * perThread, maxWaiting);
  }

  /** Whether a stored hash was made with other parameters than this pool's (rehash at sign-in). */
  needsRehash(passwordHash: string): boolean {
    return needsRehash(passwordHash, this.params);
  }

  get load(): { running: number; waiting: number } {
    return this.queue.size;
  }

  /** A turn on the hashing threads, or the `ServiceBusy` fault at once when the queue is full. */
  admit(): HashingTurn {
    const admission = this.queue.admit();
    if (!admission) throw new Fault('ServiceBusy');
    return turnOf(admission, this.backend);
  }

  /** Admits and hashes (sign-up, reset, change, rehash). */
  hash(password: string): Promise<string> {
    return this.admit().hash(password);
  }

  /**
   * Verifying against this when the account does not exist keeps the answer time of an
   * unknown address close to that of a known one (no enumeration by timing). Made once, on
   * the backend directly: it is not a customer's request.
   */
  dummyHash(): Promise<string> {
    this.dummy ??= this.backend.hash('not-a-real-password-just-for-timing');
    return this.dummy;
  }

  async close(): Promise<void> {
    await this.backend.close?.();
  }
}

function turnOf(admission: Admission, backend: HashingBackend): HashingTurn {
  return {
    hash: (password) => admission.run(() => backend.hash(password)),
    verify: (passwordHash, password) => admission.run(() => backend.verify(passwordHash, password)),
    release: () => admission.release(),
  };
}

/** One pool per thread count, cost and priority in a process: test apps and the service share it. */
const shared = new Map<string, PasswordHashing>();
export function sharedHashing(
  threads: number,
  cost: PasswordHashCost = 'production',
  priority: HashingPriority = 'idle',
): PasswordHashing {
  const key = `${threads}/${cost}/${priority}`;
  let hashing = shared.get(key);
  if (!hashing) {
    const params = argon2Params(cost);
    const pool = workerPool(threads, params, priority);
    hashing = new PasswordHashing(pool, threads, MAX_WAITING_HASHES, params, HASHES_PER_THREAD);
    shared.set(key, hashing);
  }
  return hashing;
}

/**
 * A hash outside the service's request path (seeding a database, the demo customer): argon2 on
 * libuv's thread pool, without the service's admission.
 */
export function hashPassword(password: string, cost: PasswordHashCost = 'production'): Promise<string> {
  return hash(password, hashOptions(argon2Params(cost)));
}

/** A hash made with other parameters than `params` is replaced at the next successful sign-in. */
export function needsRehash(passwordHash: string, params: Argon2Params = ARGON2_PARAMS): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
  if (!match) return true;
  const [, m, t, p] = match.map(Number);
  return m !== params.memoryCost || t !== params.timeCost || p !== params.parallelism;
}
