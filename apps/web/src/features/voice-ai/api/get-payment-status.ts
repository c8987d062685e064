import type { PaymentStatusResult } from '@soundid/contracts';
import { apiPost } from '../../../lib/api-client';

export async function getPaymentStatus(invoiceTag: string): Promise<PaymentStatusResult> {
  const { Result } = await apiPost<PaymentStatusResult>(
    '/api/voiceai/GetPaymentStatus',
    { invoiceTag, silent: true },
    { paymentsEnv: true },
  );
  return Result;
}
