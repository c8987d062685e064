import type { QueryClient } from '@tanstack/react-query';
import { type ComponentProps, type ReactNode, Suspense } from 'react';
import { BrowserRouter, unstable_HistoryRouter as HistoryRouter, StaticRouter } from 'react-router';
import { WaitingOverlay } from '../components/waiting-overlay';
import type { PublicConfig } from '../config/public-config';
import { PublicConfigContext } from '../config/public-config-context';
import { SessionSwitchDialog } from '../features/auth/components/session-switch-dialog';
import { QueryClientSlot } from '../lib/query-client-slot';
import { AppRoutes } from './app-layout';

export function App({
  config,
  queryClient,
  history,
  location,
  children,
}: {
  config: PublicConfig;
  /** Default: one made when the first screen that needs it loads. */
  queryClient?: QueryClient;
  /** Default: the browser's history. Tests pass a memory history. */
  history?: ComponentProps<typeof HistoryRouter>['history'];
  /** Rendering on the server: the requested path and query (server-entry.tsx). */
  location?: string;
  /** Rendered inside the router beside the screens (tests watch the rendered location with it). */
  children?: ReactNode;
}) {
  // Until the first screen's module is there, the waiting overlay stands in for the whole page;
  // navigations later are transitions, which keep the current screen until the next one is ready.
  const routes = (
    <>
      <Suspense fallback={<WaitingOverlay />}>
        <AppRoutes />
      </Suspense>
      {/* A desktop app's portal link while another customer is signed in here (ADR 0029). */}
      <SessionSwitchDialog />
      {children}
    </>
  );
  return (
    <PublicConfigContext value={config}>
      <QueryClientSlot value={queryClient}>
        {location !== undefined ? (
          <StaticRouter location={location}>{routes}</StaticRouter>
        ) : history ? (
          <HistoryRouter history={history}>{routes}</HistoryRouter>
        ) : (
          <BrowserRouter>{routes}</BrowserRouter>
        )}
      </QueryClientSlot>
    </PublicConfigContext>
  );
}
