import { useLocation, useSearchParams } from 'react-router';
import { redirectRoutePath, useNavigationMemory } from '../lib/navigation-memory';
import { useSessionUser } from '../lib/session';
import { type GuardDecision, resolveGuardRedirect } from './guards';
import type { RouteAccess, RouteKind } from './route-handle';

/** Feeds the current location, user and remembered navigation to the guards. */
export function useGuardRedirect(
  access: RouteAccess,
  kind: RouteKind | undefined,
  target: string | undefined,
): GuardDecision | null {
  const location = useLocation();
  const [searchParams] = useSearchParams();
  const user = useSessionUser();
  const memory = useNavigationMemory();
  return resolveGuardRedirect({
    pathname: location.pathname,
    search: location.search,
    hash: location.hash,
    access,
    kind,
    user,
    redirectAfterLogin: memory.redirectAfterLogin || searchParams.has('redirectAfterLogin'),
    savedRedirectPath: memory.savedRedirectPath,
    loginTargetPath: kind === 'login' && target ? redirectRoutePath(target, searchParams.get('return_to')) : null,
  });
}
