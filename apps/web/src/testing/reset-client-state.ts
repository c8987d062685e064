import { pendingSwitchStore } from '../features/auth/session-switch-store';
import { apiErrorsStore } from '../lib/api-errors';
import { navigationMemoryStore } from '../lib/navigation-memory';
import { clearAllNotifications } from '../lib/notifications';
import { sessionStore } from '../lib/session';

/**
 * Module-level stores and the page outlive a test, and the test files of a worker share both
 * (vitest.config.ts, frontEndProjects): each test starts from a fresh browser tab.
 */
export function resetClientState(): void {
  resetPage();
  sessionStore.set(undefined);
  apiErrorsStore.set([]);
  pendingSwitchStore.set(null);
  clearAllNotifications();
  navigationMemoryStore.set({ redirectAfterLogin: false, savedRedirectPath: null });
  delete window.dataLayer;
  localStorage.clear();
  sessionStorage.clear();
  for (const cookie of document.cookie.split(';')) {
    const name = cookie.split('=')[0]?.trim();
    if (name) setTestCookie(name, '', 'expires=Thu, 01 Jan 1970 00:00:00 GMT');
  }
}

/** The page as a new tab has it: no attributes on <html>, an empty head and body, no title. */
function resetPage(): void {
  const html = document.documentElement;
  for (const name of html.getAttributeNames()) html.removeAttribute(name);
  document.head.replaceChildren();
  document.body.replaceChildren();
  for (const name of document.body.getAttributeNames()) document.body.removeAttribute(name);
  document.title = '';
  window.history.replaceState(null, '', '/');
}

/** jsdom has no Cookie Store API; tests set the script-readable cookies the old way. */
export function setTestCookie(name: string, value: string, attributes = ''): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the only cookie API jsdom offers.
  document.cookie = `${name}=${value}; path=/${attributes ? `; ${attributes}` : ''}`;
}
