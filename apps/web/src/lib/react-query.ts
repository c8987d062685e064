import { QueryClient } from '@tanstack/react-query';

/**
 * Calls are not retried: a Fault is the service's answer, and repeating a write (register,
 * reset) would send a second mail. Data changes only through this app, so no refetch on focus.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 60_000 },
      mutations: { retry: false },
    },
  });
}
