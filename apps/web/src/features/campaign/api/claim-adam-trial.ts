import type { ClaimAdam60DayResult } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { call } from '../../../lib/api-call';

/**
 * Claims the 60-day trial of the ADAM Audio campaign with a monitor's serial number. Silent:
 * the form shows the claim faults (SerialNotFound, SerialAlreadyUsed) under the field.
 */
export async function claimAdamTrial(serial: string): Promise<ClaimAdam60DayResult> {
  const { Result } = await call('ClaimAdam60Day', { serial, silent: true });
  return Result;
}

export function useClaimAdamTrial() {
  return useMutation({ mutationFn: claimAdamTrial });
}
