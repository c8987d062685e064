import { Outlet, useMatches } from 'react-router';
import { ErrorBanner } from '../components/error-banner';
import { NotificationsRegion } from '../components/notifications-region';
import { GuardRedirect } from './guard-redirect';
import { NavigationEffects } from './navigation-effects';
import { mergeHandles } from './route-handle';
import { Shell } from './shell/shell';
import { SupportChat } from './shell/support-chat';
import { useGuardRedirect } from './use-guard-redirect';
import { usePageTitle } from './use-page-title';

/** The root route: guards, page title, navigation effects, and the shell around the screen. */
export function AppLayout() {
  const route = mergeHandles(useMatches());
  usePageTitle(route.titles);
  const decision = useGuardRedirect(route.access, route.kind);
  const screen = (
    <>
      <NavigationEffects kind={route.kind} />
      {decision ? <GuardRedirect decision={decision} /> : <Outlet />}
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
