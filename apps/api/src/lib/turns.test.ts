import { describe, expect, it } from 'vitest';
import { Turns } from './turns';

/** Holds the event loop as a statement on the embedded database does. */
const busy = (ms: number) => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

describe('Turns', () => {
  it('gives one turn per event-loop iteration, in order of asking: other work runs between turns', async () => {
    const turns = new Turns();
    const seen: string[] = [];
    const taken = [1, 2, 3, 4].map((n) =>
      turns.take().then(() => {
        seen.push(`turn ${n}`);
        // Work that comes due while the first turn holds the loop (a signed-in call arriving).
        if (n === 1) setTimeout(() => seen.push('other work'), 0);
        busy(3);
      }),
    );
    await Promise.all(taken);
    expect(seen).toEqual(['turn 1', 'other work', 'turn 2', 'turn 3', 'turn 4']);
  });
});
