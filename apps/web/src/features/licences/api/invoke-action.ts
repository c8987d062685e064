import type { ActionResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { invokeActionUrl } from '../../../lib/api-client';

const ACTIONS_PREFIX = '/api/actions/';

/** Only this service's action URLs are called: a URL from the list never sends the session elsewhere. */
export function isActionUrl(url: string): boolean {
  try {
    const parsed = new URL(url, window.location.origin);
    return parsed.origin === window.location.origin && parsed.pathname.startsWith(ACTIONS_PREFIX);
  } catch {
    return false;
  }
}

export interface InvokeActionInput {
  url: string;
  /** Silent: the screen shows the failure itself (deactivation limit, pack removal). */
  silent?: boolean;
}

/**
 * A GET on an action URL the service put in a button (deactivate, remove, start trial,
 * activate), through the shared client: same headers, cookie and envelope handling as posts.
 */
export async function invokeAction({ url, silent = false }: InvokeActionInput): Promise<ActionResult> {
  if (!isActionUrl(url)) throw new Error(`Not an action URL: ${url}`);
  const { Result } = await invokeActionUrl(url, { silent });
  return Result;
}

export function useInvokeAction() {
  return useMutation({ mutationFn: invokeAction });
}
