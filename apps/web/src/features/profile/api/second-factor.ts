import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';
import type { CallInput } from '../../../lib/api-client';

export const secondFactorsQueryOptions = queryOptions({
  queryKey: ['second-factors'],
  queryFn: async () => (await call('GetSecondFactors', {})).Result,
});

export function useSecondFactors() {
  return useQuery(secondFactorsQueryOptions);
}

type CodeCall = 'ConfirmTotpSetup' | 'DisableTotp' | 'RegenerateRecoveryCodes';

/** A change proven by a code; it refreshes the status on success. */
function useCodeCall<N extends CodeCall>(name: N) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (code: string) => (await call(name, { code } as CallInput<N>)).Result,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondFactorsQueryOptions.queryKey }),
  });
}

/** A pending setup changes no status: nothing to refresh until it is confirmed. */
export const useBeginTotpSetup = () =>
  useMutation({ mutationFn: async () => (await call('BeginTotpSetup', {})).Result });
export const useConfirmTotpSetup = () => useCodeCall('ConfirmTotpSetup');
export const useDisableTotp = () => useCodeCall('DisableTotp');
export const useRegenerateRecoveryCodes = () => useCodeCall('RegenerateRecoveryCodes');
