import { formatDeviceDate, licenceMessages } from '@soundid/contracts';
import { licencesText, licencesTitles } from '@soundid/contracts/ui-text';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { Button } from '../../../components/button';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import { useAcceptLicenceTransfer, useLicenceTransfer } from '../api/licence-transfer';

const text = licencesText.transferOffer;

/**
 * The page of a licence offer's mailed link (docs/decisions/0054-licence-transfer.md): what is
 * offered, by whom (masked), until when, and Accept. Signed in (the sign-in page comes back here);
 * only the account the offer was sent to may accept, which the service checks.
 */
export function LicenceTransferScreen() {
  const { token } = useParams();
  return token ? <LicenceTransfer token={token} /> : <Navigate to="/products" replace />;
}

function LicenceTransfer({ token }: { token: string }) {
  const offer = useLicenceTransfer(token);
  const accept = useAcceptLicenceTransfer();
  const reload = useReloadLicences();
  const navigate = useNavigate();

  if (offer.isPending) {
    return (
      <Page heading={licencesTitles.licenceTransfer}>
        <Spinner label={text.loading} />
      </Page>
    );
  }
  if (offer.isError) {
    return (
      <Page heading={licencesTitles.licenceTransfer}>
        <FormMessage tone="error">{offer.error.message}</FormMessage>
        <Link to="/products">{licenceMessages.toProducts}</Link>
      </Page>
    );
  }
  const { data } = offer;
  // An offer no longer open says why; an open one offers Accept.
  const over = data.State === 'pending' ? undefined : text.over[data.State];
  return (
    <Page heading={licencesTitles.licenceTransfer}>
      <p>{text.offer(data.FromEmail, data.DisplayName)}</p>
      <p>{text.key(data.FormattedKey)}</p>
      {!over ? (
        <>
          <p>{text.until(formatDeviceDate(data.ExpiresAt))}</p>
          <p>{text.sentTo(data.ToEmail)}</p>
          {accept.error && <FormMessage tone="error">{accept.error.message}</FormMessage>}
          <div className="form__actions">
            <Button
              isBusy={accept.isPending}
              disabled={accept.isPending}
              onClick={() =>
                accept.mutate(token, {
                  onSuccess: async (message) => {
                    notify('success', message);
                    await reload();
                    navigate('/products', { replace: true });
                  },
                })
              }
            >
              {text.accept}
            </Button>
          </div>
        </>
      ) : (
        <>
          <FormMessage tone="error">{over}</FormMessage>
          <Link to="/products">{licenceMessages.toProducts}</Link>
        </>
      )}
    </Page>
  );
}
