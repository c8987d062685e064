import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

/** Also sets a first password: then oldPassword is empty (docs/requirements.md §7). The forms show the faults. */
export async function changePassword(body: { oldPassword: string; newPassword: string }): Promise<void> {
  await postAccountCall('ChangePassword', { ...body, silent: true });
}

export function useChangePassword() {
  return useMutation({ mutationFn: changePassword });
}
