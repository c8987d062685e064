import type { Profile, User } from '@soundid/contracts';
import { createContext, useContext } from 'react';
import { createStore, useStore } from './create-store';

/**
 * Who is signed in: `undefined` while unknown (start-up), `null` when anonymous.
 * The session token itself lives in an HttpOnly cookie that script never reads.
 */
export type SessionUser = User | null | undefined;

export const sessionStore = createStore<SessionUser>(undefined);

/**
 * The user a page is rendered for on the service (server-entry.tsx, ADR 0024): there, renders of
 * different customers run at once, so the user cannot live in the module's store. Unset in the
 * browser, where the store is the one truth.
 */
export const RenderedUserContext = createContext<User | null | undefined>(undefined);

export function useSessionUser(): SessionUser {
  const rendered = useContext(RenderedUserContext);
  const stored = useStore(sessionStore);
  return rendered === undefined ? stored : rendered;
}

export function isSignedIn(): boolean {
  return Boolean(sessionStore.get());
}

export function setSignedInUser(user: User): void {
  sessionStore.set(user);
}

export function setAnonymous(): void {
  sessionStore.set(null);
}

export function updateSignedInUser(change: Partial<User>): void {
  sessionStore.set((current) => (current ? { ...current, ...change } : current));
}

export function updateProfile(profile: Profile): void {
  updateSignedInUser({ Profile: profile });
}
