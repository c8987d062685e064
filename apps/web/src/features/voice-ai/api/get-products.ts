import type { VoiceAiProductList } from '@soundid/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

export async function getProducts(): Promise<VoiceAiProductList> {
  const { Result } = await call('GetProducts', {});
  return Result;
}

/** Always fresh: the balance and the trial offer change with every purchase and activation. */
export const productsQueryOptions = queryOptions({
  queryKey: ['voice-ai', 'products'],
  queryFn: getProducts,
  staleTime: 0,
});

export function useProducts() {
  return useQuery(productsQueryOptions);
}
