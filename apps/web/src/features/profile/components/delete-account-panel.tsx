import { type DeletionSummary, messages } from '@soundid/contracts';
import { dataExportText, profileText, text } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/button';
import { isApiError, showApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useDeletionSummary } from '../api/data-export';
import { useDeleteAccount } from '../api/delete-account';
import './delete-account-panel.css';

/**
 * Delete account, asked once more before the deletion mail is requested; the question lists
 * what the deletion would end (licenses, unspent tokens and their expiry, ADR 0038).
 */
export function DeleteAccountPanel() {
  const [isAsked, setAsked] = useState(false);
  const deleteAccount = useDeleteAccount();
  const summary = useDeletionSummary(isAsked);
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
          {summary.data && <DeletionLosses summary={summary.data} />}
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

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'long', year: 'numeric' });
const dayOf = (iso: string) => day.format(new Date(iso));

/** The licenses and unspent tokens a deletion would end; nothing when there are none. */
function DeletionLosses({ summary }: { summary: DeletionSummary }) {
  if (summary.Licences.length === 0 && summary.UnspentTokens.length === 0) return null;
  return (
    <div className="danger-zone__losses">
      <p id="deletion-losses">{dataExportText.deletionLoses}</p>
      <ul aria-labelledby="deletion-losses">
        {summary.Licences.map((licence) => (
          <li key={licence.Product}>
            {dataExportText.lostLicence(
              licence.ProductName,
              licence.Keys,
              licence.TrialEndsAt ? dayOf(licence.TrialEndsAt) : null,
            )}
          </li>
        ))}
        {summary.UnspentTokens.map((lot, index) => (
          // Lots have no name of their own; their order (soonest expiry first) is stable.
          // biome-ignore lint/suspicious/noArrayIndexKey: see above
          <li key={index}>{dataExportText.lostTokens(lot.Tokens, dayOf(lot.ExpiresAt))}</li>
        ))}
      </ul>
    </div>
  );
}
