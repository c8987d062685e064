// A thread of the password-hashing pool (passwords.ts). Plain JavaScript: worker threads load it
// without the TypeScript loader, under the service, its CLIs and the test runner alike.
import { spawnSync } from 'node:child_process';
import { readlinkSync } from 'node:fs';
import { getPriority, setPriority } from 'node:os';
import { workerData } from 'node:worker_threads';
import { hashSync, verifySync } from '@node-rs/argon2';

/**
 * How much nicer the hashing threads are than the process (ADR 0023): below its event loop and
 * the database, whatever niceness the process was started at (`nice npm start`), within
 * Linux's range (19 at most).
 */
const HASHING_NICENESS_STEP = 10;
const NICEST = 19;

// On Linux a thread id names one thread to setpriority and to sched_setscheduler, and
// /proc/thread-self is this thread (which starts at the niceness of the thread that made it):
// hashing then yields the cores to the event loop whenever it has work. Elsewhere it stays as is.
try {
  const tid = Number(readlinkSync('/proc/thread-self').split('/').pop());
  if (Number.isInteger(tid)) {
    setPriority(tid, Math.min(NICEST, getPriority(tid) + HASHING_NICENESS_STEP));
    // SCHED_IDLE (ADR 0023 addendum, 2026-11-27): a thread that wakes takes the core from a hash
    // at once, and the scheduler counts a core that only hashes as free when it places the event
    // loop or the database. Node has no call for it; util-linux's chrt (in every Debian image) makes
    // it. Without chrt, or where refused, the niceness above stays the only step down.
    if (workerData?.priority === 'idle') {
      const chrt = spawnSync('chrt', ['--idle', '--pid', '0', String(tid)], { stdio: 'ignore', timeout: 5_000 });
      if (chrt.error || chrt.status !== 0) {
        const why = chrt.error ? chrt.error.message : `chrt exited ${chrt.status}`;
        // The service's logger does not reach worker threads; their stderr is the process's.
        console.error(`a hashing thread stays niced, not under SCHED_IDLE (HASHING_PRIORITY=idle): ${why}`);
      }
    }
  }
} catch {
  // no /proc (not Linux) or not permitted: hash at normal priority
}

/** @param {{ op: 'hash', password: string, options: object } | { op: 'verify', hash: string, password: string }} task */
export default function run(task) {
  if (task.op === 'hash') return hashSync(task.password, task.options);
  try {
    return verifySync(task.hash, task.password);
  } catch {
    return false;
  }
}
