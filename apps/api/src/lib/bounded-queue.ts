/**
 * Runs at most `concurrency` tasks at once and lets at most `maxWaiting` more wait; past
 * that, `run` refuses at once instead of queueing without bound (a flood gets fast 429s
 * instead of ever-growing latency).
 */
export class BoundedQueue {
  private running = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    private readonly concurrency: number,
    private readonly maxWaiting: number,
  ) {}

  get size(): { running: number; waiting: number } {
    return { running: this.running, waiting: this.waiting.length };
  }

  /** Returns undefined when the queue is full; the task then never runs. */
  async run<T>(task: () => Promise<T>): Promise<{ value: T } | undefined> {
    if (this.running >= this.concurrency) {
      if (this.waiting.length >= this.maxWaiting) return undefined;
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    } else {
      this.running += 1;
    }
    try {
      return { value: await task() };
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running -= 1;
    }
  }
}
