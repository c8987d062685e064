import { describe, expect, it } from 'vitest';
import { BoundedQueue } from './bounded-queue';

const deferred = () => {
  let resolve: () => void = () => {};
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('BoundedQueue', () => {
  it('runs up to the concurrency, queues up to the bound and refuses the rest', async () => {
    const queue = new BoundedQueue(2, 1);
    const gates = [deferred(), deferred(), deferred()];
    let active = 0;
    let peak = 0;
    const task = (i: number) => async () => {
      active += 1;
      peak = Math.max(peak, active);
      await gates[i]?.promise;
      active -= 1;
      return i;
    };
    const a = queue.run(task(0));
    const b = queue.run(task(1));
    const c = queue.run(task(2));
    expect(await queue.run(task(3))).toBeUndefined();
    expect(queue.size).toEqual({ running: 2, waiting: 1 });
    for (const gate of gates) gate.resolve();
    expect(await Promise.all([a, b, c])).toEqual([{ value: 0 }, { value: 1 }, { value: 2 }]);
    expect(peak).toBe(2);
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
  });

  it('frees its slot when a task fails', async () => {
    const queue = new BoundedQueue(1, 0);
    await expect(queue.run(async () => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    expect(await queue.run(async () => 'ok')).toEqual({ value: 'ok' });
  });
});

describe('BoundedQueue admission', () => {
  it('holds a place from admission until it runs or is given back', async () => {
    const queue = new BoundedQueue(1, 1);
    const first = queue.admit();
    const second = queue.admit();
    expect(first).toBeDefined();
    expect(second).toBeDefined();
    // Two places taken, nothing running yet: the queue is full.
    expect(queue.admit()).toBeUndefined();
    expect(await queue.run(async () => 'refused')).toBeUndefined();
    second?.release();
    second?.release();
    expect(await first?.run(async () => 'ran')).toBe('ran');
    await expect(first?.run(async () => 'twice')).rejects.toThrow('an admission runs one task');
    expect(queue.size).toEqual({ running: 0, waiting: 0 });
    expect(await queue.run(async () => 'ok')).toEqual({ value: 'ok' });
  });
});
