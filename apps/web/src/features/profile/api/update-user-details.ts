import type { Address, Profile } from '@soundid/contracts';
import { useMutation } from '@tanstack/react-query';
import { postAccountCall } from '../../../lib/api-client';
import { updateProfile } from '../../../lib/session';

export async function updateUserDetails(address: Address): Promise<Profile> {
  const { Result } = await postAccountCall<{ User: { Profile: Profile } }, 'UpdateUserDetails'>(
    'UpdateUserDetails',
    address,
  );
  return Result.User.Profile;
}

export function useUpdateUserDetails() {
  return useMutation({ mutationFn: updateUserDetails, onSuccess: updateProfile });
}
