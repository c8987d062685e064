import type { SandboxCheckoutPayResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

export interface SandboxCard {
  cardNumber: string;
  expiry: string;
  cvc: string;
}

/** Declines and invalid cards are answered on the form itself: silent. */
export async function paySandboxCheckout(clientSecret: string, card: SandboxCard): Promise<SandboxCheckoutPayResult> {
  const { Result } = await call('SandboxCheckoutPay', {
    clientSecret,
    ...card,
    silent: true,
  });
  return Result;
}

export function usePaySandboxCheckout(clientSecret: string) {
  return useMutation({ mutationFn: (card: SandboxCard) => paySandboxCheckout(clientSecret, card) });
}
