import type { PagedResult, PurchaseHistoryEntry, UsageHistoryEntry } from '@soundid/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

export type HistoryTab = 'purchase' | 'usage';

export async function getPurchaseHistory(page: number): Promise<PagedResult<PurchaseHistoryEntry>> {
  const { Result } = await call('GetPurchaseHistory', { page });
  return Result;
}

export async function getActionHistory(page: number): Promise<PagedResult<UsageHistoryEntry>> {
  const { Result } = await call('GetActionHistory', { page });
  return Result;
}

export const purchaseHistoryQueryOptions = (page: number) =>
  queryOptions({ queryKey: ['history', 'purchase', page], queryFn: () => getPurchaseHistory(page) });

export const actionHistoryQueryOptions = (page: number) =>
  queryOptions({ queryKey: ['history', 'usage', page], queryFn: () => getActionHistory(page) });

/** Keeps the last page on screen while the next one loads, so the pager knows its count. */
export function usePurchaseHistory(page: number, enabled: boolean) {
  return useQuery({ ...purchaseHistoryQueryOptions(page), enabled, placeholderData: keepPreviousData });
}

export function useActionHistory(page: number, enabled: boolean) {
  return useQuery({ ...actionHistoryQueryOptions(page), enabled, placeholderData: keepPreviousData });
}
