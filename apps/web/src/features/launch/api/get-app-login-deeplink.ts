import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

/** A one-time link that signs the desktop app in as this customer. */
export async function getAppLoginDeeplink(): Promise<string> {
  const { Result } = await postAccountCall('GetAppLoginDeeplink', {});
  return Result.AppLoginDeeplink;
}

export function useGetAppLoginDeeplink() {
  return useMutation({ mutationFn: getAppLoginDeeplink });
}
