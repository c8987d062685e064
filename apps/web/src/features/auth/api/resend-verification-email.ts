import { postAccountCall } from '../../../lib/api-client';
import { useAction } from '../../../lib/use-action';
import type { EmailCredentials } from './login-by-email';

export async function resendVerificationEmail(credentials: EmailCredentials): Promise<void> {
  await postAccountCall('ResendVerificationEmail', credentials);
}

export function useResendVerificationEmail() {
  return useAction(resendVerificationEmail);
}
