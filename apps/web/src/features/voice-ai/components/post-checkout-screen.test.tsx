import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fault, inSequence, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

describe('post-checkout', () => {
  it('shows success without an invoice tag', async () => {
    const api = mockApi({});
    renderApp('/products/post-checkout', { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment successful!' })).toBeInTheDocument();
    expect(screen.getByText('Launch your DAW and load the plugin on your vocal tracks.')).toBeInTheDocument();
    expect(api.callsTo('GetPaymentStatus')).toHaveLength(0);
  });

  it('checks the invoice tag and shows success', async () => {
    const api = mockApi({
      '/api/voiceai/GetPaymentStatus': ok({ PaymentIntentStatus: 'succeeded', AnalyticsMetadata: {} }),
    });
    renderApp('/products/post-checkout?invoice_tag=inv_123', { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment successful!' })).toBeInTheDocument();
    expect(api.callsTo('GetPaymentStatus')[0]?.body).toMatchObject({ invoiceTag: 'inv_123' });
  });

  it('shows the failure for any other status', async () => {
    mockApi({
      '/api/voiceai/GetPaymentStatus': ok({ PaymentIntentStatus: 'requires_payment_method', AnalyticsMetadata: null }),
    });
    renderApp('/products/post-checkout?invoice_tag=inv_1', { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Payment unsuccessful' })).toBeInTheDocument();
    expect(
      screen.getByText(
        'Looks like there was an issue with your payment. Please try again later or contact our support team!',
      ),
    ).toBeInTheDocument();
  });

  it('shows unknown when the status call fails', async () => {
    mockApi({ '/api/voiceai/GetPaymentStatus': inSequence(fault('PaymentNotFound')) });
    renderApp('/products/post-checkout?invoice_tag=inv_2', { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Ooops. Something went wrong!' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Go to Licenses & Devices' })).toHaveAttribute('href', '/products');
  });
});
