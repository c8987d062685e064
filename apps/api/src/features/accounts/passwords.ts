import { availableParallelism } from 'node:os';
import type { Algorithm } from '@node-rs/argon2';
import { Piscina } from 'piscina';
import { BoundedQueue } from '../../lib/bounded-queue';
import { Fault } from '../../lib/fault';

/** Algorithm.Argon2id (a const enum, which isolated modules cannot import by value). */
const ARGON2ID: Algorithm = 2;

/**
 * Argon2id at OWASP's minimum (m = 19 MiB, t = 2, p = 1). @node-rs/argon2 hashes on the
 * libuv thread pool, so the event loop keeps serving other requests meanwhile.
 */
export const ARGON2_PARAMS = { memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;

/**
 * Hashing runs on a pool of worker threads, one per core, niced below the event loop and the
 * database (hashing-worker.mjs): a hash is pure CPU, so more at once adds no throughput, and at
 * a lower priority a sign-in flood uses only the CPU that signed-in requests leave (ADR 0023).
 * A bounded number wait; a flood past that is refused before any hashing is spent on it (ADR 0018).
 */
export const HASHING_THREADS = hashingThreads(process.env.HASHING_THREADS);

function hashingThreads(value: string | undefined): number {
  if (value === undefined || value === '') return availableParallelism();
  if (!/^[1-9]\d{0,2}$/.test(value)) throw new Error(`HASHING_THREADS must be a whole number from 1 (got "${value}")`);
  return Number(value);
}
export const MAX_WAITING_HASHES = 64;
const hashing = new BoundedQueue(HASHING_THREADS, MAX_WAITING_HASHES);

let pool: Piscina | undefined;
function hashingPool(): Piscina {
  pool ??= new Piscina({
    filename: new URL('./hashing-worker.mjs', import.meta.url).href,
    minThreads: HASHING_THREADS,
    maxThreads: HASHING_THREADS,
    // Idle threads stay: starting one (and its argon2 module) on a sign-in would cost that sign-in.
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  return pool;
}

type HashTask =
  | { op: 'hash'; password: string; options: typeof HASH_OPTIONS }
  | { op: 'verify'; hash: string; password: string };
const HASH_OPTIONS = { algorithm: ARGON2ID, ...ARGON2_PARAMS };

async function onHashingThread<T>(task: HashTask): Promise<T> {
  const done = await hashing.run(() => hashingPool().run(task) as Promise<T>);
  if (!done) throw new Fault('AttemptOverLimit');
  return done.value;
}

export function hashPassword(password: string): Promise<string> {
  return onHashingThread<string>({ op: 'hash', password, options: HASH_OPTIONS });
}

/** False for a wrong password and for a stored hash that is not argon2 (the worker catches it). */
export function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return onHashingThread<boolean>({ op: 'verify', hash: passwordHash, password });
}

/** A hash made with other parameters is replaced at the next successful sign-in. */
export function needsRehash(passwordHash: string): boolean {
  const match = /^\$argon2id\$v=19\$m=(\d+),t=(\d+),p=(\d+)\$/.exec(passwordHash);
  if (!match) return true;
  const [, m, t, p] = match.map(Number);
  return m !== ARGON2_PARAMS.memoryCost || t !== ARGON2_PARAMS.timeCost || p !== ARGON2_PARAMS.parallelism;
}

/**
 * Verifying against this when the account does not exist keeps the answer time of an
 * unknown address close to that of a known one (no enumeration by timing).
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword('not-a-real-password-just-for-timing');
  return dummyHash;
}
