import { type ActionButton, findActivationButton, licenceMessages, type VoiceAiProducts } from '@soundid/contracts';
import { historyText, licencesText } from '@soundid/contracts/ui-text';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '../../../components/button';
import { ExpiringTokensList } from '../../../components/expiring-tokens';
import { notify } from '../../../lib/notifications';
import { voiceAiActivatePath } from '../activation-paths';
import { useReloadLicences } from '../api/get-account-licences';
import { useInvokeAction } from '../api/invoke-action';
import { type Panels, panelId, VOICE_AI_PANEL_TARGET } from '../use-panels';
import { useServerActionLaunch } from '../use-server-action-launch';
import { ActionButtonView } from './action-button';
import { ActionError } from './action-error';
import { AssetPacks } from './asset-packs';
import { ConfirmStep } from './confirm-step';
import { DevicesPanel } from './devices-panel';
import { InfoLinks } from './info-links';
import { LicenceNotices } from './licence-notices';
import { PanelToggle } from './panel';
import { ProductIcon } from './product-icon';

const text = licencesText.voiceAi;
const BUY_PAGE = '/products/voice-ai';
const HISTORY_PAGE = '/products/transactions';

/** The voice AI licence: status, activation, purchase links, devices, Remove Perpetual and expansion packs. */
export function VoiceAiSection({
  voiceAi,
  panels,
  reloadedAt,
}: {
  voiceAi: VoiceAiProducts;
  panels: Panels;
  /** When the list last arrived: a pending pack removal resets then. */
  reloadedAt: number;
}) {
  const status = voiceAi.LicenseStatus;
  const activation = findActivationButton(status.ActionButtons);
  const { launch, isPending } = useServerActionLaunch(voiceAiActivatePath);
  const removePerpetual = status.ActionButtons.find((b) => b.Functionality === 'RemovePerpetual');
  // Other buttons the list sends (Download, …); DeepLinks other than the activation one are unsupported.
  const others = status.ActionButtons.filter(
    (b) => b.Type !== 'DeepLink' && b.ExternalRequest?.Type !== 'DeepLink' && b !== removePerpetual,
  );
  const devicesPanelId = panelId('devices', VOICE_AI_PANEL_TARGET);

  return (
    <section className="licence-section" aria-labelledby="voice-ai-heading">
      <div className="licence-card">
        <LicenceNotices notifications={voiceAi.Notifications} />
        <div className="licence-card__head">
          <ProductIcon name={voiceAi.IconString} />
          <div className="licence-card__title">
            <h2 id="voice-ai-heading">{voiceAi.Title}</h2>
            {status.OfflineLicenseKey && (
              <p className="licence-card__key">
                {text.perpetualKey}: <span className="licence-key">{status.OfflineLicenseKey}</span>
              </p>
            )}
          </div>
        </div>
        <div className="licence-card__status">
          {status.StatusWarning && <p className="status-warning">{status.StatusWarning}</p>}
          <p>{status.TokenStatus}</p>
          <ExpiringTokensList expiring={status.ExpiringTokens ?? []} />
        </div>
        <div className="licence-card__actions">
          {activation && (
            <Button isBusy={isPending} onClick={() => void launch(activation)}>
              {activation.button.ActionText}
            </Button>
          )}
          {others.map((button) => (
            <ActionButtonView key={`${button.Functionality}-${button.ActionText}`} button={button} />
          ))}
          <Link className="button button--primary" to={BUY_PAGE}>
            {status.OfflineLicenseKey ? licenceMessages.buyTokens : licenceMessages.buyPerpetualOrTokens}
          </Link>
          <Link className="button button--link" to={HISTORY_PAGE}>
            {historyText.heading}
          </Link>
        </div>
        <div className="licence-card__toggles">
          {status.IsManageable && (
            <PanelToggle
              panelId={devicesPanelId}
              isOpen={panels.isOpen(devicesPanelId)}
              onToggle={() => panels.toggle(devicesPanelId)}
            >
              {text.manageDevices(status.InstancesUsed)}
            </PanelToggle>
          )}
          {removePerpetual && <RemovePerpetual button={removePerpetual} />}
        </div>
        {status.IsManageable && panels.isOpen(devicesPanelId) && (
          <DevicesPanel
            id={devicesPanelId}
            productName={voiceAi.Title}
            devices={status.Devices}
            onClose={panels.close}
          />
        )}
        <InfoLinks links={status.InfoLinks} />
      </div>
      <AssetPacks packs={voiceAi.AssetPacks} reloadedAt={reloadedAt} />
    </section>
  );
}

/**
 * Remove Perpetual asks first. The question belongs to the remove URL it was asked for: when a
 * reload no longer carries that URL (removed here or elsewhere), the confirmation closes by itself.
 */
function RemovePerpetual({ button }: { button: ActionButton }) {
  const url = button.ExternalRequest?.Url;
  const [askedUrl, setAskedUrl] = useState<string>();
  const removal = useInvokeAction();
  const reload = useReloadLicences();
  if (!url) return null;
  const isAsked = askedUrl === url;

  const remove = () =>
    removal.mutate(
      { url, silent: true },
      {
        onSuccess: async () => {
          notify('success', licenceMessages.licenseRemoved);
          await reload();
        },
      },
    );

  return (
    <div className="remove-perpetual">
      {isAsked ? (
        <ConfirmStep
          question={text.removePerpetualQuestion}
          confirmLabel={text.removePerpetualConfirm}
          isBusy={removal.isPending}
          onConfirm={remove}
          onCancel={() => {
            removal.reset();
            setAskedUrl(undefined);
          }}
        />
      ) : (
        <Button
          variant="secondary"
          className="button--small"
          disabled={!button.IsEnabled}
          onClick={() => setAskedUrl(url)}
        >
          {button.ActionText || licenceMessages.removePerpetual}
        </Button>
      )}
      {removal.error && isAsked && <ActionError error={removal.error} />}
    </div>
  );
}
