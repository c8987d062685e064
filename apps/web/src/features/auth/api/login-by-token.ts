import type { User } from '@soundid/contracts';
import { postAccountCall } from '../../../lib/api-client';
import { setAnonymous, setSignedInUser } from '../../../lib/session';

/**
 * Asks the service who the session cookie belongs to. Silent: not being signed in is an answer
 * here, not an error to show. A token from a link is never sent as the session (ADR 0029).
 */
export async function loginByToken(): Promise<User> {
  const { Result } = await postAccountCall('LoginByToken', {
    getProfile: true,
    silent: true,
  });
  return Result.User;
}

/** Settles the start-up user state: signed in, or anonymous on any failure. */
export async function loadSession(): Promise<void> {
  try {
    setSignedInUser(await loginByToken());
  } catch {
    setAnonymous();
  }
}
