import { describe, expect, it } from 'vitest';
import { pollPaymentStatus, retryDelay } from './payment-status';

const status = (PaymentIntentStatus: string) => async () => ({
  PaymentIntentStatus,
  AnalyticsMetadata: { Value: 9.99 },
});

describe('pollPaymentStatus', () => {
  it('waits 3000 ms, then 2000 ms longer each time', () => {
    expect([0, 1, 2, 3, 4].map(retryDelay)).toEqual([3000, 5000, 7000, 9000, 11000]);
  });

  it('retries while none, up to 5 times, then gives unknown', async () => {
    const waits: number[] = [];
    let calls = 0;
    const outcome = await pollPaymentStatus(
      async () => {
        calls += 1;
        return { PaymentIntentStatus: 'none', AnalyticsMetadata: null };
      },
      async (ms) => {
        waits.push(ms);
      },
    );
    expect(outcome).toEqual({ status: 'unknown' });
    expect(calls).toBe(6);
    expect(waits).toEqual([3000, 5000, 7000, 9000, 11000]);
  });

  it('succeeds with the analytics metadata once the status says so', async () => {
    let calls = 0;
    const outcome = await pollPaymentStatus(
      async () => ({ PaymentIntentStatus: ++calls < 3 ? 'none' : 'succeeded', AnalyticsMetadata: { Value: 1 } }),
      async () => {},
    );
    expect(outcome).toEqual({ status: 'successful', analytics: { Value: 1 } });
    expect(calls).toBe(3);
  });

  it('any other status is a failure; a call error is unknown', async () => {
    expect(await pollPaymentStatus(status('requires_payment_method'), async () => {})).toEqual({ status: 'failed' });
    expect(
      await pollPaymentStatus(
        async () => Promise.reject(new Error('network')),
        async () => {},
      ),
    ).toEqual({ status: 'unknown' });
  });
});
