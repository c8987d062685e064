import { faultMessage, formatHistoryDate } from '@soundid/contracts';
import { signInReportText as t, text, titles } from '@soundid/contracts/ui-text';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, Navigate } from 'react-router';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { isApiError, isFault } from '../../../lib/api-errors';
import { setAnonymous } from '../../../lib/session';
import { useRunOnce } from '../../../lib/use-run-once';
import { reportSignIn } from '../api/report-sign-in';
import { useActionToken } from '../use-action-token';

export function ReportSignInScreen() {
  const token = useActionToken();
  return token ? <ReportSignIn token={token} /> : <Navigate to="/" replace />;
}

const LINK_NO_LONGER_VALID = ['ActionTokenNotFound', 'ActionTokenAlreadyUsed', 'ActionTokenExpired'] as const;

type Outcome = { frozenUntil: number } | { failure: string };

/**
 * The new-device mail's "This wasn't me" link (ADR 0041): reports the sign-in on load, as the
 * deletion link confirms on load, and says what was done. Every session ended, this browser's
 * too, so the signed-in state goes.
 */
function ReportSignIn({ token }: { token: string }) {
  const queryClient = useQueryClient();
  const [outcome, setOutcome] = useState<Outcome>();

  useRunOnce(() => {
    reportSignIn(token).then(
      (frozenUntil) => {
        setAnonymous();
        queryClient.clear();
        setOutcome({ frozenUntil });
      },
      (error: unknown) => {
        if (isFault(error, ...LINK_NO_LONGER_VALID)) setOutcome({ failure: t.linkInvalid });
        else if (isApiError(error))
          setOutcome({ failure: faultMessage(error.faultName, error.fault.ExceptionUserText) });
        else setOutcome({ failure: faultMessage('Unknown') });
      },
    );
  });

  return (
    <Page heading={titles.reportSignIn}>
      {!outcome ? (
        <Spinner label={t.working} />
      ) : 'failure' in outcome ? (
        <>
          <FormMessage tone="error">{outcome.failure}</FormMessage>
          <p>
            <Link to="/reset-password">{t.resetPassword}</Link>
          </p>
        </>
      ) : (
        <>
          <FormMessage tone="success">{t.doneIntro}</FormMessage>
          <ul>
            <li>{t.signedOut}</li>
            <li>{t.passwordStopped}</li>
            <li>{t.emailFrozen(formatHistoryDate(outcome.frozenUntil))}</li>
          </ul>
          <p>{t.checkFactors}</p>
          <p>
            <Link to="/login">{text.backToLogin}</Link>
          </p>
        </>
      )}
    </Page>
  );
}
