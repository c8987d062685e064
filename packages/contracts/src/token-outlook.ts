import { countOf, formatCount, processingTimeText } from './tokens';

/**
 * What a customer's tokens look like ahead (ADR 0056): the lots that expire soon and how long the
 * balance lasts at the customer's own pace. The rules live here so that the status lines, the buy
 * page and the notices read them alike; the api computes them in features/tokens/outlook.ts.
 */

/** The pace behind the runway: the tokens spent over this many days before now, per day. */
export const TOKEN_RUNWAY_WINDOW_DAYS = 30;

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** A day as "3 Mar 2027" (UTC: the same on every screen and in every mail). */
export function formatExpiryDay(epochMs: number): string {
  const date = new Date(epochMs);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
}

/** The wording of the runway: days under one read "less than a day", else whole days, rounded. */
export function runwayText(days: number): string {
  const span = days < 1 ? 'less than a day' : `about ${countOf(Math.round(days), 'day')}`;
  return `At your pace over the last ${TOKEN_RUNWAY_WINDOW_DAYS} days, ${span}.`;
}

export const tokenOutlookText = {
  /** The buy page's token line: the balance once, without the status line's own label. */
  balance: (balance: number) =>
    `Your tokens: ${formatCount(balance)} (about ${processingTimeText(balance)} of processing)`,
  /** A lot that expires within TOKEN_EXPIRY_WARNING_DAYS. */
  expiresOn: (tokens: number, expiresAt: number) =>
    `${countOf(tokens, 'token')} expire${tokens === 1 ? 's' : ''} on ${formatExpiryDay(expiresAt)}`,
  expiringLabel: 'Tokens expiring soon',
} as const;
