import type { KeyUpgradePathsResult } from '@soundid/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** The store upgrades that fit a licence (left side of the upgrade panel). */
export async function getKeyUpgradePaths(key: string): Promise<KeyUpgradePathsResult> {
  const { Result } = await call('KeyUpgradePaths', { key });
  return Result;
}

export const keyUpgradePathsQueryOptions = (key: string) =>
  queryOptions({ queryKey: ['licences', 'upgrade-paths', key], queryFn: () => getKeyUpgradePaths(key) });

export function useKeyUpgradePaths(key: string | undefined) {
  return useQuery({ ...keyUpgradePathsQueryOptions(key ?? ''), enabled: Boolean(key) });
}
