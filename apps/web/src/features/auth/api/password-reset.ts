import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

export async function passwordReset(body: { password: string; token: string }): Promise<void> {
  await postAccountCall('PasswordReset', body);
}

export function usePasswordReset() {
  return useMutation({ mutationFn: passwordReset });
}
