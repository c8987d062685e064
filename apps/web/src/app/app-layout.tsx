import type { ReactNode } from 'react';
import { matchRoutes, useLocation, useRoutes } from 'react-router';
import { ErrorBanner } from '../components/error-banner';
import { NotificationsRegion } from '../components/notifications-region';
import { GuardRedirect } from './guard-redirect';
import { NavigationEffects } from './navigation-effects';
import { type MergedHandle, mergeHandles } from './route-handle';
import { appRoutes } from './router';
import { Shell } from './shell/shell';
import { SupportChat } from './shell/support-chat';
import { useGuardRedirect } from './use-guard-redirect';
import { usePageTitle } from './use-page-title';
import { usePageTracking } from './use-page-tracking';

/** The matched screen inside the layout its routes' handles ask for. */
export function AppRoutes() {
  const location = useLocation();
  const screen = useRoutes(appRoutes, location);
  const matches = matchRoutes(appRoutes, location) ?? [];
  const route = mergeHandles(matches.map((match) => match.route.handle));
  return (
    <AppLayout route={route} target={matches.at(-1)?.params.target}>
      {screen}
    </AppLayout>
  );
}

/** Guards, page title, navigation effects, and the shell around the screen. */
function AppLayout({ route, target, children }: { route: MergedHandle; target?: string; children: ReactNode }) {
  const title = usePageTitle(route.titles);
  const decision = useGuardRedirect(route.access, route.kind, target);
  // A page the guards send the visitor away from is not a page view.
  usePageTracking(!route.untracked && !decision, title);
  const screen = (
    <>
      <NavigationEffects kind={route.kind} />
      {decision ? <GuardRedirect decision={decision} /> : children}
    </>
  );

  if (route.hideShell) {
    return (
      <>
        <NotificationsRegion />
        <main id="main">{screen}</main>
        {/* The widget draws outside React: it must be told to hide over the waiting overlay too. */}
        <SupportChat isVisible={false} />
      </>
    );
  }
  return (
    <Shell showSupportChat={!route.hideSupportChat}>
      <ErrorBanner />
      {screen}
    </Shell>
  );
}
