import { postAccountCall } from '../../../lib/api-client';

export async function logout(): Promise<void> {
  await postAccountCall('Logout', { silent: true });
}
