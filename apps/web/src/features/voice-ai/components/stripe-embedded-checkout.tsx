import type { StripeEmbeddedCheckout as EmbeddedCheckout } from '@stripe/stripe-js';
// The pure entry adds Stripe.js to the page when loadStripe is called, not when imported.
import { loadStripe } from '@stripe/stripe-js/pure';
import { useEffect, useRef } from 'react';

export interface CheckoutWidgetProps {
  clientSecret: string;
  onReady: () => void;
  onFailed: () => void;
  /** The payment completed (Stripe's onComplete, with redirect_on_completion 'if_required'). */
  onFinished: () => void;
}

/**
 * Stripe's embedded Checkout, mounted through Stripe.js itself: `createEmbeddedCheckoutPage`
 * rejects when the session cannot be shown, and that is the screen's failure state (the React
 * wrapper's provider swallows that rejection; ADR 0012).
 */
export function StripeEmbeddedCheckout({
  publishableKey,
  clientSecret,
  onReady,
  onFailed,
  onFinished,
}: CheckoutWidgetProps & { publishableKey: string }) {
  const container = useRef<HTMLDivElement>(null);
  // Stripe takes onComplete once, at creation; the latest callback is read when it fires.
  const finished = useRef(onFinished);
  finished.current = onFinished;

  useEffect(() => {
    let cancelled = false;
    let checkout: EmbeddedCheckout | undefined;
    (async () => {
      try {
        const stripe = await loadStripe(publishableKey);
        if (!stripe) throw new Error('Stripe.js did not load');
        const created = await stripe.createEmbeddedCheckoutPage({
          clientSecret,
          onComplete: () => finished.current(),
        });
        if (cancelled || !container.current) {
          created.destroy();
          return;
        }
        checkout = created;
        created.mount(container.current);
        onReady();
      } catch (error) {
        console.error('Stripe embedded Checkout failed to initialise', error);
        if (!cancelled) onFailed();
      }
    })();
    return () => {
      cancelled = true;
      checkout?.destroy();
    };
  }, [publishableKey, clientSecret, onReady, onFailed]);

  return <div ref={container} className="stripe-checkout" />;
}
