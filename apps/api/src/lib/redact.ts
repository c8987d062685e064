/** Action tokens travel in page paths and queries: keep them out of the logs. */
const TOKEN_PATH = /^(\/(?:reset-password|delete-account|verify-email|verify-email-change))\/[^/?#]+/;
const TOKEN_QUERY = /([?&](?:token|access_token|id_token)=)[^&#]*/gi;

export function redactUrl(url: string): string {
  return url.replace(TOKEN_PATH, '$1/[redacted]').replace(TOKEN_QUERY, '$1[redacted]');
}
