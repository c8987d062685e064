import type { ReferenceProducts } from '@soundid/contracts';
import { licencesText } from '@soundid/contracts/ui-text';
import { usePublicConfig } from '../../../config/public-config-context';
import { type Panels, panelId } from '../use-panels';
import { ActionButtonView } from './action-button';
import { OfflineActivationPanel } from './offline-activation-panel';
import { PanelToggle } from './panel';
import { ReferenceProductCard } from './reference-product-card';
import { TrialBanner } from './trial-banner';

const text = licencesText.reference;

/** The reference line: its top buttons, the trial banner, offline activation and the products. */
export function ReferenceSection({ reference, panels }: { reference: ReferenceProducts; panels: Panels }) {
  const { OfflineActivation: offersOfflineActivation } = usePublicConfig();
  const offlineId = panelId('offline');
  const trialDeeplink = reference.AvailableTrials.find((t) => t.DeepLinkUrl)?.DeepLinkUrl;

  return (
    <section className="licence-section" aria-labelledby="reference-heading">
      <div className="licence-section__header">
        <h2 id="reference-heading">{text.heading}</h2>
        <div className="licence-card__actions">
          {reference.ActionButtons.map((button) => (
            <ActionButtonView key={`${button.Functionality}-${button.ActionText}`} button={button} />
          ))}
          {offersOfflineActivation && (
            <PanelToggle
              panelId={offlineId}
              isOpen={panels.isOpen(offlineId)}
              onToggle={() => panels.toggle(offlineId)}
              size="regular"
            >
              {text.offlineToggle}
            </PanelToggle>
          )}
        </div>
      </div>
      {offersOfflineActivation && panels.isOpen(offlineId) && (
        <OfflineActivationPanel id={offlineId} onClose={panels.close} />
      )}
      {trialDeeplink && <TrialBanner deeplink={trialDeeplink} />}
      {reference.Products.length === 0 ? (
        <p className="licence-section__empty">{text.noProducts}</p>
      ) : (
        <ul className="licence-list" aria-label={text.productsLabel}>
          {reference.Products.map((product) => (
            <ReferenceProductCard key={product.ProductName} product={product} panels={panels} />
          ))}
        </ul>
      )}
    </section>
  );
}
