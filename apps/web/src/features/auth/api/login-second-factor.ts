import { call } from '../../../lib/api-call';
import { setSignedInUser } from '../../../lib/session';
import { useAction } from '../../../lib/use-action';

/** The second step of a sign-in that answered SecondFactorRequired (ADR 0037). */
export async function loginSecondFactor({ challenge, code }: { challenge: string; code: string }) {
  const { Result } = await call('LoginSecondFactor', {
    challenge,
    code,
    getProfile: true,
    silent: true,
  });
  return Result.User;
}

export function useLoginSecondFactor() {
  return useAction(loginSecondFactor, setSignedInUser);
}
