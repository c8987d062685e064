import { faultMessage, formatPrice, SANDBOX_PUBLISHABLE_KEY_PREFIX } from '@soundid/contracts';
import { checkoutText } from '@soundid/contracts/ui-text';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router';
import { FormMessage } from '../../../components/form-message';
import { Page } from '../../../components/page';
import { WaitingOverlay } from '../../../components/waiting-overlay';
import { type CheckoutParams, postCheckoutUrl, readCheckoutParams } from '../checkout-params';
import { SandboxCardForm } from './sandbox-card-form';
import './checkout-screen.css';

// Stripe.js is loaded on this screen only, and only with a real Stripe key.
const StripeEmbeddedCheckout = lazy(() =>
  import('./stripe-embedded-checkout').then((m) => ({ default: m.StripeEmbeddedCheckout })),
);

type Initialization = 'initializing' | 'initialized' | 'failed';

/**
 * The checkout screen (docs/requirements.md §2, voice-ai-checkout): Stripe's embedded Checkout, or with a
 * `pk_sandbox_…` key the sandbox card form; a waiting overlay while it initialises, the
 * failure message if it cannot, and the post-checkout screen when it is done.
 */
export function CheckoutScreen() {
  const params = readCheckoutParams(useLocation().state);
  if (!params) return <Navigate to="/products/voice-ai" replace />;
  return <Checkout params={params} />;
}

function Checkout({ params }: { params: CheckoutParams }) {
  const navigate = useNavigate();
  const [initialization, setInitialization] = useState<Initialization>('initializing');
  const onReady = useCallback(() => setInitialization('initialized'), []);
  const onFailed = useCallback(() => setInitialization('failed'), []);
  const onFinished = useCallback(
    () => navigate(postCheckoutUrl(params.invoiceTag), { replace: true }),
    [navigate, params.invoiceTag],
  );
  const bundle = params.tokenBundle;
  const isSandbox = params.stripePublicKey.startsWith(SANDBOX_PUBLISHABLE_KEY_PREFIX);
  const checkout = {
    clientSecret: params.checkoutSessionClientSecret,
    onReady,
    onFailed,
    onFinished,
  };

  return (
    <Page heading={checkoutText.heading} width="medium">
      {initialization === 'initializing' && <WaitingOverlay label={checkoutText.initializing} />}
      <p>{checkoutText.summary(bundle.Title, formatPrice(bundle.PriceAmountInCents / 100, bundle.Currency))}</p>
      {initialization === 'failed' ? (
        <>
          <FormMessage tone="error">
            <p>{faultMessage('CheckoutUnavailable')}</p>
          </FormMessage>
          <p>
            <Link to="/products/voice-ai">{checkoutText.backToBuyPage}</Link>
          </p>
        </>
      ) : isSandbox ? (
        <SandboxCardForm {...checkout} />
      ) : (
        <Suspense fallback={null}>
          <StripeEmbeddedCheckout publishableKey={params.stripePublicKey} {...checkout} />
        </Suspense>
      )}
    </Page>
  );
}
