import type { DownloadLink } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** A short-lived link to one installer, for this customer only: asked for at each click, never kept. */
export async function getDownloadLink(releaseFileId: string): Promise<DownloadLink> {
  const { Result } = await call('GetDownloadLink', { releaseFileId });
  return Result;
}

export function useDownloadLink() {
  return useMutation({ mutationFn: getDownloadLink });
}
