import { act, renderHook } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { useAction } from './use-action';

function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('useAction', () => {
  it('is pending, then holds the result and runs onSuccess', async () => {
    const call = deferred<string>();
    const onSuccess = vi.fn();
    const { result } = renderHook(() => useAction((_: number) => call.promise, onSuccess));
    act(() => result.current.mutate(1));
    expect(result.current.isPending).toBe(true);
    await act(async () => call.resolve('done'));
    expect(result.current).toMatchObject({ isPending: false, isSuccess: true, data: 'done', error: null });
    expect(onSuccess).toHaveBeenCalledWith('done');
  });

  it('holds the failure; mutateAsync hands it to the caller too', async () => {
    const failure = new Error('no');
    const { result } = renderHook(() => useAction(async (_: number) => Promise.reject(failure)));
    await act(async () => {
      await expect(result.current.mutateAsync(1)).rejects.toBe(failure);
    });
    expect(result.current).toMatchObject({ isPending: false, isSuccess: false, error: failure });
  });

  it('keeps only the latest call, and nothing after reset; onSuccess runs for every success', async () => {
    const first = deferred<string>();
    const second = deferred<string>();
    const onSuccess = vi.fn();
    const calls = [first.promise, second.promise];
    const { result } = renderHook(() => useAction((_: number) => calls.shift() as Promise<string>, onSuccess));
    act(() => result.current.mutate(1));
    act(() => result.current.mutate(2));
    await act(async () => second.resolve('second'));
    await act(async () => first.resolve('first'));
    expect(result.current.data).toBe('second');
    expect(onSuccess).toHaveBeenCalledTimes(2);

    const third = deferred<string>();
    calls.push(third.promise);
    act(() => result.current.mutate(3));
    act(() => result.current.reset());
    await act(async () => third.resolve('third'));
    expect(result.current).toMatchObject({ isPending: false, isSuccess: false, data: undefined });
  });
});
