import { useMutation, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** Everything held about the customer (ADR 0038); limited to a few an hour by the service. */
export function useExportMyData() {
  return useMutation({
    mutationFn: async () => (await call('ExportMyData', {})).Result,
  });
}

/**
 * What deleting the account would end, read when the deletion is asked for. Silent: the panel
 * simply shows no summary when it cannot be read, and the deletion goes on as before.
 */
export function useDeletionSummary(enabled: boolean) {
  return useQuery({
    queryKey: ['deletion-summary'],
    queryFn: async () => (await call('GetDeletionSummary', { silent: true })).Result,
    enabled,
    retry: false,
    staleTime: 0,
  });
}
