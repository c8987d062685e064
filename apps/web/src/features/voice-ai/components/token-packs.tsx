import { licenceMessages, type TokenBundle, tokenFootnotes, type VoiceAiProductList } from '@soundid/contracts';
import { voiceAiBuyText } from '@soundid/contracts/ui-text';
import { Button } from '../../../components/button';
import { bundleView } from '../token-bundle';
import { TokenStatus } from './token-status';
import './token-packs.css';

/**
 * Pay-as-you-go (docs/requirements.md §2): the token status line, one card per bundle (title, contents,
 * description, price, new price, Most popular badge) and the footnotes of docs/requirements.md §9. Every Buy tokens
 * button is disabled while a checkout is being prepared.
 */
export function TokenPacks({
  products,
  preparingPriceId,
  onBuy,
}: {
  products: VoiceAiProductList;
  preparingPriceId: string | undefined;
  onBuy: (bundle: TokenBundle) => void;
}) {
  return (
    <section className="card buy-option buy-option--tokens" aria-labelledby="payg-heading">
      <h2 id="payg-heading">{voiceAiBuyText.payAsYouGoHeading}</h2>
      <TokenStatus status={products.TokenStatus} warning={products.StatusWarning} expiring={products.ExpiringTokens} />
      {products.TokenBundles.length === 0 ? (
        <p>{voiceAiBuyText.noBundles}</p>
      ) : (
        <ul className="bundles" aria-label={voiceAiBuyText.bundlesLabel}>
          {products.TokenBundles.map((bundle) => {
            const view = bundleView(bundle);
            const headingId = `bundle-${view.priceId}`;
            return (
              <li key={view.priceId} className="bundle" aria-labelledby={headingId}>
                {view.isMostPopular && <p className="bundle__badge">{voiceAiBuyText.mostPopular}</p>}
                <h3 id={headingId} className="bundle__title">
                  {view.title}
                </h3>
                <p className="bundle__contents">{view.contents}</p>
                <p className="bundle__description">{view.description}</p>
                <p className="bundle__price">
                  {view.priceText}
                  {view.newPriceText && <span className="bundle__new-price"> {view.newPriceText}</span>}
                </p>
                <Button
                  onClick={() => onBuy(bundle)}
                  disabled={preparingPriceId !== undefined}
                  isBusy={preparingPriceId === view.priceId}
                  aria-describedby={headingId}
                >
                  {licenceMessages.buyTokens}
                </Button>
              </li>
            );
          })}
        </ul>
      )}
      <TokenFootnotes />
    </section>
  );
}

function TokenFootnotes() {
  return (
    <ul className="footnotes">
      {tokenFootnotes.map((note) => (
        <li key={note}>{note}</li>
      ))}
    </ul>
  );
}
