import type { OfflineDeactivateResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** Uploads an .swdeactivate request's text; the answer is the signed receipt. Faults shown by the panel. */
export async function offlineDeactivate(file: string): Promise<OfflineDeactivateResult> {
  const { Result } = await call('OfflineDeactivate', { file, silent: true });
  return Result;
}

export function useOfflineDeactivate() {
  return useMutation({ mutationFn: offlineDeactivate });
}
