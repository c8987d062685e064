import { licenceMessages, type ReferenceProduct } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { type Panels, panelId } from '../use-panels';
import { ActionButtonView } from './action-button';
import { DevicesPanel } from './devices-panel';
import { InfoLinks } from './info-links';
import { LicenceNotices } from './licence-notices';
import { LicenceRemovalPanel } from './licence-removal-panel';
import { PanelToggle } from './panel';
import { ProductIcon } from './product-icon';
import { TransferPanel } from './transfer-panel';
import { UpgradePanel } from './upgrade-panel';

/**
 * One reference product: notices, icon, name, description lines, its buttons, and the toggles
 * of its panels (devices 'N of M devices activated', upgrade, licence removal, passing on).
 */
export function ReferenceProductCard({ product, panels }: { product: ReferenceProduct; panels: Panels }) {
  const ids = {
    devices: panelId('devices', product.ProductName),
    upgrade: panelId('upgrade', product.ProductName),
    remove: panelId('remove', product.ProductName),
    transfer: panelId('transfer', product.ProductName),
  };
  const headingId = `product-${product.ProductName}`;
  const upgradeButton = product.ActionButtons.find((b) => b.Functionality === 'Upgrade' && !b.ExternalRequest);
  const hasKeys = product.LicenseKeys.length > 0;

  return (
    <li className="licence-card" aria-labelledby={headingId}>
      <LicenceNotices notifications={product.Notifications} />
      <div className="licence-card__head">
        <ProductIcon name={product.Icon} />
        <div className="licence-card__title">
          <h3 id={headingId}>{product.DisplayName}</h3>
          {product.Description.split('\n')
            .filter((line) => line.trim())
            .map((line) => (
              <p key={line} className="licence-card__line">
                {line}
              </p>
            ))}
        </div>
      </div>
      <div className="licence-card__actions">
        {product.ActionButtons.map((button) =>
          button === upgradeButton ? null : (
            <ActionButtonView key={`${button.Functionality}-${button.ActionText}`} button={button} />
          ),
        )}
      </div>
      <div className="licence-card__toggles">
        {product.IsManageable && (
          <PanelToggle
            panelId={ids.devices}
            isOpen={panels.isOpen(ids.devices)}
            onToggle={() => panels.toggle(ids.devices)}
          >
            {licenceMessages.devicesActivated(product.InstancesUsed, product.InstancesMax)}
          </PanelToggle>
        )}
        {upgradeButton && hasKeys && (
          <PanelToggle
            panelId={ids.upgrade}
            isOpen={panels.isOpen(ids.upgrade)}
            onToggle={() => panels.toggle(ids.upgrade)}
          >
            {upgradeButton.ActionText}
          </PanelToggle>
        )}
        {hasKeys && (
          <PanelToggle
            panelId={ids.remove}
            isOpen={panels.isOpen(ids.remove)}
            onToggle={() => panels.toggle(ids.remove)}
          >
            {licencesText.reference.removeToggle}
          </PanelToggle>
        )}
        {hasKeys && (
          <PanelToggle
            panelId={ids.transfer}
            isOpen={panels.isOpen(ids.transfer)}
            onToggle={() => panels.toggle(ids.transfer)}
          >
            {licencesText.transfer.toggle}
          </PanelToggle>
        )}
      </div>
      {product.IsManageable && panels.isOpen(ids.devices) && (
        <DevicesPanel
          id={ids.devices}
          productName={product.DisplayName}
          devices={product.Devices}
          allowanceOf={product.ProductName}
          onClose={panels.close}
        />
      )}
      {upgradeButton && hasKeys && panels.isOpen(ids.upgrade) && (
        <UpgradePanel
          id={ids.upgrade}
          productName={product.DisplayName}
          keys={product.LicenseKeys}
          onClose={panels.close}
        />
      )}
      {hasKeys && panels.isOpen(ids.remove) && (
        <LicenceRemovalPanel
          id={ids.remove}
          productName={product.DisplayName}
          keys={product.LicenseKeys}
          onClose={panels.close}
        />
      )}
      {hasKeys && panels.isOpen(ids.transfer) && (
        <TransferPanel
          id={ids.transfer}
          productName={product.DisplayName}
          keys={product.LicenseKeys}
          onClose={panels.close}
        />
      )}
      <InfoLinks links={product.InfoLinks} />
    </li>
  );
}
