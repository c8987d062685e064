import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ComponentProps } from 'react';
import { RouterProvider } from 'react-router';
import type { PublicConfig } from '../config/public-config';
import { PublicConfigContext } from '../config/public-config-context';

export function App({
  config,
  router,
  queryClient,
}: {
  config: PublicConfig;
  router: ComponentProps<typeof RouterProvider>['router'];
  queryClient: QueryClient;
}) {
  return (
    <PublicConfigContext value={config}>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
      </QueryClientProvider>
    </PublicConfigContext>
  );
}
