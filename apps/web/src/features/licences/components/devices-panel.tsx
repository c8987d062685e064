import {
  type Device,
  describeAllowance,
  describeDevice,
  describeIdleRule,
  formatDeviceDate,
  LOST_REPORT_NOTE_MAX_LENGTH,
  LOST_REPORT_REASONS,
  type LostReportReason,
  licenceMessages,
} from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { useId, useState } from 'react';
import { Button } from '../../../components/button';
import { licenceHelpLinks } from '../../../config/external-links';
import { notify } from '../../../lib/notifications';
import { useReloadLicences } from '../api/get-account-licences';
import { useDeactivationAllowance } from '../api/get-deactivation-allowance';
import { useInvokeAction } from '../api/invoke-action';
import { useReportDeviceLost } from '../api/report-device-lost';
import { ActionError } from './action-error';
import { ConfirmStep } from './confirm-step';
import { ExternalAwareLink } from './info-links';
import { Panel } from './panel';

const text = licencesText.devices;

/**
 * The devices of one licence: name and registration date (and, under the name, what the app said
 * of itself when last seen), each deactivated or reported lost or stolen by a two-step ask /
 * confirm with Cancel. Success reloads every section, shows a notice and closes the panel.
 */
export function DevicesPanel({
  id,
  productName,
  devices,
  guideUrl = licenceHelpLinks.activateDevice,
  allowanceOf,
  onClose,
}: {
  id: string;
  productName: string;
  devices: readonly Device[];
  /** The product (its ProductName) whose deactivation allowance the panel states (ADR 0030). */
  allowanceOf?: string;
  guideUrl?: string | null;
  onClose: () => void;
}) {
  const [asking, setAsking] = useState<{ id: string; about: 'deactivate' | 'lost' }>();
  const deactivation = useInvokeAction();
  const lostReport = useReportDeviceLost();
  const [reason, setReason] = useState<LostReportReason>('lost');
  const [note, setNote] = useState('');
  const reload = useReloadLicences();
  const allowance = useDeactivationAllowance(allowanceOf).data;
  const asked = devices.find((d) => d.DeviceId === asking?.id);
  const busy = deactivation.isPending || lostReport.isPending;
  const ask = (device: Device, about: 'deactivate' | 'lost') => {
    deactivation.reset();
    lostReport.reset();
    setReason('lost');
    setNote('');
    setAsking({ id: device.DeviceId, about });
  };
  const cancel = () => {
    deactivation.reset();
    lostReport.reset();
    setAsking(undefined);
  };
  const done = async (message: string) => {
    notify('success', message);
    setAsking(undefined);
    onClose();
    await reload();
  };

  // A lost or stolen machine (docs/decisions/0050-lost-or-stolen.md): its seat is freed at once.
  const reportLost = (device: Device) =>
    lostReport.mutate(
      { deviceId: device.DeviceId, reason, ...(note.trim() ? { note: note.trim() } : {}) },
      { onSuccess: done },
    );

  const deactivate = (device: Device) => {
    const url = device.ActionButtons[0]?.ExternalRequest?.Url;
    if (!url) return;
    deactivation.mutate(
      { url, silent: true },
      { onSuccess: () => done(licenceMessages.deviceDeactivated(device.Name)) },
    );
  };

  return (
    <Panel id={id} heading={text.heading(productName)} onClose={onClose}>
      {deactivation.error && <ActionError error={deactivation.error} />}
      {lostReport.error && <ActionError error={lostReport.error} />}
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
                    {nameOf(device)}
                    <DeviceSeen device={device} />
                  </th>
                  <td>{formatDeviceDate(device.TimeActivated)}</td>
                  <td className="licence-table__actions">
                    {asked?.DeviceId === device.DeviceId && asking?.about === 'deactivate' ? (
                      <ConfirmStep
                        question={text.deactivateQuestion(nameOf(device))}
                        confirmLabel={text.deactivateConfirm}
                        isBusy={deactivation.isPending}
                        onConfirm={() => deactivate(device)}
                        onCancel={cancel}
                      />
                    ) : asked?.DeviceId === device.DeviceId && asking?.about === 'lost' ? (
                      <ConfirmStep
                        question={text.reportLostQuestion(nameOf(device))}
                        confirmLabel={text.reportLostConfirm}
                        isBusy={lostReport.isPending}
                        onConfirm={() => reportLost(device)}
                        onCancel={cancel}
                      >
                        <LostReportFields reason={reason} onReason={setReason} note={note} onNote={setNote} />
                      </ConfirmStep>
                    ) : (
                      <div className="licence-table__buttons">
                        {device.ActionButtons[0]?.ExternalRequest && (
                          <Button
                            variant="secondary"
                            className="button--small"
                            disabled={!device.ActionButtons[0].IsEnabled || busy}
                            aria-label={`${text.deactivate} ${nameOf(device)}`}
                            onClick={() => ask(device, 'deactivate')}
                          >
                            {text.deactivate}
                          </Button>
                        )}
                        <Button
                          variant="secondary"
                          className="button--small"
                          disabled={busy}
                          aria-label={`${text.reportLost}: ${nameOf(device)}`}
                          onClick={() => ask(device, 'lost')}
                        >
                          {text.reportLost}
                        </Button>
                      </div>
                    )}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      {allowance && (
        <p className="licence-panel__allowance">
          {describeAllowance(
            allowance.DeactivationsLeft,
            allowance.DeactivationsAllowed,
            allowance.NextDeactivationReturns,
          )}
        </p>
      )}
      {allowance && <p className="licence-panel__allowance">{describeIdleRule(allowance.IdleReleaseDays)}</p>}
    </Panel>
  );
}

/** What the app said of itself and when it last checked in (docs/decisions/0049-devices-seen.md); nothing when unknown. */
function DeviceSeen({ device }: { device: Device }) {
  const seen = describeDevice(device, new Date());
  // The space keeps the row header's accessible name readable: "Studio iMac version 5.12.1 …".
  return seen ? (
    <>
      {' '}
      <span className="licence-table__seen">{seen}</span>
    </>
  ) : null;
}

const nameOf = (device: Device) => device.Name || licenceMessages.unnamedDevice;

/** What happened to the machine, and a note for support (kept with the report). */
function LostReportFields({
  reason,
  onReason,
  note,
  onNote,
}: {
  reason: LostReportReason;
  onReason: (reason: LostReportReason) => void;
  note: string;
  onNote: (note: string) => void;
}) {
  const id = useId();
  return (
    <div className="lost-report">
      <fieldset className="lost-report__reasons">
        <legend>{text.reportLostReason}</legend>
        {LOST_REPORT_REASONS.map((value) => (
          <label key={value} className="lost-report__reason">
            <input
              type="radio"
              name={`${id}-reason`}
              value={value}
              checked={reason === value}
              onChange={() => onReason(value)}
            />{' '}
            {text.reportLostReasons[value]}
          </label>
        ))}
      </fieldset>
      <label htmlFor={`${id}-note`}>{text.reportLostNote}</label>
      <textarea
        id={`${id}-note`}
        rows={2}
        maxLength={LOST_REPORT_NOTE_MAX_LENGTH}
        value={note}
        onChange={(event) => onNote(event.target.value)}
      />
    </div>
  );
}
