/** Where the API serves the back-office console (ADR 0047): its pages and its assets. */
export const CONSOLE_BASE = '/console';

/** Whether a request URL is the console's: `/console`, `/console/…`, `/console?…`. */
export function isConsolePath(url: string): boolean {
  return url === CONSOLE_BASE || url.startsWith(`${CONSOLE_BASE}/`) || url.startsWith(`${CONSOLE_BASE}?`);
}
