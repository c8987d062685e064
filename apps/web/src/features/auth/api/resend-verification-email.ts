import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';
import type { EmailCredentials } from './login-by-email';

export async function resendVerificationEmail(credentials: EmailCredentials): Promise<void> {
  await postAccountCall('ResendVerificationEmail', credentials);
}

export function useResendVerificationEmail() {
  return useMutation({ mutationFn: resendVerificationEmail });
}
