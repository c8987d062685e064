import { findUserByEmail } from '../src/features/accounts/users-repo';
import type { TestApp } from './kit/test-app';

export const PASSWORD = 'correct horse battery';

/** Signs up, opens the verification link and returns the session token. */
export async function signUpVerified(t: TestApp, email: string, password = PASSWORD): Promise<string> {
  const reg = await t.call('/api/accounts/register', { email, password });
  if (reg.statusCode !== 201) throw new Error(`register failed: ${reg.body}`);
  const token = await t.lastLinkToken(email);
  const verified = await t.call('/api/accounts/VerifyEmail', { token });
  if (verified.statusCode !== 200) throw new Error(`verify failed: ${verified.body}`);
  return verified.json().Token;
}

export function faultOf(res: { json(): unknown }): string | undefined {
  return (res.json() as { Fault?: { ExceptionName: string } }).Fault?.ExceptionName;
}

/**
 * A new session of an existing customer, issued directly (no password hashing): for suites
 * that need many fresh sessions because the calls they make may end the previous one.
 */
export async function freshSession(t: TestApp, email: string): Promise<string> {
  const user = await findUserByEmail(t.database.db, email);
  if (!user) throw new Error(`no account ${email}`);
  return (await t.services.sessions.issue(t.database.db, user.id, true)).token;
}
