import { TOKEN_ROUTES } from './constants';

/**
 * Action tokens travel in page paths and queries: keep them out of the service's logs and of
 * what the browser reports (error reports, the analytics data layer), and credentials a form
 * may have put in a query by mistake.
 */
const TOKEN_PATH = new RegExp(`^(/(?:${TOKEN_ROUTES.join('|')}))/[^/?#]+`);
const TOKEN_QUERY = /([?&](?:token|access_token|id_token|password|oldPassword|newPassword)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_PATH, '$1/[redacted]').replace(TOKEN_QUERY, '$1[redacted]');
}
