import { AUDIT_REASON_MIN_LENGTH, type CallResult, type OperatorRole } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { customerPage, meAnswer, mockApi } from '../testing/api-mock';
import { renderConsole } from '../testing/render';

const openCustomer = (roles: OperatorRole[], extra: Parameters<typeof mockApi>[0] = {}) => {
  const api = mockApi({
    '/api/admin/OperatorMe': meAnswer(roles),
    '/api/admin/user': () => ({ Result: customerPage() }),
    ...extra,
  });
  const rendered = renderConsole('/customer?email=carla%40example.com');
  return { api, ...rendered };
};

describe('the customer page', () => {
  it('reads the customer by e-mail and shows devices active and deactivated, and the allowance', async () => {
    const { api } = openCustomer(['support']);
    await screen.findByRole('heading', { level: 1, name: 'carla@example.com' });
    expect(api.to('/api/admin/user')[0]?.query.get('email')).toBe('carla@example.com');
    const devices = await screen.findByRole('table', { name: 'Devices of sid-reference …ABC123' });
    expect(within(devices).getByRole('rowheader', { name: 'Studio iMac' })).toBeInTheDocument();
    expect(within(devices).getByText(/^Deactivated .* \(customer\)$/)).toBeInTheDocument();
    expect(screen.getByText('5 of 5')).toBeInTheDocument();
    // An offer to pass a key on, still open (ADR 0054).
    expect(screen.getByText('Offered …ABC123')).toBeInTheDocument();
    expect(screen.getByText(/^to bea@example\.com on .*, until /)).toBeInTheDocument();
    // When each app last checked in, with what it said of itself (ADR 0049); a lost report and whether it stands (ADR 0050).
    const imac = within(devices).getByRole('rowheader', { name: 'Studio iMac' }).closest('tr') as HTMLElement;
    expect(imac).toHaveTextContent(/\(5\.12\.1, macOS 14\.5\)/);
    const stolen = within(devices).getByRole('rowheader', { name: 'Stolen MacBook' }).closest('tr') as HTMLElement;
    expect(stolen).toHaveTextContent(/\(lost\); reported stolen: “police report 7”; refused until undone/);
    // A list without rows is a sentence, not an empty table.
    const trials = screen.getByRole('region', { name: 'Trials' });
    expect(within(trials).getByText('No trial.')).toBeInTheDocument();
    expect(within(trials).queryByRole('table')).toBeNull();
    expect(within(screen.getByRole('region', { name: 'Sessions' })).getByRole('table')).toBeInTheDocument();
  });

  it('shows the address as the portal does: every part, the State included, the country by name', async () => {
    const profile = { AddressLine1: '1 Main Street', City: 'Austin', State: 'TX', PostalCode: '78701', Country: 'US' };
    openCustomer(['support'], { '/api/admin/user': () => ({ Result: { ...customerPage(), Profile: profile } }) });
    const address = await screen.findByText('Address');
    expect(address.nextElementSibling).toHaveTextContent(/^1 Main Street, Austin, TX, 78701, United States$/);
  });

  it("support sees support's actions only; finance sees finance's only (operatorCallRoles)", async () => {
    const support = openCustomer(['support']);
    await screen.findByRole('heading', { level: 2, name: 'Account' });
    for (const name of [
      'Unlock sign-in',
      'End sessions',
      'Deactivate Studio iMac',
      'Reset deactivations of licence …ABC123',
      'Move licence …ABC123 to another account',
    ]) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    // The customer is verified: nothing to resend. A deactivated device has no button.
    expect(screen.queryByRole('button', { name: 'Resend verification' })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Deactivate Old laptop' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Undo the lost report of Stolen MacBook' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Undo the lost report of Old laptop' })).toBeNull();
    for (const name of ['Grant tokens', 'Withdraw tokens', 'Refund payment inv_0000001']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    support.unmount();

    openCustomer(['finance']);
    await screen.findByRole('heading', { level: 2, name: 'Account' });
    for (const name of ['Grant tokens', 'Withdraw tokens', 'Refund payment inv_0000001']) {
      expect(screen.getByRole('button', { name })).toBeInTheDocument();
    }
    for (const name of ['Unlock sign-in', 'End sessions', 'Deactivate Studio iMac']) {
      expect(screen.queryByRole('button', { name })).toBeNull();
    }
    // Admin alone reads no customer: the navigation has no Customers for it.
  });

  it('sends no change without a reason of the minimum length; then sends it with the reason and says what was done', async () => {
    const { api, user } = openCustomer(['support'], {
      '/api/admin/deactivate-device': () => ({
        Result: { Device: 'Studio iMac', Product: 'sid-reference', Customer: 'carla@example.com' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Deactivate Studio iMac' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate Studio iMac' });
    const reason = within(dialog).getByLabelText('Reason or ticket');
    expect(reason).toHaveFocus();

    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent(
      `Give a reason of at least ${AUDIT_REASON_MIN_LENGTH} characters`,
    );
    expect(reason).toHaveAttribute('aria-invalid', 'true');
    expect(reason).toHaveAccessibleDescription(
      `At least ${AUDIT_REASON_MIN_LENGTH} characters; kept in the audit trail with your name.`,
    );
    await user.type(reason, `  ${'x'.repeat(AUDIT_REASON_MIN_LENGTH - 1)}  `);
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give a reason');
    expect(api.to('/api/admin/deactivate-device')).toHaveLength(0);

    await user.clear(reason);
    await user.type(reason, 'Ticket 4711: laptop stolen');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Studio iMac deactivated (sid-reference); not counted in the allowance.',
    );
    expect(api.to('/api/admin/deactivate-device')[0]?.body).toEqual({
      deviceId: '20000000-0000-4000-8000-000000000001',
      reason: 'Ticket 4711: laptop stolen',
    });
    expect(screen.queryByRole('dialog')).toBeNull();
    // The page is read again after the change.
    await waitFor(() => expect(api.to('/api/admin/user')).toHaveLength(2));
  });

  it('puts the focus on what was done when the button that opened the dialog is gone with the change (WCAG 2.4.3)', async () => {
    let reads = 0;
    const { user } = openCustomer(['support'], {
      '/api/admin/user': () => {
        reads += 1;
        const page = customerPage();
        const [imac] = page.Licences[0]?.Devices ?? [];
        // Read again after the change: the device is deactivated, its button gone.
        if (reads > 1 && imac)
          Object.assign(imac, { DeactivatedAt: '2026-01-09T10:00:00.000Z', DeactivationCause: 'operator' });
        return { Result: page };
      },
      '/api/admin/deactivate-device': () => ({
        Result: { Device: 'Studio iMac', Product: 'sid-reference', Customer: 'carla@example.com' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Deactivate Studio iMac' }));
    const dialog = screen.getByRole('dialog', { name: 'Deactivate Studio iMac' });
    await user.type(within(dialog).getByLabelText('Reason or ticket'), 'Ticket 4712: sold the machine');
    await user.click(within(dialog).getByRole('button', { name: 'Deactivate' }));
    const done = await screen.findByRole('status');
    await waitFor(() => expect(screen.queryByRole('button', { name: 'Deactivate Studio iMac' })).toBeNull());
    expect(done).toHaveFocus();
  });

  it('support undoes a lost report with a reason; the page is read again', async () => {
    const { api, user } = openCustomer(['support'], {
      '/api/admin/undo-lost-report': () => ({
        Result: { Device: 'Stolen MacBook', Product: 'sid-reference', Customer: 'carla@example.com' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Undo the lost report of Stolen MacBook' }));
    const dialog = screen.getByRole('dialog', { name: 'Undo the lost report of Stolen MacBook' });
    await user.type(within(dialog).getByLabelText('Reason or ticket'), 'found at the venue, ticket 9');
    await user.click(within(dialog).getByRole('button', { name: 'Undo the report' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Stolen MacBook (sid-reference) may use its licence again.',
    );
    expect(api.to('/api/admin/undo-lost-report')[0]?.body).toEqual({
      deviceId: '20000000-0000-4000-8000-000000000003',
      reason: 'found at the venue, ticket 9',
    });
    await waitFor(() => expect(api.to('/api/admin/user')).toHaveLength(2));
  });

  it("shows the service's refusal in the dialog as it came, and Cancel sends nothing", async () => {
    const { api, user } = openCustomer(['finance'], {
      '/api/admin/withdraw-tokens': () => ({
        Fault: 'TokenWithdrawalExceedsBalance',
        text: 'The customer holds fewer tokens than that.',
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Withdraw tokens' }));
    let dialog = screen.getByRole('dialog', { name: 'Withdraw tokens' });
    await user.type(within(dialog).getByLabelText('Tokens'), '5000');
    await user.type(within(dialog).getByLabelText('Reason or ticket'), 'chargeback 12');
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    expect(await within(dialog).findByRole('alert')).toHaveTextContent('The customer holds fewer tokens than that.');
    const first = api.to('/api/admin/withdraw-tokens')[0]?.body as Record<string, unknown>;
    expect(first).toEqual({
      email: 'carla@example.com',
      amount: 5000,
      reference: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reason: 'chargeback 12',
    });
    // A second try in the same opening is the same change: the same reference, applied once.
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(api.to('/api/admin/withdraw-tokens')).toHaveLength(2));
    expect(api.to('/api/admin/withdraw-tokens')[1]?.body).toEqual(first);

    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByRole('button', { name: 'Withdraw tokens' })).toHaveFocus();
    // A new opening is a new change; a typed ticket is the reference.
    await user.click(screen.getByRole('button', { name: 'Withdraw tokens' }));
    dialog = screen.getByRole('dialog', { name: 'Withdraw tokens' });
    await user.type(within(dialog).getByLabelText('Tokens'), '5');
    await user.type(within(dialog).getByLabelText('Reason or ticket'), 'chargeback 13');
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(api.to('/api/admin/withdraw-tokens')).toHaveLength(3));
    expect(api.to('/api/admin/withdraw-tokens')[2]?.body).toMatchObject({ amount: 5 });
    expect(api.to('/api/admin/withdraw-tokens')[2]?.body).not.toMatchObject({ reference: first.reference });
    await user.type(within(dialog).getByLabelText('Reference (optional)'), ' T-4711 ');
    await user.click(within(dialog).getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(api.to('/api/admin/withdraw-tokens')).toHaveLength(4));
    expect(api.to('/api/admin/withdraw-tokens')[3]?.body).toMatchObject({ reference: 'T-4711' });
    await user.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await user.click(screen.getByRole('button', { name: 'Grant tokens' }));
    dialog = screen.getByRole('dialog', { name: 'Grant tokens' });
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(api.to('/api/admin/grant-tokens')).toHaveLength(0);
  });

  it('grants tokens that expire sooner when days are given, and checks them first', async () => {
    const { api, user } = openCustomer(['finance'], {
      '/api/admin/grant-tokens': () => ({ Result: { Credited: true, Amount: 1200, TokenBalance: 1200 } }),
    });
    await user.click(await screen.findByRole('button', { name: 'Grant tokens' }));
    const dialog = screen.getByRole('dialog', { name: 'Grant tokens' });
    await user.type(within(dialog).getByLabelText('Tokens'), '1200');
    const days = within(dialog).getByLabelText(/^Valid for days/);
    await user.type(days, '400');
    await user.type(within(dialog).getByLabelText('Reason or ticket'), 'promo P-7');
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give the days as a whole number from 1 to 365');
    expect(api.to('/api/admin/grant-tokens')).toHaveLength(0);
    await user.clear(days);
    await user.type(days, '10');
    await user.click(within(dialog).getByRole('button', { name: 'Grant' }));
    expect(await screen.findByRole('status')).toHaveTextContent('1200 tokens granted; balance 1200.');
    expect(api.to('/api/admin/grant-tokens')[0]?.body).toMatchObject({ amount: 1200, expiresInDays: 10 });
  });

  it('moves a licence only with the whole key typed', async () => {
    const { api, user } = openCustomer(['support'], {
      '/api/admin/move-licence': () => ({
        Result: { Product: 'sid-reference', From: 'carla@example.com', To: 'dan@example.com' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Move licence …ABC123 to another account' }));
    const dialog = screen.getByRole('dialog');
    await user.type(within(dialog).getByLabelText('Licence key in full'), 'ABC123');
    await user.type(within(dialog).getByLabelText('To the account of (e-mail)'), 'dan@example.com');
    await user.type(within(dialog).getByLabelText('Reason or ticket'), 'bought under the wrong address');
    await user.click(within(dialog).getByRole('button', { name: 'Move licence' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Type the whole key ending in ABC123.');
    expect(api.to('/api/admin/move-licence')).toHaveLength(0);

    await user.clear(within(dialog).getByLabelText('Licence key in full'));
    await user.type(within(dialog).getByLabelText('Licence key in full'), 'aaaaaa-bbbbbb-cccccc-abc123');
    await user.click(within(dialog).getByRole('button', { name: 'Move licence' }));
    expect(await screen.findByRole('status')).toHaveTextContent('sid-reference moved to dan@example.com.');
    expect(api.to('/api/admin/move-licence')[0]?.body).toEqual({
      key: 'aaaaaa-bbbbbb-cccccc-abc123',
      toEmail: 'dan@example.com',
      reason: 'bought under the wrong address',
    });
  });
});

describe("the customer page's storefront orders", () => {
  const order = (name: string, overrides: Partial<CallResult<'AdminUser'>['StorefrontOrders'][number]> = {}) => ({
    OrderId: `82098291194615${name.slice(1)}`,
    Name: name,
    Email: 'carla@example.com',
    Status: 'granted' as const,
    Quantity: 2,
    RefundedQuantity: 0,
    Account: 'carla@example.com',
    IsTest: false,
    CreatedAt: '2026-01-07T10:00:00.000Z',
    ReceiptUrl: null,
    Keys: [{ Key: 'AAAAAA-BBBBBB-CCCCCC-DDDDDD', RegisteredTo: 'carla@example.com', Revoked: false }],
    ...overrides,
  });
  const withOrders = {
    '/api/admin/user': () => ({
      Result: {
        ...customerPage(),
        StorefrontOrders: [order('#1001'), order('#1002', { Status: 'refunded', RefundedQuantity: 2 })],
      },
    }),
  };

  it('finance refunds an order with licences left, with a reason; support sees no Refund', async () => {
    const support = openCustomer(['support'], withOrders);
    await screen.findByRole('heading', { level: 2, name: 'Storefront orders' });
    expect(screen.queryByRole('button', { name: 'Refund order #1001' })).toBeNull();
    support.unmount();

    const { api, user } = openCustomer(['finance'], {
      ...withOrders,
      '/api/admin/refund-storefront-order': () => ({
        Result: { OrderId: '820982911946151001', Name: '#1001', Quantity: 2, RefundedQuantity: 1, Status: 'granted' },
      }),
    });
    await user.click(await screen.findByRole('button', { name: 'Refund order #1001' }));
    // Every licence of #1002 is refunded: nothing to refund there.
    expect(screen.queryByRole('button', { name: 'Refund order #1002' })).toBeNull();
    const dialog = screen.getByRole('dialog', { name: 'Refund order #1001' });
    expect(dialog).toHaveTextContent('2 licences can be refunded.');
    const licences = within(dialog).getByLabelText('Licences (empty: all 2 left)');
    await user.type(licences, '3');
    await user.type(within(dialog).getByLabelText('Reason or ticket'), 'ticket F-7: asked within 30 days');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(within(dialog).getByRole('alert')).toHaveTextContent('Give a whole number of licences from 1 to 2');
    expect(api.to('/api/admin/refund-storefront-order')).toHaveLength(0);

    await user.clear(licences);
    await user.type(licences, '1');
    await user.click(within(dialog).getByRole('button', { name: 'Refund' }));
    expect(await screen.findByRole('status')).toHaveTextContent(
      'Order #1001 refunded: 1 of 2 licences refunded in all.',
    );
    expect(api.to('/api/admin/refund-storefront-order')[0]?.body).toEqual({
      order: '820982911946151001',
      quantity: 1,
      reference: expect.stringMatching(/^[0-9a-f-]{36}$/),
      reason: 'ticket F-7: asked within 30 days',
    });
    await waitFor(() => expect(api.to('/api/admin/user')).toHaveLength(2));
  });
});
