import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

/** Asks for the deletion mail; the account goes only when its link is opened. */
export async function deleteAccount(): Promise<void> {
  await postAccountCall('DeleteAccount', { silent: true });
}

export function useDeleteAccount() {
  return useMutation({ mutationFn: deleteAccount });
}
