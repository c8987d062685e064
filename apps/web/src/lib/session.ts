import type { Profile, User } from '@soundid/contracts';
import { createStore, useStore } from './create-store';

/**
 * Who is signed in: `undefined` while unknown (start-up), `null` when anonymous.
 * The session token itself lives in an HttpOnly cookie that script never reads.
 */
export type SessionUser = User | null | undefined;

export const sessionStore = createStore<SessionUser>(undefined);

export function useSessionUser(): SessionUser {
  return useStore(sessionStore);
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
