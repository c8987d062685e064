import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter } from 'react-router';
import { App } from '../app/app';
import { appRoutes } from '../app/router';
import { FALLBACK_CONFIG, type PublicConfig } from '../config/public-config';
import { createQueryClient } from '../lib/react-query';
import { type SessionUser, sessionStore } from '../lib/session';

/** The whole app (guards, shell, lazy screens) at a path, with a given user state. */
export function renderApp(path: string, options: { user?: SessionUser; config?: Partial<PublicConfig> } = {}) {
  if ('user' in options) sessionStore.set(options.user);
  const router = createMemoryRouter(appRoutes, { initialEntries: [path] });
  const user = userEvent.setup();
  const view = render(
    <App config={{ ...FALLBACK_CONFIG, ...options.config }} router={router} queryClient={createQueryClient()} />,
  );
  return { ...view, router, user };
}
