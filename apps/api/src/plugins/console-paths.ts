/** Where the API serves the back-office console (ADR 0047): its pages and its assets. */
export const CONSOLE_BASE = '/console';

/** Whether a request URL is the console's: `/console`, `/console/…`, `/console?…`. */
export function isConsolePath(url: string): boolean {
  return url === CONSOLE_BASE || url.startsWith(`${CONSOLE_BASE}/`) || url.startsWith(`${CONSOLE_BASE}?`);
}

/**
 * The invitation link's token (`/console/invitation/<token>`) out of a URL: it sets an operator's
 * password, so the service's log never holds it (ADR 0044), as redactUrl keeps the portal's out.
 */
export function redactConsoleUrl(url: string): string {
  return url.replace(/^(\/console\/invitation)\/[^/?#]+/, '$1/[redacted]');
}
