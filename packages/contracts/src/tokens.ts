import { MIN_BILLED_SECONDS, TOKEN_VALIDITY_MONTHS, TOKENS_PER_SECOND } from './constants';

/**
 * Voice processing costs 10 tokens per second, minimum 7 seconds, then whole seconds
 * rounded up (docs/requirements.md §9).
 */
export function tokenCostForSeconds(seconds: number): number {
  const billed = Math.max(MIN_BILLED_SECONDS, Math.ceil(seconds));
  return billed * TOKENS_PER_SECOND;
}

/** Tokens must be used within 12 months of their purchase. */
export function tokenExpiry(purchasedAt: Date): Date {
  const expiry = new Date(purchasedAt);
  expiry.setUTCMonth(expiry.getUTCMonth() + TOKEN_VALIDITY_MONTHS);
  return expiry;
}

/** Whole seconds of processing a balance pays for. */
export function processingSecondsFor(tokens: number): number {
  return Math.floor(tokens / TOKENS_PER_SECOND);
}

/**
 * Made once, and only when first needed: toLocaleString builds a formatter on every call (the
 * licence list says this on every read), and the first Intl object a page makes loads the
 * locale's data, a task of its own on a slow phone (docs/benchmarks.md, Front end).
 */
let enUsNumber: Intl.NumberFormat | undefined;

/**
 * A count as en-US writes it (1,234,567). Whole numbers, all the texts here count, are grouped
 * directly: Intl's formatter cost as much as the rest of the licence list's texts together.
 */
export function formatCount(n: number): string {
  if (!Number.isSafeInteger(n)) {
    enUsNumber ??= new Intl.NumberFormat('en-US');
    return enUsNumber.format(n);
  }
  const grouped = String(Math.abs(n)).replace(/\B(?=(\d{3})+$)/g, ',');
  return n < 0 ? `-${grouped}` : grouped;
}

/** "1 token", "1,200 tokens": a count and its word, the plural with an s. */
export function countOf(n: number, word: string): string {
  return `${formatCount(n)} ${word}${n === 1 ? '' : 's'}`;
}

/** About how long a balance processes: seconds under two minutes, else whole minutes. */
export function processingTimeText(tokens: number): string {
  const seconds = processingSecondsFor(tokens);
  return seconds < 120 ? countOf(seconds, 'second') : countOf(Math.floor(seconds / 60), 'minute');
}

/**
 * The voice AI status texts the service sends (licence list LicenseStatus / Notifications and
 * GetProducts TokenStatus / StatusWarning), one wording for both screens.
 */
export const voiceAiStatusText = {
  perpetual: 'Perpetual mode: unlimited processing.',
  tokens: (balance: number) =>
    `Pay-as-you-go: ${countOf(balance, 'token')} (about ${processingTimeText(balance)} of processing).`,
  trial: (daysLeft: number) => `Free trial: ${countOf(daysLeft, 'day')} left.`,
  noLicence: 'No active license. Start the free trial, buy Perpetual mode or tokens.',
  noLicenceAfterTrial: 'No active license. Buy Perpetual mode or tokens to keep processing.',
  trialEnded: 'Your free trial has ended.',
  tokensExpiring: (tokens: number, daysLeft: number) =>
    `${countOf(tokens, 'token')} expire${tokens === 1 ? 's' : ''} in ${countOf(daysLeft, 'day')}.`,
  perpetualActive: 'Perpetual mode is active.',
  payAsYouGoActive: 'Pay-as-you-go is active: processing spends your tokens.',
  trialEndsIn: (productName: string, daysLeft: number) =>
    `Your free trial of ${productName} ends in ${countOf(daysLeft, 'day')}.`,
} as const;

/** The buy page's footnotes (docs/requirements.md §2, docs/requirements.md §9), from the constants that bill and expire tokens. */
export const tokenFootnotes = [
  `Voice processing costs ${TOKENS_PER_SECOND} tokens per second, with a minimum of ${MIN_BILLED_SECONDS} seconds, then one-second increments.`,
  `Tokens must be used within ${TOKEN_VALIDITY_MONTHS} months of purchase. The earliest purchased tokens are consumed first.`,
] as const;

/**
 * The purchase history's Type of a refunded purchase (ADR 0032): the lot's tokens that the
 * refund took back (what had been spent before it stays spent).
 */
export function refundedLotType(tokensWithdrawn: number): string {
  return `Refunded (${countOf(tokensWithdrawn, 'token')} withdrawn)`;
}

/**
 * The purchase history's Type of a lot that finance took tokens back from (AdminWithdrawTokens,
 * not a refund): its own Type, and the tokens withdrawn. A withdrawal is not processing, so the
 * usage history never lists it.
 */
export function withdrawnLotType(type: string, tokensWithdrawn: number): string {
  return `${type} (${countOf(tokensWithdrawn, 'token')} withdrawn)`;
}
