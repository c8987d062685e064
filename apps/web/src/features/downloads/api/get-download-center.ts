import type { DownloadCenter } from '@soundid/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/**
 * The installers of the products the customer holds or can try (ADR 0046). Silent: a failure is
 * shown on the page, not in the global banner.
 */
export async function getDownloadCenter(): Promise<DownloadCenter> {
  const { Result } = await call('GetDownloadCenter', { silent: true });
  return Result;
}

export const downloadCenterQueryOptions = () =>
  queryOptions({ queryKey: ['downloads', 'center'], queryFn: getDownloadCenter, staleTime: 60_000 });

export function useDownloadCenter() {
  return useQuery(downloadCenterQueryOptions());
}
