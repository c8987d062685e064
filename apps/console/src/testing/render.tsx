import { render } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { App, createQueryClient } from '../app';

/** The whole console at a path under /console, as the browser would open it. */
export function renderConsole(path: string) {
  window.history.pushState(null, '', `/console${path}`);
  const user = userEvent.setup();
  return { user, ...render(<App client={createQueryClient()} />) };
}
