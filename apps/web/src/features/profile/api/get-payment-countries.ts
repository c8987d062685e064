import type { Country } from '@soundid/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';

export async function getPaymentCountries(): Promise<Country[]> {
  const { Result } = await postAccountCall('GetPaymentCountries', {});
  return Result;
}

export const paymentCountriesQueryOptions = queryOptions({
  queryKey: ['payment-countries'],
  queryFn: getPaymentCountries,
  staleTime: Number.POSITIVE_INFINITY,
});

export function usePaymentCountries() {
  return useQuery(paymentCountriesQueryOptions);
}
