import { createStore, useStore } from './create-store';

/**
 * What the guards remember across the sign-in detour (docs/requirements.md §2), per browser tab: it must
 * survive the reload after a session fault and the trip through signup or reset-password.
 */
export interface NavigationMemory {
  /** Set by the `redirectAfterLogin` query: open the desktop app once signed in. */
  redirectAfterLogin: boolean;
  /** Where to go after login, e.g. the redirect route of a login with a target. */
  savedRedirectPath: string | null;
}

const STORAGE_KEY = 'soundid.navigation';
const EMPTY: NavigationMemory = { redirectAfterLogin: false, savedRedirectPath: null };

function load(): NavigationMemory {
  try {
    const stored = sessionStorage.getItem(STORAGE_KEY);
    return stored ? { ...EMPTY, ...(JSON.parse(stored) as Partial<NavigationMemory>) } : EMPTY;
  } catch {
    return EMPTY;
  }
}

export const navigationMemoryStore = createStore<NavigationMemory>(load());
navigationMemoryStore.subscribe(() => {
  sessionStorage.setItem(STORAGE_KEY, JSON.stringify(navigationMemoryStore.get()));
});

export function useNavigationMemory(): NavigationMemory {
  return useStore(navigationMemoryStore);
}

export function rememberNavigation(change: Partial<NavigationMemory>): void {
  navigationMemoryStore.set((current) => {
    const next = { ...current, ...change };
    return next.redirectAfterLogin === current.redirectAfterLogin &&
      next.savedRedirectPath === current.savedRedirectPath
      ? current
      : next;
  });
}

/** The path of the redirect route that a login with a target leads to. */
export function redirectRoutePath(target: string, returnTo: string | null): string {
  const query = returnTo === null ? '' : `?${new URLSearchParams({ return_to: returnTo })}`;
  return `/${encodeURIComponent(target)}/redirect${query}`;
}
