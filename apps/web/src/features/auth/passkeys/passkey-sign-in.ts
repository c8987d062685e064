import { browserSupportsWebAuthn, startAuthentication } from '@simplewebauthn/browser';
import { faultMessage } from '@soundid/contracts';
import { passkeyText } from '@soundid/contracts/ui-text';
import { call } from '../../../lib/api-call';
import type { CallInput } from '../../../lib/api-client';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { setSignedInUser } from '../../../lib/session';

/** The browser's answer as the call's body declares it; the service checks it in full. */
type AssertionAnswer = CallInput<'FinishPasskeyLogin'>['response'];
type RequestOptions = Parameters<typeof startAuthentication>[0]['optionsJSON'];

/**
 * A passkey sign-in (ADR 0039), loaded only when the customer asks for it so that /login stays in
 * its budget: the service's options, the browser's passkey prompt, then the sign-in (the guards
 * then take the customer on). With the challenge of a sign-in waiting for its second factor, the
 * passkey completes that sign-in. A refusal is shown as a notice; answers whether it signed in.
 */
export async function signInWithPasskey(signInChallenge?: string): Promise<boolean> {
  const refused = (message: string) => {
    notify('danger', message);
    return false;
  };
  if (!browserSupportsWebAuthn()) return refused(passkeyText.unsupported);
  try {
    const begun = await call('BeginPasskeyLogin', {
      ...(signInChallenge ? { signInChallenge } : {}),
      silent: true,
    });
    const response = await startAuthentication({ optionsJSON: begun.Result.Options as unknown as RequestOptions });
    const { Result } = await call('FinishPasskeyLogin', {
      challengeId: begun.Result.ChallengeId,
      response: response as unknown as AssertionAnswer,
      // As the password form: the customer stays signed in (docs/requirements.md §7).
      keepMeSignedIn: true,
      getProfile: true,
      silent: true,
    });
    setSignedInUser(Result.User);
    return true;
  } catch (error) {
    if (isApiError(error)) return refused(faultMessage(error.faultName, error.fault.ExceptionUserText));
    // The browser's prompt was closed, timed out, or had no passkey of this site.
    return refused(passkeyText.cancelled);
  }
}
