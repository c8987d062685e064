import type { LicenceTransferOffer } from '@soundid/contracts';
import { screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { notificationsStore } from '../../../lib/notifications';
import { fault, inSequence, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { LIST_PATH, licenceList, licenseKey, referenceProduct } from '../licence-list.fixture';

/** Passing a licence on (docs/decisions/0054-licence-transfer.md): the owner's panel and the recipient's page. */

// The page and its panels are lazy chunks: a cold first import on a busy machine takes seconds.
vi.setConfig({ testTimeout: 20_000 });
beforeEach(() => window.history.replaceState(null, '', '/'));
const notices = () => notificationsStore.get().map((n) => `${n.type}: ${n.content}`);

const EXPIRES = `/Date(${Date.UTC(2026, 0, 22, 12)})/`;
const withOffer = () =>
  licenceList({
    products: [
      referenceProduct({
        LicenseKeys: [
          { ...licenseKey('AB12CD'), Transfer: { TransferId: 't-1', Email: 'bea@example.com', ExpiresAt: EXPIRES } },
        ],
      }),
    ],
  });
const oneKey = () => licenceList({ products: [referenceProduct({ LicenseKeys: [licenseKey('AB12CD')] })] });

async function openPanel() {
  window.history.replaceState(null, '', '/products#transfer-SoundIDReference');
  const app = renderApp('/products', { user: testUser });
  const panel = await screen.findByRole('region', { name: /^Pass .* on$/ });
  return { ...app, panel };
}

describe('the transfer panel', () => {
  it('checks the address, shows a refusal in the panel, then sends the offer and shows it pending', async () => {
    const sent = `We emailed bea@example.com a link to accept this license. The offer is valid for 7 days; until then you can cancel it.`;
    const api = mockApi({
      [LIST_PATH]: inSequence(ok(oneKey()), ok(withOffer())),
      '/api/licenses/StartLicenceTransfer': inSequence(
        fault('LicenceTransferToSelf', {
          ExceptionCode: 409,
          ExceptionUserText: 'This license key is already in the account with that email address.',
        }),
        ok({ TransferId: 't-1', Email: 'bea@example.com', ExpiresAt: EXPIRES, Message: sent }),
      ),
    });
    const { user, panel } = await openPanel();
    const field = within(panel).getByLabelText('Their email address');
    await user.type(field, 'not an address');
    await user.click(within(panel).getByRole('button', { name: 'Send the offer' }));
    expect(within(panel).getByText('Email address is not in a correct format.')).toBeInTheDocument();
    expect(api.callsTo('StartLicenceTransfer')).toHaveLength(0);

    await user.clear(field);
    await user.type(field, ' bea@example.com ');
    await user.click(within(panel).getByRole('button', { name: 'Send the offer' }));
    expect(
      await within(panel).findByText('This license key is already in the account with that email address.'),
    ).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Send the offer' }));
    await waitFor(() => expect(notices()).toContain(`success: ${sent}`));
    expect(api.callsTo('StartLicenceTransfer').map((c) => c.body)).toEqual([
      { key: '******-******-******-AB12CD', email: 'bea@example.com', silent: true },
      { key: '******-******-******-AB12CD', email: 'bea@example.com', silent: true },
    ]);
    expect(await within(panel).findByText('Offered to bea@example.com, until 22/01/2026.')).toBeInTheDocument();
  });

  it('cancels a pending offer; a lost race shows its reason and reloads the list', async () => {
    const api = mockApi({
      [LIST_PATH]: inSequence(ok(withOffer()), ok(withOffer()), ok(oneKey())),
      '/api/licenses/CancelLicenceTransfer': inSequence(
        fault('LicenceTransferNotPending', {
          ExceptionCode: 409,
          ExceptionUserText: 'This offer was already accepted or cancelled.',
        }),
        ok({ Message: 'The offer was cancelled: the license stays with you.' }),
      ),
    });
    const { user, panel } = await openPanel();
    await user.click(within(panel).getByRole('button', { name: 'Cancel the offer' }));
    expect(await within(panel).findByText('This offer was already accepted or cancelled.')).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Cancel the offer' }));
    await waitFor(() => expect(notices()).toContain('success: The offer was cancelled: the license stays with you.'));
    expect(api.callsTo('CancelLicenceTransfer').map((c) => c.body)).toEqual([
      { transferId: 't-1', silent: true },
      { transferId: 't-1', silent: true },
    ]);
    expect(await within(panel).findByLabelText('Their email address')).toBeInTheDocument();
  });

  it('offers nothing for a licence traded in for an upgrade', async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList({ products: [referenceProduct({ LicenseKeys: [licenseKey('AB12CD', true)] })] })),
    });
    const { panel } = await openPanel();
    expect(within(panel).getByText('This license has already been used for an upgrade.')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Send the offer' })).toBeNull();
  });
});

describe('the recipient’s page', () => {
  const offer = (State: LicenceTransferOffer['State'] = 'pending'): LicenceTransferOffer => ({
    DisplayName: 'SoundID Reference for Speakers & Headphones',
    ProductName: 'SoundIDReference',
    FormattedKey: '******-******-******-AB12CD',
    FromEmail: 'a***@e***.com',
    ToEmail: 'a***@e***.com',
    ExpiresAt: EXPIRES,
    State,
  });

  it('shows the offer; a refusal stays on the page; accepting notifies and opens the licences', async () => {
    const api = mockApi({
      '/api/licenses/GetLicenceTransfer': ok(offer()),
      '/api/licenses/AcceptLicenceTransfer': inSequence(
        fault('LicenceTransferWrongAccount', {
          ExceptionCode: 403,
          ExceptionUserText: 'This offer was sent to another email address. Sign in with that address to accept it.',
        }),
        ok({
          Message: 'SoundID Reference for Speakers & Headphones is now in your account.',
          DisplayName: 'SoundID Reference for Speakers & Headphones',
          ProductName: 'SoundIDReference',
          FormattedKey: '******-******-******-AB12CD',
        }),
      ),
      [LIST_PATH]: ok(oneKey()),
    });
    const { user, router } = renderApp('/license-transfer/link-token-1', { user: testUser });
    expect(
      await screen.findByText('a***@e***.com offers you their SoundID Reference for Speakers & Headphones license.'),
    ).toBeInTheDocument();
    expect(screen.getByText('The offer is valid until 22/01/2026.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept the license' }));
    expect(
      await screen.findByText('This offer was sent to another email address. Sign in with that address to accept it.'),
    ).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Accept the license' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/products'));
    expect(notices()).toContain('success: SoundID Reference for Speakers & Headphones is now in your account.');
    expect(api.callsTo('AcceptLicenceTransfer').map((c) => c.body)).toEqual([
      { token: 'link-token-1', silent: true },
      { token: 'link-token-1', silent: true },
    ]);
  });

  it('says why an offer is no longer open, without Accept', async () => {
    mockApi({ '/api/licenses/GetLicenceTransfer': ok(offer('expired')) });
    renderApp('/license-transfer/link-token-2', { user: testUser });
    expect(
      await screen.findByText('This offer has expired. Ask the sender to pass the license on again.'),
    ).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Accept the license' })).toBeNull();
  });

  it('sends a signed-out visitor to sign in first, and back here afterwards', async () => {
    mockApi({});
    const { router } = renderApp('/license-transfer/link-token-3');
    await waitFor(() => expect(router.state.location.pathname).not.toBe('/license-transfer/link-token-3'));
    expect(decodeURIComponent(router.state.location.search)).toContain('/license-transfer/link-token-3');
  });
});

describe('offers to the customer’s address on Licenses & Devices (ADR 0054, addendum)', () => {
  const incoming = {
    TransferId: '6f1c2f0e-8a8e-4a53-9d8e-2b1f3c4d5e6f',
    DisplayName: 'SoundID Reference for Speakers & Headphones',
    ProductName: 'SoundIDReference',
    FormattedKey: '******-******-******-AB12CD',
    FromEmail: 'a***@e***.com',
    ExpiresAt: EXPIRES,
  };
  /** The acceptance's answer, and the licence list before it (empty) and after it (the key). */
  const acceptingIt = () => ({
    '/api/licenses/AcceptIncomingLicenceTransfer': ok({
      Message: 'SoundID Reference for Speakers & Headphones is now in your account.',
      DisplayName: incoming.DisplayName,
      ProductName: incoming.ProductName,
      FormattedKey: incoming.FormattedKey,
    }),
    [LIST_PATH]: inSequence(ok(licenceList({ products: [] })), ok(oneKey())),
  });

  it('lists an open offer and accepts it by its id; the list and the offers are read again', async () => {
    const api = mockApi({
      '/api/licenses/GetIncomingLicenceTransfers': inSequence(ok({ Offers: [incoming] }), ok({ Offers: [] })),
      ...acceptingIt(),
    });
    const { user } = renderApp('/products', { user: testUser });
    const region = await screen.findByRole('region', { name: 'Licenses offered to you' });
    expect(
      within(region).getByText(
        'a***@e***.com offers you their SoundID Reference for Speakers & Headphones license (******-******-******-AB12CD), until 22/01/2026.',
      ),
    ).toBeInTheDocument();
    await user.click(
      within(region).getByRole('button', { name: 'Accept SoundID Reference for Speakers & Headphones' }),
    );
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Licenses offered to you' })).toBeNull());
    expect(notices()).toContain('success: SoundID Reference for Speakers & Headphones is now in your account.');
    expect(api.callsTo('AcceptIncomingLicenceTransfer').map((c) => c.body)).toEqual([
      { transferId: incoming.TransferId, silent: true },
    ]);
    expect(api.callsTo('GetAccountLicensesByProductLine').length).toBeGreaterThanOrEqual(2);
  });

  it('takes the accepted offer off the list at once, before the offers are read again', async () => {
    // The offers' second read is held: the licence it brought is drawn while it is still out.
    let releaseOffers: (() => void) | undefined;
    const heldOffers = new Promise<void>((resolve) => {
      releaseOffers = resolve;
    });
    let offerReads = 0;
    mockApi({
      '/api/licenses/GetIncomingLicenceTransfers': async () => {
        if (offerReads++ === 0) return ok({ Offers: [incoming] });
        await heldOffers;
        return ok({ Offers: [] });
      },
      ...acceptingIt(),
    });
    const { user } = renderApp('/products', { user: testUser });
    const region = await screen.findByRole('region', { name: 'Licenses offered to you' });
    await user.click(
      within(region).getByRole('button', { name: 'Accept SoundID Reference for Speakers & Headphones' }),
    );
    await screen.findByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    expect(offerReads).toBe(2);
    expect(screen.queryByRole('region', { name: 'Licenses offered to you' })).toBeNull();
    releaseOffers?.();
  });

  it('shows nothing when no offer waits', async () => {
    mockApi({ '/api/licenses/GetIncomingLicenceTransfers': ok({ Offers: [] }), [LIST_PATH]: ok(oneKey()) });
    renderApp('/products', { user: testUser });
    await screen.findByRole('heading', { name: /Licenses/ });
    expect(screen.queryByRole('region', { name: 'Licenses offered to you' })).toBeNull();
  });
});
