import { useMutation } from '@tanstack/react-query';
import { apiPost } from '../../../lib/api-client';

/** Claims the 60-day trial of the ADAM Audio campaign with a monitor's serial number. */
export async function claimAdamTrial(serial: string): Promise<void> {
  await apiPost('/api/accounts/Campaign/ClaimAdam60Day', { serial });
}

export function useClaimAdamTrial() {
  return useMutation({ mutationFn: claimAdamTrial });
}
