import { useState } from 'react';

/**
 * One call at a time from a form: whether it is under way, and what it threw (shown with
 * FaultMessage). `run` clears the last error first.
 */
export function useRun() {
  const [error, setError] = useState<unknown>();
  const [pending, setPending] = useState(false);
  const run = async (work: () => Promise<void>) => {
    setPending(true);
    setError(undefined);
    try {
      await work();
    } catch (caught) {
      setError(caught);
    } finally {
      setPending(false);
    }
  };
  return { run, error, setError, pending };
}
