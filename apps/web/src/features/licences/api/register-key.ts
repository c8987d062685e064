import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

export interface RegisterKeyResult {
  ProductCount: number;
  VoiceAi?: { AssetCount: number; ActivationUrl?: string };
}

/** KeyOwnedByAnotherUser is handled by the screen (a popup); other faults reach the banner. */
export async function registerKey(key: string): Promise<RegisterKeyResult> {
  const { Result } = await apiPost<RegisterKeyResult>('/api/accounts/RegisterKey', { key });
  return Result;
}

export function useRegisterKey() {
  return useMutation({ mutationFn: registerKey });
}
