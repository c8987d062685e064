import type { StripeEmbeddedCheckoutOptions } from '@stripe/stripe-js';
import { act, screen, waitFor } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { SCREEN_TEST_TIMEOUT_MS } from '../../../testing/screen-timeout';

/**
 * With a real publishable key the checkout screen mounts Stripe's embedded Checkout. Stripe.js
 * cannot load here (no network), so `loadStripe` is replaced by a stand-in of the same calls.
 */
const stripe = vi.hoisted(() => ({
  loadStripe: vi.fn(),
  createEmbeddedCheckoutPage: vi.fn(),
  mount: vi.fn(),
  destroy: vi.fn(),
}));
vi.mock('@stripe/stripe-js/pure', () => ({ loadStripe: stripe.loadStripe }));

const params = {
  stripePublicKey: 'pk_test_51Abc',
  checkoutSessionClientSecret: 'cs_test_abc_secret_def',
  invoiceTag: 'inv_stripe_1',
  tokenBundle: { SKU: 'price_1k', Title: 'Starter', Currency: 'EUR', PriceAmountInCents: 999 },
};

async function openCheckout() {
  const view = renderApp('/products/post-checkout', { user: testUser });
  await act(() => view.router.navigate('/products/checkout', { state: params }));
  return view;
}

beforeEach(() => {
  vi.clearAllMocks();
  stripe.loadStripe.mockResolvedValue({ createEmbeddedCheckoutPage: stripe.createEmbeddedCheckoutPage });
});

describe('Stripe embedded checkout', { timeout: SCREEN_TEST_TIMEOUT_MS }, () => {
  it('mounts with the client secret; onComplete goes on to the post-checkout screen', async () => {
    mockApi({ '/api/voiceai/GetPaymentStatus': ok({ PaymentIntentStatus: 'succeeded', AnalyticsMetadata: {} }) });
    let options: StripeEmbeddedCheckoutOptions | undefined;
    stripe.createEmbeddedCheckoutPage.mockImplementation(async (given: StripeEmbeddedCheckoutOptions) => {
      options = given;
      return { mount: stripe.mount, destroy: stripe.destroy };
    });
    const { router } = await openCheckout();
    expect(await screen.findByText('Starter: €9.99')).toBeVisible();
    await waitFor(() => expect(stripe.mount).toHaveBeenCalledTimes(1));
    expect(stripe.loadStripe).toHaveBeenCalledWith('pk_test_51Abc');
    expect(options?.clientSecret).toBe('cs_test_abc_secret_def');
    expect(stripe.mount.mock.calls[0]?.[0]).toHaveClass('stripe-checkout');
    expect(screen.queryByRole('status')).not.toBeInTheDocument();

    await act(async () => options?.onComplete?.());
    await waitFor(() =>
      expect(router.state.location.pathname + router.state.location.search).toBe(
        '/products/post-checkout?invoice_tag=inv_stripe_1',
      ),
    );
    // The router's state changes before React commits the new screen and unmounts this one.
    await waitFor(() => expect(stripe.destroy).toHaveBeenCalled());
  });

  it('a session Stripe will not show, or Stripe.js not loading, is the initialization failure', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    mockApi({});
    stripe.createEmbeddedCheckoutPage.mockRejectedValue(new Error('Invalid client secret'));
    const rejected = await openCheckout();
    expect(await screen.findByText('Payment gateway initialization failed. Please try again.')).toBeVisible();
    rejected.unmount();

    stripe.loadStripe.mockRejectedValue(new Error('Failed to load Stripe.js'));
    await openCheckout();
    expect(await screen.findByText('Payment gateway initialization failed. Please try again.')).toBeVisible();
    expect(stripe.mount).not.toHaveBeenCalled();
  });
});
