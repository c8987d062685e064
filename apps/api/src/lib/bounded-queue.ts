/** A place in a BoundedQueue, taken at once and used (or given back) later. */
export interface Admission {
  /** Waits for a turn and runs the task; an admission runs one task. */
  run<T>(task: () => Promise<T>): Promise<T>;
  /** Gives the place back without running anything; does nothing once run. */
  release(): void;
}

/**
 * Runs at most `concurrency` tasks at once and lets at most `maxWaiting` more wait; past
 * that, `run` refuses at once instead of queueing without bound (a flood gets fast refusals
 * instead of ever-growing latency). `admit` takes the place first, so that a caller can be
 * refused before it spends anything else on the request (ADR 0028).
 */
export class BoundedQueue {
  private running = 0;
  /** Places admitted but not yet running or waiting for a turn. */
  private held = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length + this.held };
  }

  /** A place in the queue, or undefined when it is full. */
  admit(): Admission | undefined {
    if (this.running + this.waiting.length + this.held >= this.concurrency + this.maxWaiting) return undefined;
    this.held += 1;
    let used = false;
    const take = () => {
      if (used) return false;
      used = true;
      this.held -= 1;
      return true;
    };
    return {
      run: <T>(task: () => Promise<T>) => {
        if (!take()) return Promise.reject(new Error('an admission runs one task'));
        return this.runAdmitted(task);
      },
      release: () => {
        take();
      },
    };
  }

  /** Returns undefined when the queue is full; the task then never runs. */
  async run<T>(task: () => Promise<T>): Promise<{ value: T } | undefined> {
    const admission = this.admit();
    if (!admission) return undefined;
    return { value: await admission.run(task) };
  }

  private async runAdmitted<T>(task: () => Promise<T>): Promise<T> {
    if (this.running >= this.concurrency) {
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
