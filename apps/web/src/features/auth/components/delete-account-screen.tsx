import { messages } from '@soundid/contracts';
import { text, titles } from '@soundid/contracts/ui-text';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Navigate, useNavigate } from 'react-router';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { isApiError, showApiError } from '../../../lib/api-errors';
import { setAnonymous } from '../../../lib/session';
import { useRunOnce } from '../../../lib/use-run-once';
import { deleteAccountConfirm } from '../api/delete-account-confirm';
import { useActionToken } from '../use-action-token';

export function DeleteAccountScreen() {
  const token = useActionToken();
  return token ? <DeleteAccount token={token} /> : <Navigate to="/" replace />;
}

/** Confirms the deletion on load; the service ends the session, so the user state goes too. */
function DeleteAccount({ token }: { token: string }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [isDeleted, setDeleted] = useState(false);

  useRunOnce(() => {
    deleteAccountConfirm(token).then(
      () => {
        setAnonymous();
        queryClient.clear();
        setDeleted(true);
      },
      (error: unknown) => {
        if (isApiError(error)) showApiError(error.fault);
        navigate('/', { replace: true });
      },
    );
  });

  return (
    <Page heading={isDeleted ? text.goodbyeHeading : titles.deleteAccount}>
      {isDeleted ? (
        <FormMessage tone="success">{messages.accountDeleted}</FormMessage>
      ) : (
        <Spinner label={text.deletingAccount} />
      )}
    </Page>
  );
}
