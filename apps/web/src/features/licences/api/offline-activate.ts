import type { OfflineActivateResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** Uploads an .swinfo request's text; the answer is the signed licence file. Faults shown by the panel. */
export async function offlineActivate(swinfo: string): Promise<OfflineActivateResult> {
  const { Result } = await call('OfflineActivate', { swinfo, silent: true });
  return Result;
}

export function useOfflineActivate() {
  return useMutation({ mutationFn: offlineActivate });
}
