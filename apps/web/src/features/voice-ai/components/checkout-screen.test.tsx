import { act, screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fault, inSequence, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { SCREEN_TEST_TIMEOUT_MS } from '../../../testing/screen-timeout';
import type { CheckoutParams } from '../checkout-params';

const params: CheckoutParams = {
  stripePublicKey: 'pk_sandbox_abc',
  checkoutSessionClientSecret: 'cs_sandbox_abc_secret_def',
  invoiceTag: 'inv_tag_123',
  tokenBundle: { SKU: 'price_5k', Title: 'Producer', Currency: 'USD', PriceAmountInCents: 3999 },
};

const session = (Status: 'open' | 'complete' | 'expired' = 'open') =>
  ok({
    InvoiceTag: 'inv_tag_123',
    TokenBundle: params.tokenBundle,
    PriceText: '$39.99',
    Email: 'ada@example.com',
    Status,
    TestCards: { succeeds: '4242424242424242', declined: '4000000000000002', insufficientFunds: '4000000000009995' },
  });

const products = ok({
  ActionButtons: [],
  TokenBundles: [],
  StripePublicKey: 'pk_sandbox_abc',
  CanStartTrial: false,
  StatusWarning: null,
  TokenStatus: 'x',
  IsPerpetual: false,
  ExpiringTokens: [],
});

/** The checkout screen, reached the way the buy page reaches it: with the params in the history state. */
async function openCheckout(state: unknown = params) {
  const view = renderApp('/products/post-checkout', { user: testUser });
  await act(() => view.router.navigate('/products/checkout', { state }));
  return view;
}

const where = (router: ReturnType<typeof renderApp>['router']) =>
  router.state.location.pathname + router.state.location.search;

describe('checkout screen', { timeout: SCREEN_TEST_TIMEOUT_MS }, () => {
  it('without all of its params goes back to the buy page', async () => {
    mockApi({ '/api/voiceai/GetProducts': products, '/api/shopify/store-settings': fault('NotFound') });
    const { router } = await openCheckout({ ...params, invoiceTag: '' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/products/voice-ai'));
    await act(() => router.navigate('/products/checkout'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/products/voice-ai'));
  });

  it('sandbox: the card form with the test cards; 4242 pays and the post-checkout screen says so', async () => {
    const api = mockApi({
      '/api/sandbox/checkout/session': session(),
      '/api/sandbox/checkout/pay': ok({
        Outcome: 'succeeded',
        InvoiceTag: 'inv_tag_123',
        ReturnUrl: 'http://localhost:3000/products/post-checkout?invoice_tag=inv_tag_123&session_id=cs_sandbox_abc',
      }),
      '/api/voiceai/GetPaymentStatus': ok({ PaymentIntentStatus: 'succeeded', AnalyticsMetadata: {} }),
    });
    const { router, user } = await openCheckout();
    expect(await screen.findByRole('heading', { level: 1, name: 'Purchase tokens' })).toBeVisible();
    expect(screen.getByText('Producer: $39.99')).toBeVisible();
    await screen.findByText('4242 4242 4242 4242');
    expect(screen.getByText('4000 0000 0000 0002')).toBeVisible();
    expect(screen.queryByRole('status', { name: /Preparing/ })).not.toBeInTheDocument();
    expect(screen.getByLabelText('Email')).toHaveValue('ada@example.com');
    expect(api.callsTo('session')[0]?.body).toEqual({ clientSecret: 'cs_sandbox_abc_secret_def', silent: true });

    await user.type(screen.getByLabelText('Card number'), '4242 4242 4242 4242');
    await user.type(screen.getByLabelText('Expiry (MM/YY)'), '12/34');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.click(screen.getByRole('button', { name: 'Pay $39.99' }));

    await waitFor(() => expect(where(router)).toBe('/products/post-checkout?invoice_tag=inv_tag_123'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment successful!' })).toBeVisible();
    expect(api.callsTo('pay')[0]?.body).toEqual({
      clientSecret: 'cs_sandbox_abc_secret_def',
      cardNumber: '4242 4242 4242 4242',
      expiry: '12/34',
      cvc: '123',
      silent: true,
    });
  });

  it('sandbox: a declined card ends on Payment unsuccessful', async () => {
    mockApi({
      '/api/sandbox/checkout/session': session(),
      '/api/sandbox/checkout/pay': fault('CardDeclined', { ExceptionCode: 402 }),
      '/api/voiceai/GetPaymentStatus': ok({ PaymentIntentStatus: 'requires_payment_method', AnalyticsMetadata: null }),
    });
    const { router, user } = await openCheckout();
    await user.type(await screen.findByLabelText('Card number'), '4000 0000 0000 0002');
    await user.type(screen.getByLabelText('Expiry (MM/YY)'), '12/34');
    await user.type(screen.getByLabelText('CVC'), '123');
    await user.click(screen.getByRole('button', { name: 'Pay $39.99' }));
    await waitFor(() => expect(where(router)).toBe('/products/post-checkout?invoice_tag=inv_tag_123'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment unsuccessful' })).toBeVisible();
  });

  it('sandbox: a card it does not take is answered on the form, which stays', async () => {
    mockApi({
      '/api/sandbox/checkout/session': session(),
      '/api/sandbox/checkout/pay': inSequence(fault('CardInvalid', { ExceptionCode: 400, ExceptionType: 10 })),
    });
    const { router, user } = await openCheckout();
    await user.type(await screen.findByLabelText('Card number'), '1234');
    await user.click(screen.getByRole('button', { name: 'Pay $39.99' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Use a test card number such as 4242 4242 4242 4242, a future expiry date and any CVC.',
    );
    expect(router.state.location.pathname).toBe('/products/checkout');
    expect(screen.getByRole('button', { name: 'Pay $39.99' })).toBeEnabled();
  });

  it('a session already paid goes straight on; an expired one says so', async () => {
    mockApi({
      '/api/sandbox/checkout/session': session('complete'),
      '/api/voiceai/GetPaymentStatus': ok({ PaymentIntentStatus: 'succeeded', AnalyticsMetadata: {} }),
    });
    const paid = await openCheckout();
    await waitFor(() => expect(where(paid.router)).toBe('/products/post-checkout?invoice_tag=inv_tag_123'));
    paid.unmount();

    mockApi({ '/api/sandbox/checkout/session': session('expired') });
    await openCheckout();
    expect(await screen.findByText('This checkout session has expired. Please start again.')).toBeVisible();
  });

  it('the waiting overlay while it initialises; the failure message when it cannot', async () => {
    let answer: () => void = () => undefined;
    mockApi({
      '/api/sandbox/checkout/session': () =>
        new Promise((resolve) => {
          answer = () => resolve(fault('CheckoutSessionNotFound', { ExceptionCode: 404 }));
        }),
    });
    await openCheckout();
    expect(await screen.findByRole('status')).toHaveTextContent('Preparing the payment form');
    answer();
    expect(await screen.findByText('Payment gateway initialization failed. Please try again.')).toBeVisible();
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to token packs' })).toHaveAttribute('href', '/products/voice-ai');
    // Silent: the screen says it, not the global banner.
    expect(screen.queryByRole('region', { name: 'Errors' })).not.toBeInTheDocument();
  });
});
