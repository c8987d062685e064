import type { AccountLicensesByProductLine } from '@soundid/contracts';
import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { call } from '../../../lib/api-call';

/**
 * The customer's licences by product line. Silent: a failure is shown on the page as
 * 'Failed to fetch product list' with its code, not in the global banner.
 */
export async function getAccountLicences(): Promise<AccountLicensesByProductLine> {
  const { Result } = await call('GetAccountLicensesByProductLine', {
    silent: true,
  });
  return Result;
}

export const accountLicencesQueryOptions = () =>
  // Always fresh on arrival: keys registered or devices activated elsewhere show at once.
  queryOptions({ queryKey: ['licences', 'by-product-line'], queryFn: getAccountLicences, staleTime: 0 });

export function useAccountLicences() {
  return useQuery(accountLicencesQueryOptions());
}

/** After any change (device, licence, upgrade, perpetual, pack) every section reloads. */
export function useReloadLicences(): () => Promise<void> {
  const queryClient = useQueryClient();
  return useCallback(
    () => queryClient.invalidateQueries({ queryKey: accountLicencesQueryOptions().queryKey }),
    [queryClient],
  );
}
