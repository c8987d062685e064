import { useEffect, useRef } from 'react';

/**
 * Runs a one-shot action (a single-use mail link, a logout) once per mount. StrictMode runs
 * effects twice in development, and a second call would find the token already used.
 */
export function useRunOnce(action: () => void): void {
  const hasRun = useRef(false);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the action runs once by design.
  useEffect(() => {
    if (hasRun.current) return;
    hasRun.current = true;
    action();
  }, []);
}
