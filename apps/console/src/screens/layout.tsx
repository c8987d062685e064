import type { OperatorCallName } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { Navigate, NavLink, Outlet, useLocation, useNavigate } from 'react-router';
import { FaultMessage } from '../components/fault-message';
import { Screen } from '../components/screen';
import { ApiFault, post, SESSION_FAULT } from '../lib/api';
import { allows } from '../lib/roles';
import { OperatorProvider, type SignInState, signedInTab, useForgetSession, useMeQuery } from '../lib/session';

/** The console's screens, each shown to the roles whose calls it makes. */
const NAVIGATION: { to: string; label: string; call: OperatorCallName }[] = [
  { to: '/customers', label: 'Customers', call: 'AdminSearchCustomers' },
  { to: '/payments', label: 'Payments', call: 'AdminPaymentMismatches' },
  { to: '/audit', label: 'Audit', call: 'SearchAudit' },
  { to: '/operators', label: 'Operators', call: 'ListOperators' },
  { to: '/bulk', label: 'Keys and serials', call: 'AdminIssueKeys' },
  { to: '/releases', label: 'Releases', call: 'AdminReleases' },
  { to: '/account', label: 'My account', call: 'OperatorMe' },
];

/** Every screen but sign-in and the invitation: for a signed-in operator, with the navigation. */
export function SignedInLayout() {
  const me = useMeQuery();
  const location = useLocation();
  if (me.isPending) {
    return (
      <p className="loading" role="status">
        Loading…
      </p>
    );
  }
  if (me.error) {
    if (me.error instanceof ApiFault && me.error.is(SESSION_FAULT)) {
      const state: SignInState = {
        from: location,
        ...(signedInTab.was() ? { ended: `Your session has ended. ${me.error.message}` } : {}),
      };
      return <Navigate to="/sign-in" replace state={state} />;
    }
    return (
      <main className="narrow">
        <FaultMessage error={me.error} />
        <button type="button" className="primary" onClick={() => me.refetch()}>
          Try again
        </button>
      </main>
    );
  }
  const roles = me.data.Operator.Roles;
  return (
    <OperatorProvider me={me.data}>
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="top">
        <span className="brand">SoundID console</span>
        <nav aria-label="Console">
          <ul>
            {NAVIGATION.filter((item) => allows(roles, item.call)).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to}>{item.label}</NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <span className="who">
          {me.data.Operator.Name} <span className="roles">({roles.join(', ')})</span>
        </span>
        <SignOut />
      </header>
      <main id="main">
        <Outlet />
      </main>
    </OperatorProvider>
  );
}

function SignOut() {
  const navigate = useNavigate();
  const forget = useForgetSession();
  const signOut = useMutation({
    mutationFn: () => post('OperatorLogout', {}),
    onSettled: () => {
      forget();
      navigate('/sign-in', { replace: true, state: { notice: 'You are signed out.' } satisfies SignInState });
    },
  });
  return (
    <button type="button" className="secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
      Sign out
    </button>
  );
}

/** `/console/`: the first screen the operator's roles open. */
export function HomeRedirect() {
  const me = useMeQuery();
  const roles = me.data?.Operator.Roles ?? [];
  const first = NAVIGATION.find((item) => allows(roles, item.call));
  return <Navigate to={first?.to ?? '/account'} replace />;
}

export function NotFoundScreen() {
  return (
    <Screen title="Not found">
      <p>There is no such screen in the console.</p>
    </Screen>
  );
}
