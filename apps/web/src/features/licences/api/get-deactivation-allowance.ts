import type { DeactivationAllowance } from '@soundid/contracts';
import { useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/**
 * The deactivation allowance of a licence (docs/decisions/0030-deactivation-allowance-belongs-to-the-key.md),
 * read when the devices panel opens: not part of the licence list, which every visit reads.
 * Silent: without it the panel simply shows no allowance line.
 */
export async function getDeactivationAllowance(productName: string): Promise<DeactivationAllowance> {
  const { Result } = await call('GetDeactivationAllowance', { productName, silent: true });
  return Result;
}

export function useDeactivationAllowance(productName: string | undefined) {
  return useQuery({
    queryKey: ['licences', 'deactivation-allowance', productName],
    queryFn: () => getDeactivationAllowance(productName as string),
    enabled: productName !== undefined,
    staleTime: 0,
    retry: false,
  });
}
