import type { secondFactorResults } from '@soundid/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiPost } from '../../../lib/api-client';

type Results = { [K in keyof typeof secondFactorResults]: z.infer<(typeof secondFactorResults)[K]> };
const call = async <K extends keyof Results>(name: K, body: Record<string, unknown> = {}) =>
  (await apiPost<Results[K]>(`/api/accounts/${name}`, body)).Result;

export const secondFactorsQueryOptions = queryOptions({
  queryKey: ['second-factors'],
  queryFn: () => call('GetSecondFactors'),
});

export function useSecondFactors() {
  return useQuery(secondFactorsQueryOptions);
}

/** Every change to the second factor refreshes its status on success. */
function useSecondFactorChange<A, K extends keyof Results>(name: K, body: (argument: A) => Record<string, unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (argument: A) => call(name, body(argument)),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: secondFactorsQueryOptions.queryKey }),
  });
}

/** A pending setup changes no status: nothing to refresh until it is confirmed. */
export const useBeginTotpSetup = () => useMutation({ mutationFn: () => call('BeginTotpSetup') });
export const useConfirmTotpSetup = () => useSecondFactorChange('ConfirmTotpSetup', (code: string) => ({ code }));
export const useDisableTotp = () => useSecondFactorChange('DisableTotp', (code: string) => ({ code }));
export const useRegenerateRecoveryCodes = () =>
  useSecondFactorChange('RegenerateRecoveryCodes', (code: string) => ({ code }));
