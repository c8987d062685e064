import type { ProviderContext } from './types';

/** A failed check with the provider; the reason is for logs only and never reaches the client. */
export class ProviderCheckFailed extends Error {
  override readonly name = 'ProviderCheckFailed';
}

/** GETs a JSON object within the time limit; anything else (status, body, network) throws. */
export async function getJson(ctx: ProviderContext, url: URL): Promise<Record<string, unknown>> {
  const response = await ctx.fetch(url, {
    method: 'GET',
    headers: { accept: 'application/json' },
    redirect: 'error',
    signal: AbortSignal.timeout(ctx.timeoutMs),
  });
  if (!response.ok) {
    // Drain the body so the connection can be reused; its text is not trusted or kept.
    await response.body?.cancel().catch(() => {});
    throw new ProviderCheckFailed(`${url.pathname} answered ${response.status}`);
  }
  const body: unknown = await response.json();
  if (!isRecord(body)) throw new ProviderCheckFailed(`${url.pathname} did not answer a JSON object`);
  return body;
}

export const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/** Providers send `email_verified` as a boolean or as the string "true". */
export const isTrue = (value: unknown): boolean => value === true || value === 'true';

/** A non-empty string claim, or undefined. */
export const stringClaim = (value: unknown): string | undefined =>
  typeof value === 'string' && value.trim() !== '' ? value.trim() : undefined;
