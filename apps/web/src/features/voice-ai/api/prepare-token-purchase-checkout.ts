import type { KeyValue, PrepareTokenPurchaseCheckoutResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

export interface PrepareCheckoutRequest {
  priceId: string;
  metadata: KeyValue[];
  /** Only off the main host (docs/requirements.md §7). */
  returnUrl?: string;
}

/** Faults (bundle gone, checkout unavailable) reach the banner; the button is enabled again. */
export async function prepareTokenPurchaseCheckout(
  request: PrepareCheckoutRequest,
): Promise<PrepareTokenPurchaseCheckoutResult> {
  const { Result } = await call(
    'PrepareTokenPurchaseCheckout',
    {
      priceId: request.priceId,
      metadata: request.metadata,
      ...(request.returnUrl && { returnUrl: request.returnUrl }),
    },
    { paymentsEnv: true },
  );
  return Result;
}

export function usePrepareTokenPurchaseCheckout() {
  return useMutation({ mutationFn: prepareTokenPurchaseCheckout });
}
