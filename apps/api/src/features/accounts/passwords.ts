import { availableParallelism } from 'node:os';
import { type Algorithm, hash, verify } from '@node-rs/argon2';
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
 * Hashing runs on libuv's thread pool (4 threads by default). At most that many hash at once,
 * and never more than there are cores: a hash is pure CPU, so more at once adds no throughput
 * and only takes the cores from the event loop (signed-in requests wait behind a sign-in flood).
 * A bounded number wait; a flood past that is refused before any hashing is spent on it (ADR 0018).
 */
export const HASHING_THREADS = Math.min(Number(process.env.UV_THREADPOOL_SIZE ?? 4), availableParallelism());
export const MAX_WAITING_HASHES = 64;
const hashing = new BoundedQueue(HASHING_THREADS, MAX_WAITING_HASHES);

async function onHashingThread<T>(work: () => Promise<T>): Promise<T> {
  const done = await hashing.run(work);
  if (!done) throw new Fault('AttemptOverLimit');
  return done.value;
}

export function hashPassword(password: string): Promise<string> {
  return onHashingThread(() => hash(password, { algorithm: ARGON2ID, ...ARGON2_PARAMS }));
}

export async function verifyPassword(passwordHash: string, password: string): Promise<boolean> {
  return onHashingThread(async () => {
    try {
      return await verify(passwordHash, password);
    } catch {
      return false;
    }
  });
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
