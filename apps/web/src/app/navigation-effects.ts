import { messages, QUERY_NOTIFICATION_AUTO_CLOSE_MS } from '@soundid/contracts';
import { useEffect } from 'react';
import { useLocation, useNavigationType } from 'react-router';
import { clearApiErrors } from '../lib/api-errors';
import { navigationMemoryStore, rememberNavigation } from '../lib/navigation-memory';
import { clearNotificationErrors, notificationsStore, notify } from '../lib/notifications';
import type { RouteKind } from './route-handle';

/**
 * What every navigation does (docs/requirements.md §2): errors go, and two queries take effect. Rendered before
 * the guard's redirect so that its effect runs first: the guard may use up what it remembers.
 *
 * Redirects (replace navigations: guards, <Navigate>, a screen sending the customer on after a
 * failure) keep the errors, so that the reason for the redirect stays readable where it lands.
 */
export function NavigationEffects({ kind }: { kind: RouteKind | undefined }): null {
  const location = useLocation();
  const navigationType = useNavigationType();
  useEffect(() => {
    if (navigationType !== 'REPLACE') {
      clearApiErrors();
      clearNotificationErrors();
    }
    const params = new URLSearchParams(location.search);
    if (params.has('redirectAfterLogin')) rememberNavigation({ redirectAfterLogin: true });
    else if (kind === 'launch') rememberNavigation({ redirectAfterLogin: false });
    // Arrived where the login with a target was to lead: that memory is used up.
    if (navigationMemoryStore.get().savedRedirectPath === location.pathname + location.search) {
      rememberNavigation({ savedRedirectPath: null });
    }
    if (params.has('notification') && notificationsStore.get().length === 0) {
      notify('success', messages.querySubmitted, { autoCloseTime: QUERY_NOTIFICATION_AUTO_CLOSE_MS });
    }
  }, [location, navigationType, kind]);
  return null;
}
