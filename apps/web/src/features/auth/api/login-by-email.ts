import { postAccountCall } from '../../../lib/api-client';
import { setSignedInUser } from '../../../lib/session';
import { useAction } from '../../../lib/use-action';

export interface EmailCredentials {
  email: string;
  password: string;
}

/** The form always keeps the customer signed in (docs/requirements.md §7); faults are shown by the form. */
export async function loginByEmail({ email, password }: EmailCredentials) {
  const { Result } = await postAccountCall('LoginByEmail', {
    email,
    password,
    keepMeSignedIn: true,
    getProfile: true,
    silent: true,
  });
  return Result.User;
}

export function useLoginByEmail() {
  return useAction(loginByEmail, setSignedInUser);
}
