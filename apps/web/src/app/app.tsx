import type { QueryClient } from '@tanstack/react-query';
import { type ComponentProps, lazy, type ReactNode, Suspense } from 'react';
import { BrowserRouter, unstable_HistoryRouter as HistoryRouter, StaticRouter } from 'react-router';
import { WaitingOverlay } from '../components/waiting-overlay';
import type { PublicConfig } from '../config/public-config';
import { PublicConfigContext } from '../config/public-config-context';
import { pendingSwitchStore } from '../features/auth/session-switch-store';
import { useStore } from '../lib/create-store';
import { QueryClientSlot } from '../lib/query-client-slot';
import { useSessionUser } from '../lib/session';
import { AppRoutes } from './app-layout';

const SessionSwitchDialog = lazy(() => import('../features/auth/components/session-switch-dialog'));
const StepUpHost = lazy(() => import('./step-up'));

/** A desktop app's portal link while another customer is signed in here: the question (ADR 0029). */
function SessionSwitchQuestion() {
  const pending = useStore(pendingSwitchStore);
  if (!pending) return null;
  return (
    <Suspense fallback={null}>
      <SessionSwitchDialog pending={pending} />
    </Suspense>
  );
}

/**
 * A call that needs a recent proof of presence asks for it in place (ADR 0040): the host that
 * answers the API client's step-up slot loads once someone is signed in (the /login budget,
 * ADR 0020).
 */
function StepUpQuestion() {
  return useSessionUser() ? (
    <Suspense fallback={null}>
      <StepUpHost />
    </Suspense>
  ) : null;
}

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
      <SessionSwitchQuestion />
      <StepUpQuestion />
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
