import type { TokenBundle } from '@soundid/contracts';
import { voiceAiBuyText } from '@soundid/contracts/ui-text';
import { Link, useNavigate } from 'react-router';
import { Page } from '../../../components/page';
import { Spinner } from '../../../components/spinner';
import { usePublicConfig } from '../../../config/public-config-context';
import { pushDataLayer } from '../../../lib/analytics';
import { useProducts } from '../api/get-products';
import { usePrepareTokenPurchaseCheckout } from '../api/prepare-token-purchase-checkout';
import { beginCheckoutEvent } from '../begin-checkout-event';
import { checkoutParamsOf } from '../checkout-params';
import { checkoutMetadata, checkoutReturnUrl } from '../checkout-request';
import { PerpetualActiveCard, PerpetualCard } from './perpetual-card';
import { TokenPacks } from './token-packs';
import { TrialOffer } from './trial-offer';
import './voice-ai-buy-screen.css';

/**
 * The voice AI buy page (docs/requirements.md §2, /products/voice-ai): the free trial while it can start,
 * Perpetual mode from the storefront (or, for an owner, that it is active: ADR 0056), and token
 * packs through the card checkout.
 */
export function VoiceAiBuyScreen() {
  const products = useProducts();
  const navigate = useNavigate();
  const { MainHost } = usePublicConfig();
  const prepare = usePrepareTokenPurchaseCheckout();

  const buyTokens = (bundle: TokenBundle) => {
    if (prepare.isPending) return;
    const returnUrl = checkoutReturnUrl(MainHost);
    prepare.mutate(
      { priceId: bundle.PriceId, metadata: checkoutMetadata(), ...(returnUrl && { returnUrl }) },
      {
        onSuccess: (prepared) => {
          pushDataLayer(beginCheckoutEvent(bundle));
          navigate('/products/checkout', { state: checkoutParamsOf(prepared) });
        },
      },
    );
  };

  const trialButton = products.data?.CanStartTrial
    ? products.data.ActionButtons.find((button) => button.Functionality === 'AppStartTrial')
    : undefined;

  return (
    <Page
      heading={voiceAiBuyText.heading}
      width="wide"
      actions={<Link to="/products">{voiceAiBuyText.toProducts}</Link>}
    >
      {products.isPending && <Spinner label={voiceAiBuyText.loading} />}
      {products.data && (
        <>
          {trialButton && <TrialOffer button={trialButton} />}
          <div className="buy-options">
            {products.data.IsPerpetual ? <PerpetualActiveCard /> : <PerpetualCard />}
            <TokenPacks
              products={products.data}
              preparingPriceId={prepare.isPending ? prepare.variables?.priceId : undefined}
              onBuy={buyTokens}
            />
          </div>
        </>
      )}
    </Page>
  );
}
