import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';

const lot = (amount: number) => ({
  TokenAmount: amount,
  Type: 'Purchased',
  OrderDate: 1700000000, // seconds: padded to 13 digits
  ExpiryDate: 1731536000000,
  TokenBalance: amount / 2,
  TokensSpent: amount / 2,
  IsExpired: false,
});

describe('transaction history', () => {
  it('shows purchases first, with the spec columns and dates, and pages through them', async () => {
    const api = mockApi({
      '/api/voiceai/GetPurchaseHistory': (call) =>
        ok({ PageItems: [lot(call.body.page === 2 ? 2000 : 1000)], PageNumber: Number(call.body.page), PageCount: 12 }),
    });
    const { user } = renderApp('/products/transactions', { user: testUser });
    expect(await screen.findByRole('heading', { level: 1, name: 'Transaction history' })).toBeInTheDocument();
    await waitFor(() => expect(document.title).toBe('My SoundID | SoundID VoiceAI Transactions'));
    expect(screen.getByRole('tab', { name: 'Purchase history' })).toHaveAttribute('aria-selected', 'true');
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Amount', 'Type', 'Order date', 'Expiry date', 'Remaining', 'Spent', 'Receipt']);
    expect(within(table).getByText('1,000')).toBeInTheDocument();
    expect(within(table).getByText(/^14\/11\/23 \d{1,2}:13 (am|pm)$/)).toBeInTheDocument();

    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(
      within(pager)
        .getAllByRole('button')
        .map((b) => b.textContent?.replace(/[‹›]/, '')),
    ).toEqual(['Previous page', '1', '2', '3', '4', '12', 'Next page']);
    expect(within(pager).getByText('…')).toBeInTheDocument();
    await user.click(within(pager).getByRole('button', { name: 'Page 2' }));
    expect(await within(screen.getByRole('table')).findByText('2,000')).toBeInTheDocument();
    expect(api.callsTo('GetPurchaseHistory').map((c) => c.body.page)).toEqual([1, 2]);
  });

  it('marks an expired lot with what it held then', async () => {
    mockApi({
      '/api/voiceai/GetPurchaseHistory': ok({
        PageItems: [{ ...lot(1000), TokenBalance: 0, IsExpired: true, TokensExpired: 300, TokensSpent: 700 }],
        PageNumber: 1,
        PageCount: 1,
      }),
    });
    renderApp('/products/transactions', { user: testUser });
    const table = await screen.findByRole('table');
    const [, row] = within(table).getAllByRole('row');
    expect(within(row as HTMLElement).getByText('Expired')).toBeInTheDocument();
    expect(row).toHaveTextContent('(300 unused)');
    expect(within(row as HTMLElement).getByText('700')).toBeInTheDocument();
  });

  it("links a card purchase's receipt for download, and nothing for a grant (ADR 0058)", async () => {
    const receiptUrl = 'http://localhost:3000/api/voiceai/receipts/inv_abc.pdf';
    mockApi({
      '/api/voiceai/GetPurchaseHistory': ok({
        PageItems: [
          { ...lot(1000), ReceiptUrl: receiptUrl },
          { ...lot(50), Type: 'Granted' },
          { ...lot(20), Type: 'Granted', ReceiptUrl: 'javascript:alert(1)' },
        ],
        PageNumber: 1,
        PageCount: 1,
      }),
    });
    renderApp('/products/transactions', { user: testUser });
    const table = await screen.findByRole('table');
    await within(table).findByText('1,000');
    const links = within(table).getAllByRole('link');
    expect(links).toHaveLength(1);
    const [link] = links;
    expect(link).toHaveTextContent('Receipt');
    expect(link).toHaveAccessibleName(/^Receipt of the purchase of 14\/11\/23 \d{1,2}:13 (am|pm) \(PDF\)$/);
    expect(link).toHaveAttribute('href', receiptUrl);
    expect(link).toHaveAttribute('download');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0] as HTMLElement).getByRole('link')).toBe(link);
    expect(within(rows[1] as HTMLElement).queryByRole('link')).toBeNull();
  });

  it('switches to usage history: one row per job, its spec columns first, opening to the lots that paid it (ADR 0056)', async () => {
    mockApi({
      '/api/voiceai/GetPurchaseHistory': ok({ PageItems: [], PageNumber: 1, PageCount: 1 }),
      '/api/voiceai/GetActionHistory': ok({
        PageItems: [
          {
            TokenAmount: 80,
            Type: 'Granted + Purchased',
            Date: 1700000000000,
            Seconds: 7.5,
            Payers: [
              { Type: 'Granted', OrderDate: 1690000000000, Tokens: 10 },
              { Type: 'Purchased', OrderDate: 1695000000000, Tokens: 70 },
            ],
          },
        ],
        PageNumber: 1,
        PageCount: 1,
      }),
    });
    const { user } = renderApp('/products/transactions', { user: testUser });
    await user.click(await screen.findByRole('tab', { name: 'Usage history' }));
    const table = await screen.findByRole('table');
    await within(table).findByText('80');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((th) => th.textContent),
    ).toEqual(['Tokens spent', 'Token type', 'Date', 'Processing time', 'Paid from']);
    expect(within(table).getByText('7.5 s')).toBeInTheDocument();
    expect(within(table).queryByRole('list', { name: 'Paid from' })).not.toBeInTheDocument();
    const toggle = within(table).getByRole('button', { name: 'Show 2 lots' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    expect(within(table).getByRole('button', { name: 'Hide' })).toHaveAttribute('aria-expanded', 'true');
    const payers = within(table).getByRole('list', { name: 'Paid from' });
    expect(
      within(payers)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual([
      expect.stringMatching(/^10 tokens: Granted, 22\/07\/23 /),
      expect.stringMatching(/^70 tokens: Purchased, 18\/09\/23 /),
    ]);
  });

  it('ignores pager clicks while a page loads', async () => {
    let release: () => void = () => {};
    const api = mockApi({
      '/api/voiceai/GetPurchaseHistory': async (call) => {
        if (call.body.page === 2) await new Promise<void>((resolve) => (release = resolve));
        return ok({ PageItems: [lot(1000)], PageNumber: Number(call.body.page), PageCount: 5 });
      },
    });
    const { user } = renderApp('/products/transactions', { user: testUser });
    const pager = await screen.findByRole('navigation', { name: 'Pages' });
    await user.click(within(pager).getByRole('button', { name: 'Page 2' }));
    expect(await screen.findByText('Loading history')).toBeInTheDocument();
    await user.click(within(pager).getByRole('button', { name: 'Page 3' }));
    release();
    await waitFor(() => expect(screen.queryByText('Loading history')).not.toBeInTheDocument());
    expect(api.callsTo('GetPurchaseHistory').map((c) => c.body.page)).toEqual([1, 2]);
  });
});
