import { startRegistration } from '@simplewebauthn/browser';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';
import type { CallInput } from '../../../lib/api-client';

/** The browser's answer as the call's body declares it; the service checks it in full. */
type RegistrationAnswer = CallInput<'FinishPasskeyRegistration'>['response'];
type CreationOptions = Parameters<typeof startRegistration>[0]['optionsJSON'];

export const passkeysQueryOptions = queryOptions({
  queryKey: ['passkeys'],
  queryFn: async () => (await call('ListPasskeys', {})).Result.Passkeys,
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
    const { Options } = (await call('BeginPasskeyRegistration', { silent: true })).Result;
    const response = await startRegistration({ optionsJSON: Options as unknown as CreationOptions });
    const answer = response as unknown as RegistrationAnswer;
    return (await call('FinishPasskeyRegistration', { response: answer, silent: true })).Result.Passkey;
  });
export const useRenamePasskey = () =>
  usePasskeyChange(({ id, name }: { id: string; name: string }) => call('RenamePasskey', { id, name, silent: true }));
export const useRemovePasskey = () => usePasskeyChange((id: string) => call('RemovePasskey', { id, silent: true }));
