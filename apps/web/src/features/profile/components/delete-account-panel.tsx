import { messages } from '@soundid/contracts';
import { profileText, text } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { isApiError, showApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useDeleteAccount } from '../api/delete-account';
import './delete-account-panel.css';

/** Delete account, asked once more before the deletion mail is requested. */
export function DeleteAccountPanel() {
  const [isAsked, setAsked] = useState(false);
  const deleteAccount = useDeleteAccount();
  const navigate = useNavigate();

  const confirm = () =>
    deleteAccount.mutate(undefined, {
      onSuccess: () => {
        notify('success', messages.deletionEmailSent);
        setAsked(false);
      },
      onError: (error) => {
        if (isApiError(error)) showApiError(error.fault);
        navigate('/', { replace: true });
      },
    });

  return (
    <section className="danger-zone" aria-labelledby="delete-account-heading">
      <h2 id="delete-account-heading" className="danger-zone__heading">
        {profileText.deleteAccountHeading}
      </h2>
      <p>{profileText.deleteAccountIntro}</p>
      {isAsked ? (
        <fieldset className="danger-zone__confirm">
          <legend>{profileText.deleteAccountConfirmQuestion}</legend>
          <div className="form__actions">
            <Button
              variant="danger"
              isBusy={deleteAccount.isPending}
              disabled={deleteAccount.isPending}
              onClick={confirm}
            >
              {profileText.deleteAccountConfirm}
            </Button>
            <Button variant="secondary" autoFocus onClick={() => setAsked(false)}>
              {text.cancel}
            </Button>
          </div>
        </fieldset>
      ) : (
        <Button variant="danger" onClick={() => setAsked(true)}>
          {profileText.deleteAccountButton}
        </Button>
      )}
    </section>
  );
}
