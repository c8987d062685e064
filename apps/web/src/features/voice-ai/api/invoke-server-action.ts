import type { ActionResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { invokeActionUrl } from '../../../lib/api-client';

/** Invoke action (docs/requirements.md §7): a GET on the server action URL of a button, under /api/actions/. */
export async function invokeServerAction(url: string): Promise<ActionResult> {
  if (!url.startsWith('/api/actions/')) throw new Error(`Not a server action URL: ${url}`);
  const { Result } = await invokeActionUrl(url);
  return Result;
}

export function useInvokeServerAction() {
  return useMutation({ mutationFn: invokeServerAction });
}
