import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useLayoutEffect } from 'react';
import { UNSAFE_createMemoryHistory as createMemoryHistory, type Location, type To, useLocation } from 'react-router';
import { App } from '../app/app';
import { preloadScreens } from '../app/router';
import { FALLBACK_CONFIG, type PublicConfig } from '../config/public-config';
import { createQueryClient } from '../lib/react-query';
import { type SessionUser, sessionStore } from '../lib/session';

/** Navigations are transitions: the history moves at once, the screen once it is ready. */
function RenderedLocation({ into }: { into: { location: Location } }) {
  const location = useLocation();
  useLayoutEffect(() => {
    into.location = location;
  }, [into, location]);
  return null;
}

/** The whole app (guards, shell, lazy screens) at a path, with a given user state. */
export function renderApp(path: string, options: { user?: SessionUser; config?: Partial<PublicConfig> } = {}) {
  if ('user' in options) sessionStore.set(options.user);
  const history = createMemoryHistory({ initialEntries: [path], v5Compat: true });
  const rendered = { location: history.location };

  // What the specs read and drive: the location on screen, and navigations from outside the app
  // (like a link's: the screen's module first, then the move).
  const router = {
    get state(): { location: Location } {
      return { location: rendered.location };
    },
    async navigate(to: string, options: { replace?: boolean; state?: unknown } = {}) {
      await preloadScreens(new URL(to, 'http://localhost').pathname);
      if (options.replace) history.replace(to as To, options.state);
      else history.push(to as To, options.state);
    },
  };
  const user = userEvent.setup();
  const view = render(
    <App config={{ ...FALLBACK_CONFIG, ...options.config }} history={history} queryClient={createQueryClient()}>
      <RenderedLocation into={rendered} />
    </App>,
  );
  return { ...view, router, user };
}
