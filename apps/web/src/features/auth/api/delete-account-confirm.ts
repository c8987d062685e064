import { postAccountCall } from '../../../lib/api-client';

export async function deleteAccountConfirm(token: string): Promise<void> {
  await postAccountCall('DeleteAccountConfirm', { token, silent: true });
}
