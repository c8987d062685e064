import { useSyncExternalStore } from 'react';

const subscribeNever = () => () => {};

/**
 * False on the service and while React takes over a screen the service sent (ADR 0024), whose
 * first render must be the server's; true otherwise. For what only the browser knows (history
 * state, storage), drawn right after.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribeNever,
    () => true,
    () => false,
  );
}
