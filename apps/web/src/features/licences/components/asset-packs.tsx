import { type AssetPack, licenceMessages } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { useEffect, useId, useState } from 'react';
import { Button } from '../../../components/button';
import { isApiError } from '../../../lib/api-errors';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import { useInvokeAction } from '../api/invoke-action';
import { ConfirmStep } from './confirm-step';
import { ExternalAwareLink } from './info-links';

const text = licencesText.voiceAi;

/**
 * 'Explore and manage preset expansion packs': a collapsible table of packs with their key.
 * An owned pack is removed after a confirmation, any other is bought in the store. A pending
 * removal request resets whenever the section reloads.
 */
export function AssetPacks({ packs, reloadedAt }: { packs: readonly AssetPack[]; reloadedAt: number }) {
  const [isOpen, setOpen] = useState(false);
  const [askedUrl, setAskedUrl] = useState<string>();
  const removal = useInvokeAction();
  const reload = useReloadLicences();
  const listId = useId();

  // biome-ignore lint/correctness/useExhaustiveDependencies: a new list is the trigger.
  useEffect(() => {
    setAskedUrl(undefined);
  }, [reloadedAt]);

  if (packs.length === 0) return null;

  const remove = (url: string) =>
    removal.mutate(
      { url, silent: true },
      {
        onSuccess: async () => {
          notify('success', licenceMessages.activationKeyRemoved);
          await reload();
        },
        onError: (error) => {
          // The server's message when it sent one, else the spec's fallback.
          const serverText = isApiError(error) ? error.fault.ExceptionUserText : '';
          notify('danger', serverText || licenceMessages.activationKeyRemoveFailed);
        },
      },
    );

  return (
    <div className="asset-packs">
      <h3 className="asset-packs__heading">
        <button
          type="button"
          className="asset-packs__toggle"
          aria-expanded={isOpen}
          aria-controls={listId}
          onClick={() => setOpen((open) => !open)}
        >
          {licenceMessages.exploreAssetPacks}
          <span className="panel-toggle__chevron" aria-hidden="true" />
        </button>
      </h3>
      <div id={listId} hidden={!isOpen} className="table-scroll">
        <table className="licence-table licence-table--packs">
          <thead>
            <tr>
              {text.packColumns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
              <th scope="col">
                <span className="visually-hidden">{licencesText.devices.columns[2]}</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {packs.map((pack) => {
              const url = pack.RemoveLicenseAction?.Url;
              return (
                <tr key={pack.Title}>
                  <th scope="row" className="licence-table__name">
                    {pack.Title}
                  </th>
                  <td>
                    {pack.LicenseKey ? <span className="licence-key">{pack.LicenseKey}</span> : text.packNotOwned}
                  </td>
                  <td className="licence-table__actions">
                    {url ? (
                      askedUrl === url ? (
                        <ConfirmStep
                          question={text.removePackQuestion(pack.Title)}
                          confirmLabel={text.removePackConfirm}
                          isBusy={removal.isPending}
                          onConfirm={() => remove(url)}
                          onCancel={() => setAskedUrl(undefined)}
                        />
                      ) : (
                        <Button
                          variant="secondary"
                          className="button--small"
                          disabled={removal.isPending}
                          aria-label={`${text.removePack} ${pack.Title}`}
                          onClick={() => setAskedUrl(url)}
                        >
                          {text.removePack}
                        </Button>
                      )
                    ) : (
                      <ExternalAwareLink
                        className="button button--primary button--small"
                        href={pack.StoreUrl}
                        label={`${text.buyPack} ${pack.Title}`}
                      >
                        {text.buyPack}
                      </ExternalAwareLink>
                    )}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
    </div>
  );
}
