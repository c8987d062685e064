import { pendingSwitchStore } from '../features/auth/session-switch-store';
import { apiErrorsStore } from '../lib/api-errors';
import { navigationMemoryStore } from '../lib/navigation-memory';
import { clearAllNotifications } from '../lib/notifications';
import { sessionStore } from '../lib/session';

/**
 * Module-level stores outlive a test, and the test files of a worker share them
 * (vitest.config.ts, frontEndProjects; the page itself is emptied by test/fresh-page.ts): each
 * test starts from a fresh browser tab, at the root URL.
 */
export function resetClientState(): void {
  window.history.replaceState(null, '', '/');
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

/** jsdom has no Cookie Store API; tests set the script-readable cookies the old way. */
export function setTestCookie(name: string, value: string, attributes = ''): void {
  // biome-ignore lint/suspicious/noDocumentCookie: the only cookie API jsdom offers.
  document.cookie = `${name}=${value}; path=/${attributes ? `; ${attributes}` : ''}`;
}
