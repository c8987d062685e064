import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { BrowserRouter, Route, Routes, useLocation, useNavigate } from 'react-router';
import { onSessionFault } from './lib/api';
import { type SignInState, signedInTab } from './lib/session';
import { AccountScreen } from './screens/account';
import { AuditScreen } from './screens/audit';
import { BulkScreen } from './screens/bulk';
import { CustomerScreen } from './screens/customer';
import { CustomersScreen } from './screens/customers';
import { InvitationScreen } from './screens/invitation';
import { HomeRedirect, NotFoundScreen, SignedInLayout } from './screens/layout';
import { OperatorsScreen } from './screens/operators';
import { PaymentsScreen } from './screens/payments';
import { ReleasesScreen } from './screens/releases';
import { SignInScreen } from './screens/sign-in';

/**
 * Calls are not retried (a Fault is the service's answer, and a change must not be made twice);
 * an operator's data changes under them, so a screen reads afresh when it is opened.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: { retry: false, refetchOnWindowFocus: false, staleTime: 0 },
      mutations: { retry: false },
    },
  });
}

/** A session fault on any call (idle 15 minutes, 12 hours, ended elsewhere) returns to sign-in. */
function SessionWatch({ client }: { client: QueryClient }) {
  const navigate = useNavigate();
  const location = useLocation();
  useEffect(
    () =>
      onSessionFault((fault) => {
        if (location.pathname === '/sign-in' || location.pathname.startsWith('/invitation/')) return;
        const state: SignInState = {
          from: location,
          ...(signedInTab.was() ? { ended: `Your session has ended. ${fault.message}` } : {}),
        };
        client.clear();
        navigate('/sign-in', { replace: true, state });
      }),
    [client, navigate, location],
  );
  return null;
}

function ConsoleRoutes() {
  return (
    <Routes>
      <Route path="/invitation/:token" element={<InvitationScreen />} />
      <Route path="/sign-in" element={<SignInScreen />} />
      <Route element={<SignedInLayout />}>
        <Route index element={<HomeRedirect />} />
        <Route path="customers" element={<CustomersScreen />} />
        <Route path="customer" element={<CustomerScreen />} />
        <Route path="payments" element={<PaymentsScreen />} />
        <Route path="audit" element={<AuditScreen />} />
        <Route path="account" element={<AccountScreen />} />
        <Route path="operators" element={<OperatorsScreen />} />
        <Route path="bulk" element={<BulkScreen />} />
        <Route path="releases" element={<ReleasesScreen />} />
        <Route path="*" element={<NotFoundScreen />} />
      </Route>
    </Routes>
  );
}

/** The console: served by the API under /console (docs/decisions/0047-console.md). */
export function App({ client: given }: { client?: QueryClient } = {}) {
  const [client] = useState(() => given ?? createQueryClient());
  return (
    <QueryClientProvider client={client}>
      <BrowserRouter basename="/console">
        <SessionWatch client={client} />
        <ConsoleRoutes />
      </BrowserRouter>
    </QueryClientProvider>
  );
}
