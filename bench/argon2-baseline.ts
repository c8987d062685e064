import { type Algorithm, hash, verify } from '@node-rs/argon2';
import { ARGON2_PARAMS } from '../apps/api/src/features/accounts/passwords';

/**
 * Raw argon2id verify throughput at the service's parameters, in a process like the
 * service's (same thread pool), with enough verifications in flight to fill it.
 * Prints verifies per second as JSON.
 */
const seconds = Number(process.argv[2] ?? 10);
const inFlight = Number(process.argv[3] ?? 16);
const stored = await hash('bench password 1', { algorithm: 2 as Algorithm, ...ARGON2_PARAMS });
let done = 0;
const deadline = Date.now() + seconds * 1000;
async function worker() {
  while (Date.now() < deadline) {
    await verify(stored, 'bench password 1');
    done += 1;
  }
}
const started = Date.now();
await Promise.all(Array.from({ length: inFlight }, worker));
console.log(JSON.stringify({ perSecond: done / ((Date.now() - started) / 1000) }));
