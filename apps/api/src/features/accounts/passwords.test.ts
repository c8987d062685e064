import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { Fault } from '../../lib/fault';
import {
  ARGON2_PARAMS,
  HASHING_THREADS,
  hashPassword,
  MAX_WAITING_HASHES,
  needsRehash,
  verifyPassword,
} from './passwords';

describe('passwords', () => {
  it('hashes with argon2id at OWASP minimum parameters and verifies', async () => {
    const stored = await hashPassword('correct horse battery');
    expect(stored).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(ARGON2_PARAMS).toEqual({ memoryCost: 19_456, timeCost: 2, parallelism: 1 });
    expect(await verifyPassword(stored, 'correct horse battery')).toBe(true);
    expect(await verifyPassword(stored, 'wrong')).toBe(false);
    expect(await verifyPassword('not a hash', 'x')).toBe(false);
    expect(needsRehash(stored)).toBe(false);
    expect(needsRehash(stored.replace('m=19456', 'm=4096'))).toBe(true);
  });

  it('refuses a flood past the bounded queue before hashing it', async () => {
    const stored = await hashPassword('flood password');
    const results = await Promise.allSettled(
      Array.from({ length: 150 }, () => verifyPassword(stored, 'flood password')),
    );
    const refused = results.filter((r) => r.status === 'rejected');
    const admitted = HASHING_THREADS + MAX_WAITING_HASHES;
    expect(results.filter((r) => r.status === 'fulfilled' && r.value === true)).toHaveLength(admitted);
    expect(refused).toHaveLength(150 - admitted);
    for (const r of refused) {
      expect((r as PromiseRejectedResult).reason).toBeInstanceOf(Fault);
      expect(((r as PromiseRejectedResult).reason as Fault).status).toBe(429);
    }
  });

  it.runIf(existsSync('/proc/thread-self'))('hashes on threads niced below the event loop (ADR 0023)', async () => {
    await Promise.all(Array.from({ length: HASHING_THREADS * 2 }, (_, i) => hashPassword(`warm ${i}`)));
    const niceness = (tid: string) => {
      const stat = readFileSync(`/proc/self/task/${tid}/stat`, 'utf8');
      return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[16]);
    };
    const threads = readdirSync('/proc/self/task').map(niceness);
    expect(niceness(String(process.pid))).toBe(0);
    expect(threads.filter((n) => n === 10).length).toBeGreaterThanOrEqual(HASHING_THREADS);
  });
});
