import type { PaymentStatusResult } from '@soundid/contracts';
import { call } from '../../../lib/api-call';

export async function getPaymentStatus(invoiceTag: string): Promise<PaymentStatusResult> {
  const { Result } = await call('GetPaymentStatus', { invoiceTag, silent: true }, { paymentsEnv: true });
  return Result;
}
