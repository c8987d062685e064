import { messages } from '@soundid/contracts';
import { text, titles } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { isApiError, isFault, showApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useRunOnce } from '../../../lib/use-run-once';
import { loadSession } from '../api/login-by-token';
import { useResendVerificationEmailForToken } from '../api/resend-verification-email-for-token';
import { verifyEmail } from '../api/verify-email';
import { useActionToken } from '../use-action-token';

export function VerifyEmailScreen() {
  const token = useActionToken();
  return token ? <VerifyEmail token={token} /> : <Navigate to="/" replace />;
}

/** Verifying, then signed in on products, or an expired link to resend (docs/requirements.md §4). */
function VerifyEmail({ token }: { token: string }) {
  const navigate = useNavigate();
  const [isExpired, setExpired] = useState(false);
  const resend = useResendVerificationEmailForToken();

  useRunOnce(() => {
    verifyEmail(token).then(
      async () => {
        // The service set the session cookie with its answer; ask who that is.
        await loadSession();
        notify('success', messages.emailVerified);
        navigate('/products', { replace: true });
      },
      (error: unknown) => {
        if (isFault(error, 'ActionTokenExpired')) {
          setExpired(true);
          return;
        }
        if (isFault(error, 'ActionTokenAlreadyUsed', 'EmailValidationTokenAlreadyUsed')) {
          notify('danger', messages.verificationLinkUsed);
        } else if (isApiError(error)) {
          showApiError(error.fault);
        }
        navigate('/', { replace: true });
      },
    );
  });

  if (!isExpired) {
    return (
      <Page heading={titles.verifyEmail}>
        <Spinner label={text.verifyingEmail} />
      </Page>
    );
  }
  return (
    <Page heading={messages.verificationLinkExpired}>
      {resend.isSuccess ? (
        <FormMessage tone="success">{messages.verificationResent}</FormMessage>
      ) : (
        <>
          <p>{text.verificationExpiredHint}</p>
          <Button isBusy={resend.isPending} disabled={resend.isPending} onClick={() => resend.mutate(token)}>
            {text.resendLink}
          </Button>
        </>
      )}
    </Page>
  );
}
