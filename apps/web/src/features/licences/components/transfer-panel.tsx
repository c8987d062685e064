import { emailProblem, formatDeviceDate, LICENCE_TRANSFER_INTERVAL_DAYS, type LicenseKey } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { type FormEvent, useState } from 'react';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { TextField } from '../../../components/text-field';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import { useCancelLicenceTransfer, useStartLicenceTransfer } from '../api/licence-transfer';
import { ActionError } from './action-error';
import { LicenceKeyPanel, type ProductKeysPanelProps } from './licence-select';

const text = licencesText.transfer;

/**
 * Passing a licence on (docs/decisions/0054-licence-transfer.md): pick the licence, then either
 * its pending offer with Cancel, or the recipient's address. The service asks for a step-up in
 * place (ADR 0040); its refusals show in the panel. A licence traded in for an upgrade offers
 * nothing.
 */
export function TransferPanel({ id, productName, keys, onClose }: ProductKeysPanelProps) {
  return (
    <LicenceKeyPanel id={id} heading={text.heading(productName)} keys={keys} onClose={onClose}>
      {(key) =>
        key.IsUsedForUpgrade ? (
          <p>{licencesText.upgrade.alreadyUpgraded}</p>
        ) : key.Transfer ? (
          <PendingOffer key={key.Transfer.TransferId} transfer={key.Transfer} />
        ) : (
          <OfferForm key={key.FormattedKey} licence={key} />
        )
      }
    </LicenceKeyPanel>
  );
}

function PendingOffer({ transfer }: { transfer: NonNullable<LicenseKey['Transfer']> }) {
  const cancel = useCancelLicenceTransfer();
  const reload = useReloadLicences();
  return (
    <div className="form">
      <p>{text.pending(transfer.Email, formatDeviceDate(transfer.ExpiresAt))}</p>
      {cancel.error && <ActionError error={cancel.error} />}
      <div className="form__actions">
        <Button
          variant="danger"
          className="button--small"
          isBusy={cancel.isPending}
          disabled={cancel.isPending}
          onClick={() =>
            cancel.mutate(transfer.TransferId, {
              onSuccess: async (message) => {
                notify('success', message);
                await reload();
              },
              // Accepted meanwhile, or lapsed: the list tells what became of it.
              onError: () => reload(),
            })
          }
        >
          {text.cancel}
        </Button>
      </div>
    </div>
  );
}

function OfferForm({ licence }: { licence: LicenseKey }) {
  const start = useStartLicenceTransfer();
  const reload = useReloadLicences();
  const [email, setEmail] = useState('');
  const [isTouched, setTouched] = useState(false);
  const problem = isTouched ? emailProblem(email) : undefined;

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setTouched(true);
    if (emailProblem(email) || start.isPending) return;
    start.mutate(
      { key: licence.FormattedKey, email: email.trim() },
      {
        onSuccess: async (message) => {
          notify('success', message);
          await reload();
        },
      },
    );
  };

  return (
    <form className="form" noValidate onSubmit={submit}>
      <p>{text.intro(LICENCE_TRANSFER_INTERVAL_DAYS)}</p>
      <TextField
        label={text.emailLabel}
        type="email"
        autoComplete="off"
        value={email}
        error={problem}
        onBlur={() => setTouched(true)}
        onChange={(event) => {
          setEmail(event.target.value);
          start.reset();
        }}
      />
      {start.error && <FormMessage tone="error">{start.error.message}</FormMessage>}
      <div className="form__actions">
        <Button type="submit" isBusy={start.isPending} disabled={start.isPending}>
          {text.submit}
        </Button>
      </div>
    </form>
  );
}
