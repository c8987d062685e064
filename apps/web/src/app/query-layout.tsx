import { type DehydratedState, hydrate, type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { use } from 'react';
import { Outlet } from 'react-router';
import { QueryClientSlot } from '../lib/query-client-slot';
import { createQueryClient } from '../lib/react-query';

let sharedClient: QueryClient | undefined;

function pageQueryClient(): QueryClient {
  sharedClient ??= createQueryClient();
  return sharedClient;
}

/** The page's client starts with the cache a screen was rendered from on the service (ADR 0024). */
export function startPageQueries(state: DehydratedState): void {
  hydrate(pageQueryClient(), state);
}

/**
 * TanStack Query for the screens below it: loaded with the first of them, so /login (which
 * needs none) does not carry it. One client for the page's lifetime unless the App was given one.
 */
export function QueryLayout() {
  const client = use(QueryClientSlot) ?? pageQueryClient();
  return (
    <QueryClientProvider client={client}>
      <Outlet />
    </QueryClientProvider>
  );
}
