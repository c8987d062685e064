import { formatPrice } from '@soundid/contracts';
import { voiceAiBuyText } from '@soundid/contracts/ui-text';
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/button';
import { leaveTo } from '../../../lib/browser-location';
import { useSessionUser } from '../../../lib/session';
import { useStoreSettings } from '../api/get-store-settings';
import type { PerpetualStorefront, PerpetualVariant } from '../storefront/perpetual-storefront';

type Offer = { status: 'loading' } | { status: 'ready'; variant: PerpetualVariant } | { status: 'unavailable' };

/**
 * Perpetual mode (docs/requirements.md §2, docs/requirements.md §7): price and compare-at price of the storefront's first variant;
 * Buy creates a one-line cart with the buyer's e-mail and leaves for its checkout. The
 * storefront client is loaded here only. Errors are logged and the button works again.
 */
export function PerpetualCard() {
  const settings = useStoreSettings();
  const user = useSessionUser();
  const storefront = useRef<PerpetualStorefront | undefined>(undefined);
  const [offer, setOffer] = useState<Offer>({ status: 'loading' });
  const [isBuying, setBuying] = useState(false);

  useEffect(() => {
    const store = settings.data;
    if (!store) return;
    let cancelled = false;
    import('../storefront/perpetual-storefront')
      .then(async ({ openPerpetualStorefront }) => {
        // Left before the client loaded: ask the store nothing.
        if (cancelled) return;
        storefront.current = openPerpetualStorefront(store);
        const variant = await storefront.current.firstVariant();
        if (!cancelled) setOffer({ status: 'ready', variant });
      })
      .catch((error: unknown) => {
        console.error('Perpetual mode price unavailable', error);
        if (!cancelled) setOffer({ status: 'unavailable' });
      });
    return () => {
      cancelled = true;
    };
  }, [settings.data]);

  const status = settings.isError ? 'unavailable' : offer.status;

  const buy = async () => {
    if (isBuying || offer.status !== 'ready' || !storefront.current) return;
    setBuying(true);
    try {
      leaveTo(await storefront.current.checkoutUrl(offer.variant.id, user?.Email));
    } catch (error) {
      console.error('Perpetual mode checkout failed', error);
      setBuying(false);
    }
  };

  return (
    <section className="card buy-option" aria-labelledby="perpetual-heading">
      <h2 id="perpetual-heading">{voiceAiBuyText.perpetualHeading}</h2>
      {offer.status === 'ready' ? (
        <p className="buy-option__price">
          <span className="visually-hidden">{voiceAiBuyText.currentPrice}: </span>
          {formatPrice(offer.variant.price.amount, offer.variant.price.currencyCode)}
          {offer.variant.compareAtPrice && (
            <s className="buy-option__compare-at">
              <span className="visually-hidden">{voiceAiBuyText.compareAtPrice}: </span>
              {formatPrice(offer.variant.compareAtPrice.amount, offer.variant.compareAtPrice.currencyCode)}
            </s>
          )}
        </p>
      ) : (
        <p className="buy-option__price buy-option__price--pending" role="status">
          {status === 'loading' ? voiceAiBuyText.perpetualPriceLoading : voiceAiBuyText.perpetualPriceUnavailable}
        </p>
      )}
      <p>{voiceAiBuyText.perpetualUnlimited}</p>
      <Button onClick={buy} disabled={offer.status !== 'ready' || isBuying} isBusy={isBuying}>
        {voiceAiBuyText.buyPerpetual}
      </Button>
    </section>
  );
}

/** A Perpetual owner's card (ADR 0056): the mode is active, nothing to buy; the storefront is not asked. */
export function PerpetualActiveCard() {
  return (
    <section className="card buy-option" aria-labelledby="perpetual-heading">
      <h2 id="perpetual-heading">{voiceAiBuyText.perpetualHeading}</h2>
      <p className="buy-option__active" role="status">
        {voiceAiBuyText.perpetualActive}
      </p>
      <p>{voiceAiBuyText.perpetualUnlimited}</p>
    </section>
  );
}
