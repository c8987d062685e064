import { startRegistration } from '@simplewebauthn/browser';
import type { passkeyResults } from '@soundid/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { apiPost } from '../../../lib/api-client';

type Results = { [K in keyof typeof passkeyResults]: z.infer<(typeof passkeyResults)[K]> };
const call = async <K extends keyof Results>(name: K, body: Record<string, unknown> = {}) =>
  (await apiPost<Results[K]>(`/api/accounts/${name}`, body)).Result;
type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];

export const passkeysQueryOptions = queryOptions({
  queryKey: ['passkeys'],
  queryFn: async () => (await call('ListPasskeys')).Passkeys,
});

export function usePasskeys() {
  return useQuery(passkeysQueryOptions);
}

function usePasskeyChange<A>(change: (argument: A) => Promise<unknown>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: change,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions.queryKey }),
  });
}

/**
 * A new passkey (ADR 0039): the service's options, the browser's prompt to create it, then the
 * answer checked and stored. Its faults are shown by the panel (silent calls).
 */
export const useAddPasskey = () =>
  usePasskeyChange(async () => {
    const { Options } = await call('BeginPasskeyRegistration', { silent: true });
    const response = await startRegistration({ optionsJSON: Options as unknown as CreationOptions });
    return (await call('FinishPasskeyRegistration', { response, silent: true })).Passkey;
  });
export const useRenamePasskey = () =>
  usePasskeyChange(({ id, name }: { id: string; name: string }) => call('RenamePasskey', { id, name, silent: true }));
export const useRemovePasskey = () => usePasskeyChange((id: string) => call('RemovePasskey', { id, silent: true }));
