import type { UpgradeKeyResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

export interface UpgradeKeyInput {
  /** The licence's FormattedKey as listed (masked); the service resolves it among the caller's keys. */
  key: string;
  upgradeCode: string;
}

/** UpgradeCodeIncompatibility is handled by the panel (a popup); other faults also reach the banner. */
export async function upgradeKey({ key, upgradeCode }: UpgradeKeyInput): Promise<UpgradeKeyResult> {
  const { Result } = await call('UpgradeKey', {
    key,
    upgradeCode: upgradeCode.trim(),
  });
  return Result;
}

export function useUpgradeKey() {
  return useMutation({ mutationFn: upgradeKey });
}
