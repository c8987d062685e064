import { defaultHashingThreads } from '../src/config';
import {
  argon2Params,
  type HashingBackend,
  type PasswordHashCost,
  PasswordHashing,
  workerPool,
} from '../src/features/accounts/passwords';

export interface ObservableHashing {
  /** For `createTestApp(env, { hashing })`. */
  hashing: PasswordHashing;
  /** Verifications that reached the hashing threads so far (sign-in, re-authentication, password change). */
  readonly verifies: number;
  /** Verifications wait here until `open` (hashes of new passwords are not held). */
  hold(): void;
  /**
   * Only verifications of this password wait until `open` (or `open(password)`): one request
   * held while others go on. Several passwords may be held at once and let go one by one.
   */
  holdPassword(password: string): void;
  /** Lets every held verification go on, or only those of one password. */
  open(password?: string): void;
  close(): Promise<void>;
}

/**
 * The service's real argon2 pool, with every verification counted and, on request, held at
 * the door: a test sees how many password checks a burst cost, and can fire more requests
 * while the first ones are still being checked.
 */
export function observableHashing(
  options: { threads?: number; maxWaiting?: number; cost?: PasswordHashCost } = {},
): ObservableHashing {
  // The test apps' cost (PASSWORD_HASH_COST=test), so that a sign-in never rehashes.
  const params = argon2Params(options.cost ?? 'test');
  const pool = workerPool(defaultHashingThreads(), params);
  let verifies = 0;
  let gate: Promise<void> | undefined;
  let openGate: () => void = () => {};
  const heldPasswords = new Map<string, { gate: Promise<void>; open: () => void }>();
  const backend: HashingBackend = {
    hash: (password) => pool.hash(password),
    async verify(passwordHash, password) {
      verifies += 1;
      if (gate) await gate;
      const held = heldPasswords.get(password);
      if (held) await held.gate;
      return pool.verify(passwordHash, password);
    },
  };
  // Wide enough by default that admission never limits a test that is about the lockout.
  const hashing = new PasswordHashing(backend, options.threads ?? 128, options.maxWaiting ?? 128, params);
  return {
    hashing,
    get verifies() {
      return verifies;
    },
    hold() {
      gate ??= new Promise<void>((resolve) => (openGate = resolve));
    },
    holdPassword(password) {
      if (heldPasswords.has(password)) return;
      let open: () => void = () => {};
      const held = new Promise<void>((resolve) => (open = resolve));
      heldPasswords.set(password, { gate: held, open });
    },
    open(password) {
      for (const [held, { open }] of heldPasswords) {
        if (password !== undefined && held !== password) continue;
        open();
        heldPasswords.delete(held);
      }
      if (password !== undefined) return;
      openGate();
      gate = undefined;
    },
    close: async () => pool.close?.(),
  };
}

/** Waits (on real time, briefly) until the condition holds; fails after `ms`. */
export async function until(condition: () => boolean, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not reached in time');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
