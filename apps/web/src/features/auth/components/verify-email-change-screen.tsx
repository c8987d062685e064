import { faultMessage, messages } from '@soundid/contracts';
import { text, titles } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { Link, Navigate, useNavigate } from 'react-router';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { isApiError, isFault } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { isSignedIn } from '../../../lib/session';
import { useRunOnce } from '../../../lib/use-run-once';
import { loadSession } from '../api/login-by-token';
import { verifyEmailChange } from '../api/verify-email-change';
import { useActionToken } from '../use-action-token';

export function VerifyEmailChangeScreen() {
  const token = useActionToken();
  return token ? <VerifyEmailChange token={token} /> : <Navigate to="/" replace />;
}

const LINK_NO_LONGER_VALID = [
  'ActionTokenExpired',
  'ActionTokenAlreadyUsed',
  'ActionTokenNotFound',
  'EmailChangeValidationTokenAlreadyUsed',
  'EmailChangeValidationTokenNotFound',
] as const;

function VerifyEmailChange({ token }: { token: string }) {
  const navigate = useNavigate();
  const [failure, setFailure] = useState<string>();

  useRunOnce(() => {
    verifyEmailChange(token).then(
      async () => {
        // A signed-in customer sees the new address at once.
        if (isSignedIn()) await loadSession();
        notify('success', messages.emailChanged);
        navigate('/profile', { replace: true });
      },
      (error: unknown) => {
        if (isFault(error, ...LINK_NO_LONGER_VALID)) setFailure(messages.emailChangeLinkInvalid);
        else if (isApiError(error)) setFailure(faultMessage(error.faultName, error.fault.ExceptionUserText));
        else setFailure(faultMessage('Unknown'));
      },
    );
  });

  return (
    <Page heading={titles.verifyEmailChange}>
      {failure ? (
        <>
          <FormMessage tone="error">{failure}</FormMessage>
          <p>
            <Link to="/">{text.homeLink}</Link>
          </p>
        </>
      ) : (
        <Spinner label={text.confirmingEmailChange} />
      )}
    </Page>
  );
}
