import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { formatMoney } from '../lib/format';
import { meAnswer, mockApi } from '../testing/api-mock';
import { renderConsole } from '../testing/render';

describe('payments (finance)', () => {
  it('lists each payment that did not match its checkout, the customer linked to their page', async () => {
    mockApi({
      '/api/admin/OperatorMe': meAnswer(['finance']),
      '/api/admin/payment-mismatches': () => ({
        Result: [
          {
            EventId: 'evt_1',
            Provider: 'stripe',
            InvoiceTag: 'INV-42',
            Customer: 'carla@example.com',
            ExpectedAmountInCents: 1999,
            ExpectedCurrency: 'usd',
            ReceivedAmountInCents: 999,
            ReceivedCurrency: 'usd',
            RecordedAt: '2026-11-20T10:00:00.000Z',
          },
          {
            EventId: 'evt_2',
            Provider: 'stripe',
            InvoiceTag: 'INV-43',
            Customer: null,
            ExpectedAmountInCents: 500,
            ExpectedCurrency: 'eur',
            ReceivedAmountInCents: null,
            ReceivedCurrency: null,
            RecordedAt: '2026-11-21T10:00:00.000Z',
          },
        ],
      }),
    });
    renderConsole('/payments');
    const first = await screen.findByRole('row', { name: /INV-42/ });
    expect(within(first).getByRole('link', { name: 'carla@example.com' }).getAttribute('href')).toBe(
      '/console/customer?email=carla%40example.com',
    );
    expect(first).toHaveTextContent('$19.99');
    expect(first).toHaveTextContent('$9.99');
    const second = screen.getByRole('row', { name: /INV-43/ });
    // The expected amount in its own currency, as the console formats money (the literals above check the format).
    expect(second).toHaveTextContent(formatMoney(500, 'eur'));
    expect(second).toHaveTextContent('deleted account');
    expect(second).toHaveTextContent('nothing');
  });

  it('says so when every payment matched', async () => {
    mockApi({
      '/api/admin/OperatorMe': meAnswer(['finance']),
      '/api/admin/payment-mismatches': () => ({ Result: [] }),
    });
    renderConsole('/payments');
    expect(await screen.findByText('Every payment matched its checkout.')).toBeInTheDocument();
  });
});
