import { postAccountCall } from '../../../lib/api-client';

/** Verifies the address; the service answers with a session and sets its cookie. Faults are handled by the screen. */
export async function verifyEmail(token: string): Promise<void> {
  await postAccountCall('VerifyEmail', { token, silent: true });
}
