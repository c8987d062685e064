import { useCallback, useRef, useState } from 'react';

type ActionState<R> =
  | { status: 'idle'; data?: undefined; error?: undefined }
  | { status: 'pending'; data?: undefined; error?: undefined }
  | { status: 'success'; data: R; error?: undefined }
  | { status: 'error'; data?: undefined; error: unknown };

export interface Action<A, R> {
  mutate(argument: A): void;
  /** As `mutate`, and also hands the result or the failure to the caller. */
  mutateAsync(argument: A): Promise<R>;
  reset(): void;
  isPending: boolean;
  isSuccess: boolean;
  error: unknown;
  data: R | undefined;
}

/**
 * One server call behind a button, for the screens that load without TanStack Query (/login,
 * ADR 0020): the subset of `useMutation` they use (mutate, mutateAsync, reset, isPending, isSuccess, error),
 * no retries. `onSuccess` runs even after the screen is gone, as a mutation's would; only the
 * latest call's result reaches the state, and none after `reset`.
 */
export function useAction<A, R>(run: (argument: A) => Promise<R>, onSuccess?: (result: R) => void): Action<A, R> {
  const [state, setState] = useState<ActionState<R>>({ status: 'idle' });
  const latest = useRef(0);
  const runRef = useRef({ run, onSuccess });
  runRef.current = { run, onSuccess };

  const mutateAsync = useCallback(async (argument: A) => {
    const call = ++latest.current;
    setState({ status: 'pending' });
    const { run: current, onSuccess: succeed } = runRef.current;
    try {
      const data = await current(argument);
      succeed?.(data);
      if (call === latest.current) setState({ status: 'success', data });
      return data;
    } catch (error) {
      if (call === latest.current) setState({ status: 'error', error });
      throw error;
    }
  }, []);
  const mutate = useCallback((argument: A) => void mutateAsync(argument).catch(() => undefined), [mutateAsync]);

  const reset = useCallback(() => {
    latest.current++;
    setState({ status: 'idle' });
  }, []);

  return {
    mutate,
    mutateAsync,
    reset,
    isPending: state.status === 'pending',
    isSuccess: state.status === 'success',
    error: state.error ?? null,
    data: state.data,
  };
}
