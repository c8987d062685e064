import {
  PAYMENT_STATUS_DELAY_STEP_MS,
  PAYMENT_STATUS_FIRST_DELAY_MS,
  PAYMENT_STATUS_MAX_RETRIES,
  type PaymentStatusResult,
} from '@soundid/contracts';

export type PaymentOutcome =
  | { status: 'successful'; analytics: PaymentStatusResult['AnalyticsMetadata'] }
  | { status: 'failed' }
  | { status: 'unknown' };

/** The wait before retry n (0-based): 3000 ms, then 2000 ms longer each time. */
export function retryDelay(retry: number): number {
  return PAYMENT_STATUS_FIRST_DELAY_MS + retry * PAYMENT_STATUS_DELAY_STEP_MS;
}

/**
 * Polls the payment status (docs/requirements.md §4, docs/requirements.md §9): 'none' means not yet — retry up to 5 times;
 * 'succeeded' is success; any other status is a failure; a call error, or still 'none'
 * after the retries, is unknown.
 */
export async function pollPaymentStatus(
  fetchStatus: () => Promise<PaymentStatusResult>,
  sleep: (ms: number) => Promise<void>,
  isCancelled: () => boolean = () => false,
): Promise<PaymentOutcome> {
  for (let attempt = 0; attempt <= PAYMENT_STATUS_MAX_RETRIES; attempt++) {
    let result: PaymentStatusResult;
    try {
      result = await fetchStatus();
    } catch {
      return { status: 'unknown' };
    }
    if (result.PaymentIntentStatus === 'succeeded')
      return { status: 'successful', analytics: result.AnalyticsMetadata };
    if (result.PaymentIntentStatus !== 'none') return { status: 'failed' };
    if (attempt === PAYMENT_STATUS_MAX_RETRIES || isCancelled()) break;
    await sleep(retryDelay(attempt));
    if (isCancelled()) break;
  }
  return { status: 'unknown' };
}
