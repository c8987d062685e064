import { formatDeviceDate, type IncomingLicenceTransfer } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { useQueryClient } from '@tanstack/react-query';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import {
  INCOMING_TRANSFERS_KEY,
  useAcceptIncomingLicenceTransfer,
  useIncomingLicenceTransfers,
} from '../api/licence-transfer';

const text = licencesText.transferOffer;

/**
 * The licence offers waiting for this customer's address (docs/decisions/0054-licence-transfer.md,
 * addendum): whoever signed up after the offer's mail finds it here, without the link. Nothing
 * is shown while there is none or the list cannot be read (the page's own list says its faults).
 */
export function IncomingTransfers() {
  const offers = useIncomingLicenceTransfers();
  const accept = useAcceptIncomingLicenceTransfer();
  const reload = useReloadLicences();
  const client = useQueryClient();
  if (!offers.data?.length) return null;
  return (
    <section className="form-message form-message--info" aria-labelledby="incoming-transfers-heading">
      <h2 id="incoming-transfers-heading">{text.incomingHeading}</h2>
      <ul>
        {offers.data.map((offer) => (
          <li key={offer.TransferId}>
            <p>
              {text.incoming(offer.FromEmail, offer.DisplayName, offer.FormattedKey, formatDeviceDate(offer.ExpiresAt))}
            </p>
            <Button
              className="button--small"
              isBusy={accept.isPending && accept.variables === offer.TransferId}
              disabled={accept.isPending}
              onClick={() =>
                accept.mutate(offer.TransferId, {
                  onSuccess: async (message, transferId) => {
                    // The accepted offer leaves the list at once, not when the list is read again:
                    // the licence it brought may be drawn first, beside an offer that is no more.
                    client.setQueryData<IncomingLicenceTransfer[]>(INCOMING_TRANSFERS_KEY, (list) =>
                      list?.filter((other) => other.TransferId !== transferId),
                    );
                    notify('success', message);
                    await Promise.all([reload(), client.invalidateQueries({ queryKey: INCOMING_TRANSFERS_KEY })]);
                  },
                })
              }
            >
              {text.acceptNamed(offer.DisplayName)}
            </Button>
          </li>
        ))}
      </ul>
      {accept.error && <FormMessage tone="error">{accept.error.message}</FormMessage>}
    </section>
  );
}
