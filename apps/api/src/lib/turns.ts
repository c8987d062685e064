/**
 * Turns for work that must not hold the event loop against more urgent work: one turn per
 * event-loop iteration, in order of asking. Between two turns the loop goes once through its
 * timers and its I/O, so a request that arrived meanwhile (a signed-in call) gets its own work,
 * database statements included, queued before the next turn's.
 *
 * Used where the database runs on the event loop (PGlite): a sign-in's statements take turns, so
 * that a sign-in flood's writes come one per iteration instead of back to back (ADR 0028
 * addendum, 2026-11-27; docs/benchmarks.md, the flood).
 */
export class Turns {
  private last: Promise<void> = Promise.resolve();

  /** Resolves at this caller's turn: the iteration after the previous caller's. */
  take(): Promise<void> {
    const turn = this.last.then(() => new Promise<void>((resolve) => setImmediate(resolve)));
    this.last = turn;
    return turn;
  }
}

/** Where the database does not share the event loop there is nothing to wait for. */
export const noTurns: Pick<Turns, 'take'> = { take: () => Promise.resolve() };
