import type { LoginResult, User } from '@soundid/contracts';
import { postAccountCall } from '../../../lib/api-client';
import { setAnonymous, setSignedInUser } from '../../../lib/session';

/**
 * Asks the service who the session cookie belongs to, or exchanges a session token that came
 * in a link. Silent: not being signed in is an answer here, not an error to show.
 */
export async function loginByToken(authToken?: string): Promise<User> {
  const { Result } = await postAccountCall<LoginResult, 'LoginByToken'>(
    'LoginByToken',
    { getProfile: true, silent: true },
    authToken ? { authToken } : {},
  );
  return Result.User;
}

/** Settles the start-up user state: signed in, or anonymous on any failure. */
export async function loadSession(authToken?: string): Promise<void> {
  try {
    setSignedInUser(await loginByToken(authToken));
  } catch {
    setAnonymous();
  }
}
