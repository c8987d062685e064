import type { StoreSettings } from '@soundid/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

export async function getStoreSettings(): Promise<StoreSettings> {
  // The perpetual card says when the price cannot be shown: no banner.
  const { Result } = await call('GetStoreSettings', { silent: true });
  return Result;
}

/** Fetched once per visit (docs/requirements.md §3): the store does not change under a page. */
export const storeSettingsQueryOptions = queryOptions({
  queryKey: ['shopify', 'store-settings'],
  queryFn: getStoreSettings,
  staleTime: Number.POSITIVE_INFINITY,
});

export function useStoreSettings() {
  return useQuery(storeSettingsQueryOptions);
}
