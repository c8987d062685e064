import { TOKEN_ROUTES } from '@soundid/contracts';
import { saveHeadersFromQuery } from '../lib/saved-headers';

/**
 * Takes what the start-up URL carries for the session layer out of it (docs/requirements.md §2): the `headers`
 * query is saved for later requests, and the query `token` is returned as a login code, except
 * on the four routes where `token` is an action token from a mail. The code is a desktop app's
 * one-time code, exchanged by ExchangeWebLoginCode, never used as a session token (ADR 0029).
 * Both leave the address bar so that they are neither bookmarked nor leaked through the Referer.
 */
export function takeStartupQuery(url: URL): { loginCode?: string; cleanedUrl?: string } {
  const params = url.searchParams;
  let changed = false;
  const headers = params.get('headers');
  if (headers !== null) {
    saveHeadersFromQuery(headers);
    params.delete('headers');
    changed = true;
  }
  const firstSegment = url.pathname.split('/').filter(Boolean)[0] ?? '';
  const isTokenRoute = (TOKEN_ROUTES as readonly string[]).includes(firstSegment);
  const token = isTokenRoute ? null : params.get('token');
  if (token !== null) {
    params.delete('token');
    changed = true;
  }
  const query = params.toString();
  return {
    ...(token ? { loginCode: token } : {}),
    ...(changed ? { cleanedUrl: `${url.pathname}${query ? `?${query}` : ''}${url.hash}` } : {}),
  };
}
