import type { SandboxCheckoutSessionResult } from '@soundid/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/** The sandbox session behind a client secret; a failure is the checkout screen's to show. */
export async function getSandboxCheckoutSession(clientSecret: string): Promise<SandboxCheckoutSessionResult> {
  const { Result } = await call('SandboxCheckoutSession', {
    clientSecret,
    silent: true,
  });
  return Result;
}

/** Read afresh each time the form opens: the session may have been paid or have expired meanwhile. */
export function useSandboxCheckoutSession(clientSecret: string) {
  return useQuery({
    queryKey: ['sandbox-checkout', clientSecret],
    queryFn: () => getSandboxCheckoutSession(clientSecret),
    staleTime: 0,
    gcTime: 0,
  });
}
