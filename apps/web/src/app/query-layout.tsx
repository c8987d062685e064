import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { use } from 'react';
import { Outlet } from 'react-router';
import { QueryClientSlot } from '../lib/query-client-slot';
import { createQueryClient } from '../lib/react-query';

let sharedClient: QueryClient | undefined;

function pageQueryClient(): QueryClient {
  sharedClient ??= createQueryClient();
  return sharedClient;
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
