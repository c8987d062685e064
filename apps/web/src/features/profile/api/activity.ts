import type { AccountEvent, PagedResult } from '@soundid/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** My activity (docs/decisions/0055-my-activity.md): a page of the account's entries, newest first. */
export async function getMyActivity(page: number): Promise<PagedResult<AccountEvent>> {
  // Silent: the panel says itself that the activity could not be loaded.
  const { Result } = await call('GetMyActivity', { page, silent: true });
  return Result;
}

export const myActivityQueryOptions = (page: number) =>
  queryOptions({ queryKey: ['my-activity', page], queryFn: () => getMyActivity(page) });

/** Keeps the last page on screen while the next one loads, so the pager knows its count. */
export function useMyActivity(page: number) {
  return useQuery({ ...myActivityQueryOptions(page), placeholderData: keepPreviousData });
}

/**
 * "This wasn't me" on an entry: every session ends (this one too), a reset link is mailed, e-mail
 * changes and licence transfers freeze. Answers until when (epoch ms).
 */
export async function reportNotMe(eventId: string): Promise<number> {
  // Silent: the confirm dialog says why a report was refused.
  const { Result } = await call('ReportNotMe', { eventId, silent: true });
  return Result.FrozenUntil;
}
