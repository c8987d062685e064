import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

export async function initiatePasswordReset(email: string): Promise<void> {
  await postAccountCall('InitiatePasswordReset', { email, silent: true });
}

export function useInitiatePasswordReset() {
  return useMutation({ mutationFn: initiatePasswordReset });
}
