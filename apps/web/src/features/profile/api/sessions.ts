import type { ActiveSession } from '@soundid/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

export async function getSessions(): Promise<ActiveSession[]> {
  const { Result } = await postAccountCall('GetSessions', {});
  return Result;
}

export const sessionsQueryOptions = queryOptions({ queryKey: ['sessions'], queryFn: getSessions });

export function useSessions() {
  return useQuery(sessionsQueryOptions);
}

/** Signs out every other browser and app, confirmed by the password; this one stays signed in. */
export async function endOtherSessions(body: { password?: string }): Promise<void> {
  await postAccountCall('EndOtherSessions', body);
}

export function useEndOtherSessions() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: endOtherSessions,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: sessionsQueryOptions.queryKey }),
  });
}
