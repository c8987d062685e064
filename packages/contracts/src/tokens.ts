import { MIN_BILLED_SECONDS, TOKEN_VALIDITY_MONTHS, TOKENS_PER_SECOND } from './constants';

/**
 * Voice processing costs 10 tokens per second, minimum 7 seconds, then whole seconds
 * rounded up (licenses-devices-tokens §9).
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
