import { call } from '../../../lib/api-call';

/**
 * "This wasn't me" from a new-device mail (ADR 0041): the service ends every session, stops the
 * password, mails a reset link and freezes e-mail changes. Answers until when (epoch ms); faults
 * are handled by the screen.
 */
export async function reportSignIn(token: string): Promise<number> {
  const { Result } = await call('ReportSignIn', { token, silent: true });
  return Result.EmailChangesFrozenUntil;
}
