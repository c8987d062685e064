import { licenceMessages } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import { useInvokeAction } from '../api/invoke-action';
import { ActionError } from './action-error';
import { ConfirmStep } from './confirm-step';
import { LicenceKeyPanel, type ProductKeysPanelProps } from './licence-select';

const text = licencesText.removal;

/**
 * Removes a licence key from the account: pick it, ask, then confirm or cancel. A single licence
 * is picked for you and opening the panel was the ask: it goes straight to the confirmation,
 * whose Cancel closes the panel.
 */
export function LicenceRemovalPanel({ id, productName, keys, onClose }: ProductKeysPanelProps) {
  const isSingle = keys.length === 1;
  const [isAsked, setAsked] = useState(isSingle);
  const removal = useInvokeAction();
  const reload = useReloadLicences();

  const remove = (url: string) =>
    removal.mutate(
      { url, silent: true },
      {
        onSuccess: async () => {
          notify('success', licenceMessages.licenseRemoved);
          onClose();
          await reload();
        },
      },
    );

  return (
    <LicenceKeyPanel
      id={id}
      heading={text.heading(productName)}
      keys={keys}
      onClose={onClose}
      onSelect={() => {
        setAsked(false);
        removal.reset();
      }}
    >
      {(key) => {
        const url = key.ActionButtons[0]?.ExternalRequest?.Url;
        if (!url) return null;
        return (
          <>
            {removal.error && <ActionError error={removal.error} />}
            {isAsked ? (
              <ConfirmStep
                question={text.question}
                confirmLabel={text.confirm}
                isBusy={removal.isPending}
                onConfirm={() => remove(url)}
                onCancel={() => {
                  removal.reset();
                  if (isSingle) onClose();
                  else setAsked(false);
                }}
              />
            ) : (
              <div className="form__actions">
                <Button variant="danger" className="button--small" onClick={() => setAsked(true)}>
                  {text.remove}
                </Button>
              </div>
            )}
          </>
        );
      }}
    </LicenceKeyPanel>
  );
}
