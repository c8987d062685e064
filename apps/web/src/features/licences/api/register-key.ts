import type { RegisterKeyResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** KeyOwnedByAnotherUser is handled by the screen (a popup); other faults reach the banner. */
export async function registerKey(key: string): Promise<RegisterKeyResult> {
  const { Result } = await call('RegisterKey', { key });
  return Result;
}

export function useRegisterKey() {
  return useMutation({ mutationFn: registerKey });
}
