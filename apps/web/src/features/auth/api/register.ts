import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

/** Faults are shown under the e-mail field, so the call is silent. */
export async function register(body: { email: string; password: string }): Promise<void> {
  await postAccountCall('register', { ...body, silent: true });
}

export function useRegister() {
  return useMutation({ mutationFn: register });
}
