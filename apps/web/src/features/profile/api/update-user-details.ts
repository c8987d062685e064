import type { Address, Profile } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';
import { updateProfile } from '../../../lib/session';

export async function updateUserDetails(address: Address): Promise<Profile> {
  const { Result } = await postAccountCall('UpdateUserDetails', address);
  // The service always answers with the saved profile (it is null only when a sign-in asked for none).
  if (!Result.User.Profile) throw new Error('UpdateUserDetails answered without the profile');
  return Result.User.Profile;
}

export function useUpdateUserDetails() {
  return useMutation({ mutationFn: updateUserDetails, onSuccess: updateProfile });
}
