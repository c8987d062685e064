import { postAccountCall } from '../../../lib/api-client';

export async function verifyEmailChange(token: string): Promise<void> {
  await postAccountCall('VerifyEmailChange', { token, silent: true });
}
