import { type Device, describeDevice, formatDeviceDate, licenceMessages } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { Button } from '../../../components/button';
import { licenceHelpLinks } from '../../../config/external-links';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import { useInvokeAction } from '../api/invoke-action';
import { ActionError } from './action-error';
import { ConfirmStep } from './confirm-step';
import { ExternalAwareLink } from './info-links';
import { Panel } from './panel';

const text = licencesText.devices;

/**
 * The devices of one licence: name and registration date, each deactivated by a two-step
 * ask / confirm with Cancel. Success reloads every section, shows a notice and closes the panel.
 */
export function DevicesPanel({
  id,
  productName,
  devices,
  guideUrl = licenceHelpLinks.activateDevice,
  onClose,
}: {
  id: string;
  productName: string;
  devices: readonly Device[];
  guideUrl?: string | null;
  onClose: () => void;
}) {
  const [askedId, setAskedId] = useState<string>();
  const deactivation = useInvokeAction();
  const reload = useReloadLicences();
  const asked = devices.find((d) => d.DeviceId === askedId);

  const deactivate = (device: Device) => {
    const url = device.ActionButtons[0]?.ExternalRequest?.Url;
    if (!url) return;
    deactivation.mutate(
      { url, silent: true },
      {
        onSuccess: async () => {
          notify('success', licenceMessages.deviceDeactivated(device.Name));
          setAskedId(undefined);
          onClose();
          await reload();
        },
      },
    );
  };

  return (
    <Panel id={id} heading={text.heading(productName)} onClose={onClose}>
      {deactivation.error && <ActionError error={deactivation.error} />}
      {devices.length === 0 ? (
        <p className="licence-panel__empty">
          {licenceMessages.noDevices}{' '}
          {guideUrl && <ExternalAwareLink href={guideUrl}>{text.guideLink}</ExternalAwareLink>}
        </p>
      ) : (
        <div className="table-scroll">
          <table className="licence-table">
            <thead>
              <tr>
                {text.columns.map((column, index) => (
                  <th key={column} scope="col" className={index === 2 ? 'licence-table__actions' : undefined}>
                    {index === 2 ? <span className="visually-hidden">{column}</span> : column}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {devices.map((device) => (
                <tr key={device.DeviceId}>
                  <th scope="row" className="licence-table__name">
                    {device.Name || licenceMessages.unnamedDevice}
                    <DeviceSeen device={device} />
                  </th>
                  <td>{formatDeviceDate(device.TimeActivated)}</td>
                  <td className="licence-table__actions">
                    {asked?.DeviceId === device.DeviceId ? (
                      <ConfirmStep
                        question={text.deactivateQuestion(device.Name || licenceMessages.unnamedDevice)}
                        confirmLabel={text.deactivateConfirm}
                        isBusy={deactivation.isPending}
                        onConfirm={() => deactivate(device)}
                        onCancel={() => {
                          deactivation.reset();
                          setAskedId(undefined);
                        }}
                      />
                    ) : (
                      device.ActionButtons[0]?.ExternalRequest && (
                        <Button
                          variant="secondary"
                          className="button--small"
                          disabled={!device.ActionButtons[0].IsEnabled || deactivation.isPending}
                          aria-label={`${text.deactivate} ${device.Name || licenceMessages.unnamedDevice}`}
                          onClick={() => {
                            deactivation.reset();
                            setAskedId(device.DeviceId);
                          }}
                        >
                          {text.deactivate}
                        </Button>
                      )
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Panel>
  );
}

/** What the app said of itself and when it last checked in (docs/decisions/0049-devices-seen.md); nothing when unknown. */
function DeviceSeen({ device }: { device: Device }) {
  const seen = describeDevice(device, new Date());
  return seen ? <span className="licence-table__seen">{seen}</span> : null;
}
