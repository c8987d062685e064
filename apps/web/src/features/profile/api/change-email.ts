import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

/** Sends a confirmation link to the new address; the e-mail changes once it is opened. */
export async function changeEmail(newEmail: string): Promise<void> {
  await postAccountCall('ChangeEmail', { newEmail });
}

export function useChangeEmail() {
  return useMutation({ mutationFn: changeEmail });
}
