import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

export async function resendVerificationEmailForToken(token: string): Promise<void> {
  await postAccountCall('ResendVerificationEmailForToken', { token });
}

export function useResendVerificationEmailForToken() {
  return useMutation({ mutationFn: resendVerificationEmailForToken });
}
