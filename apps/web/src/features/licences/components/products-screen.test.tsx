import { act, screen, waitFor, within } from '@testing-library/react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import * as browserLocation from '../../../lib/browser-location';
import { notificationsStore } from '../../../lib/notifications';
import * as textFile from '../../../lib/save-text-file';
import { fault, inSequence, mockApi, ok, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import {
  backendAction,
  deeplink,
  LIST_PATH,
  licenceList,
  licenseKey,
  link,
  referenceProduct,
  voiceAi,
} from '../licence-list.fixture';

/** The page reads a panel's id from the window's URL hash (jsdom's), as after a reload. */
async function openProducts(path = '/products', config = {}) {
  const [pathname = '/products', hash = ''] = path.split('#');
  window.history.replaceState(null, '', hash ? `${pathname}#${hash}` : pathname);
  const app = renderApp(pathname, { user: testUser, config });
  await screen.findByRole('heading', { level: 2, name: 'SoundID Reference' });
  return app;
}

// The page and its panels are lazy chunks: a cold first import on a busy machine takes seconds.
vi.setConfig({ testTimeout: 20_000 });

beforeEach(() => window.history.replaceState(null, '', '/'));

const notices = () => notificationsStore.get().map((n) => `${n.type}: ${n.content}`);
const productCard = (name: string) => screen.getByRole('listitem', { name });

describe('Licenses & Devices page', () => {
  it('loads, then shows the voice AI and reference sections with their parts', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    renderApp('/products', { user: testUser });
    expect(await screen.findByText('Loading your licenses and devices…')).toBeInTheDocument();
    await screen.findByRole('heading', { level: 2, name: 'SoundID VoiceAI' });
    await waitFor(() => expect(document.title).toBe('My SoundID | Licenses & Devices'));
    expect(screen.getByRole('link', { name: 'Register a new license' })).toHaveAttribute('href', '/add-license');

    const reference = productCard('SoundID Reference for Speakers & Headphones');
    expect(within(reference).getByText('Speaker calibration with a measurement microphone')).toBeInTheDocument();
    expect(within(reference).getByText('Calibration profiles for 280+ headphone models')).toBeInTheDocument();
    expect(within(reference).getByRole('button', { name: '2 of 3 devices activated' })).toHaveAttribute(
      'aria-expanded',
      'false',
    );
    expect(within(reference).getByRole('button', { name: 'Remove license' })).toBeInTheDocument();
    expect(within(reference).getByRole('link', { name: /Getting started/ })).toHaveAttribute('target', '_blank');
    expect(
      within(productCard('Reference 4 Headphone Edition')).getByRole('button', { name: '0 of 2 devices activated' }),
    );

    expect(screen.getByText('******-******-******-VOICE1')).toBeInTheDocument();
    expect(screen.getByText('Perpetual mode: unlimited processing.')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Buy tokens' })).toHaveAttribute('href', '/products/voice-ai');
    expect(screen.getByRole('link', { name: 'Transaction history' })).toHaveAttribute('href', '/products/transactions');
    expect(screen.getAllByRole('link', { name: 'Download' })).toHaveLength(2);
    expect(screen.getByRole('button', { name: 'Manage devices (1)' })).toBeInTheDocument();
  });

  it("says 'Failed to fetch product list' with the code when the list call fails", async () => {
    mockApi({ [LIST_PATH]: fault('ServiceUnavailable', { ExceptionCode: 503 }) });
    renderApp('/products', { user: testUser });
    expect(await screen.findByRole('alert')).toHaveTextContent('Failed to fetch product list (code 503)');
  });

  it('shows notifications in three tones and hides actions of unsupported deeplinks', async () => {
    const product = referenceProduct({
      Notifications: [
        {
          Message: 'Your trial has ended.',
          Importance: 'High',
          Action: link('Buy now', 'https://store.example', 'Buy'),
        },
        { Message: 'Your trial ends in 3 days.', Importance: 'Medium', Action: deeplink('Extend', 'x-extend') },
        { Message: 'This license has been upgraded.', Importance: 'Low', Action: null },
      ],
    });
    mockApi({ [LIST_PATH]: ok(licenceList({ products: [product] })) });
    await openProducts();
    const list = within(productCard(product.DisplayName)).getByRole('list', { name: 'Notices' });
    const items = within(list).getAllByRole('listitem');
    expect(items.map((i) => i.className)).toEqual([
      'licence-notice licence-notice--high',
      'licence-notice licence-notice--medium',
      'licence-notice licence-notice--low',
    ]);
    expect(within(items[0] as HTMLElement).getByRole('link', { name: /Buy now/ })).toBeInTheDocument();
    expect(within(items[1] as HTMLElement).queryByRole('button')).toBeNull();
  });

  it('offers Buy Perpetual mode or tokens without a perpetual key, and no Manage devices when not manageable', async () => {
    mockApi({
      [LIST_PATH]: ok(
        licenceList({
          voice: voiceAi({
            OfflineLicenseKey: null,
            IsManageable: false,
            ActionButtons: [link('Download', '/download-center')],
            StatusWarning: 'Your free trial has ended.',
          }),
        }),
      ),
    });
    await openProducts();
    expect(screen.getByRole('link', { name: 'Buy Perpetual mode or tokens' })).toHaveAttribute(
      'href',
      '/products/voice-ai',
    );
    expect(screen.queryByRole('link', { name: 'Buy tokens' })).toBeNull();
    expect(screen.queryByRole('button', { name: /Manage devices/ })).toBeNull();
    expect(screen.queryByRole('button', { name: 'Remove Perpetual' })).toBeNull();
    expect(screen.getByText('Your free trial has ended.')).toBeInTheDocument();
  });
});

describe('voice AI activation button', () => {
  it('is the first enabled DeepLink with a recognised server action; invokes it once, then opens the activate page', async () => {
    let release: () => void = () => {};
    const api = mockApi({
      [LIST_PATH]: ok(
        licenceList({
          voice: voiceAi({
            ActionButtons: [
              deeplink('Disabled', 'voice-ai-activate', { IsEnabled: false }),
              deeplink('No action', null),
              deeplink('Extend', 'voice-ai-extend'),
              deeplink('Start 7-day free trial', 'voice-ai-starttrial'),
              deeplink('Open later', 'voice-ai-activate'),
              link('Download', '/download-center'),
            ],
          }),
        }),
      ),
      '/api/actions/test/voice-ai-starttrial': async () => {
        await new Promise<void>((resolve) => (release = resolve));
        return ok({ Message: 'Trial activated successfully' });
      },
    });
    const { user, router } = await openProducts();
    for (const other of ['Disabled', 'No action', 'Extend', 'Open later']) {
      expect(screen.queryByRole('button', { name: other })).toBeNull();
    }
    const button = screen.getByRole('button', { name: 'Start 7-day free trial' });
    await user.click(button);
    await user.click(button);
    await user.click(button);
    release();
    await waitFor(() => expect(router.state.location.pathname).toBe('/products/voice-ai/activate'));
    expect(api.callsTo('voice-ai-starttrial')).toHaveLength(1);
    expect(api.callsTo('voice-ai-starttrial')[0]?.method).toBe('GET');
    expect(api.callsTo('voice-ai-starttrial')[0]?.headers.get('Software')).toMatch(/^MySoundID-Web\//);
    const params = new URLSearchParams(router.state.location.search);
    expect(params.get('deeplink')).toBe('soundid://voice-ai-starttrial?product=X');
    expect(params.get('activationType')).toBe('trial');
    expect(await screen.findByRole('heading', { level: 1, name: 'How to activate SoundID VoiceAI' })).toBeVisible();
  });

  it('stays on the page with the fault when the server action fails', async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/actions/test/voice-ai-activate': fault('NoLicenseForProduct'),
    });
    const { user, router } = await openProducts();
    await user.click(screen.getByRole('button', { name: 'Open SoundID VoiceAI' }));
    expect(await screen.findByText(/You have no license for this product/)).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/products');
  });
});

describe('panels', () => {
  it('are mutually exclusive, each named by the URL hash, and a reload with the hash reopens one', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    const { user } = await openProducts();
    const reference = productCard('SoundID Reference for Speakers & Headphones');
    await user.click(within(reference).getByRole('button', { name: '2 of 3 devices activated' }));
    expect(window.location.hash).toBe('#devices-SoundIDReference');
    expect(
      screen.getByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' }),
    ).toBeVisible();

    await user.click(within(reference).getByRole('button', { name: 'Upgrade' }));
    expect(window.location.hash).toBe('#upgrade-SoundIDReference');
    expect(screen.queryByRole('region', { name: /^Devices of/ })).toBeNull();
    expect(screen.getByRole('region', { name: 'Upgrade SoundID Reference for Speakers & Headphones' })).toBeVisible();

    await user.click(screen.getByRole('button', { name: 'Manage devices (1)' }));
    expect(window.location.hash).toBe('#devices-voice-ai');
    expect(screen.queryByRole('region', { name: /^Upgrade SoundID/ })).toBeNull();
    expect(screen.getAllByRole('region', { name: /^Devices of/ })).toHaveLength(1);

    await user.click(screen.getByRole('button', { name: 'Manage devices (1)' }));
    expect(window.location.hash).toBe('');
    expect(screen.queryByRole('region', { name: /^Devices of/ })).toBeNull();
  });

  it('opens the panel named in the hash on arrival', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()), KeyUpgradePaths: ok({ LinksToStore: [] }) });
    await openProducts('/products#remove-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Remove Reference 4 Headphone Edition' });
    expect(within(panel).getByRole('heading', { name: 'Remove Reference 4 Headphone Edition' })).toHaveFocus();
  });

  it('closes a panel with Escape and gives the focus back to its toggle', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    const { user } = await openProducts();
    const reference = productCard('SoundID Reference for Speakers & Headphones');
    const toggle = within(reference).getByRole('button', { name: '2 of 3 devices activated' });
    await user.click(toggle);
    const panel = screen.getByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' });
    expect(within(panel).getByRole('heading', { level: 3 })).toHaveFocus();
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('region', { name: /^Devices of/ })).toBeNull();
    expect(window.location.hash).toBe('');
    expect(toggle).toHaveFocus();
  });

  it('follows the hash when it changes on the page (a link pasted, Back over a typed hash)', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    await openProducts();
    act(() => {
      window.history.pushState(null, '', '/products#devices-SoundIDReference');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    expect(
      await screen.findByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' }),
    ).toBeVisible();
    act(() => {
      window.history.pushState(null, '', '/products');
      window.dispatchEvent(new HashChangeEvent('hashchange'));
    });
    await waitFor(() => expect(screen.queryByRole('region', { name: /^Devices of/ })).toBeNull());
  });
});

describe('devices panel', () => {
  it('deactivates in two steps, with Cancel; then reloads, notifies and closes', async () => {
    const after = licenceList({
      products: [referenceProduct({ InstancesUsed: 1, Devices: [referenceProduct().Devices[1]!] })],
    });
    const api = mockApi({
      [LIST_PATH]: inSequence(ok(licenceList()), ok(after)),
      '/api/actions/devices/d-imac/deactivate': ok({ Message: 'Studio iMac deactivated successfully.' }),
    });
    const { user } = await openProducts('/products#devices-SoundIDReference');
    const panel = await screen.findByRole('region', { name: /^Devices of/ });
    const rows = within(panel).getAllByRole('row');
    expect(rows.map((r) => r.textContent)).toEqual([
      'Device nameRegisteredActions',
      expect.stringContaining('Studio iMac15/01/2026'),
      expect.stringContaining('MacBook Pro15/01/2026'),
    ]);

    await user.click(within(panel).getByRole('button', { name: 'Deactivate Studio iMac' }));
    const ask = within(panel).getByRole('group', { name: /Deactivate Studio iMac\?/ });
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).queryByRole('group')).toBeNull();
    expect(api.callsTo('deactivate')).toHaveLength(0);

    await user.click(within(panel).getByRole('button', { name: 'Deactivate Studio iMac' }));
    await user.click(within(panel).getByRole('button', { name: 'Yes, deactivate' }));
    await waitFor(() => expect(notices()).toEqual(['success: Studio iMac deactivated successfully.']));
    expect(api.callsTo('deactivate')[0]?.method).toBe('GET');
    expect(window.location.hash).toBe('');
    expect(await screen.findByRole('button', { name: '1 of 3 devices activated' })).toBeInTheDocument();
    expect(api.callsTo('GetAccountLicensesByProductLine')).toHaveLength(2);
  });

  it('explains the deactivation limit with a Learn more link', async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/actions/devices/d-imac/deactivate': fault('KeyRevokeOverLimit', { ExceptionCode: 429 }),
    });
    const { user } = await openProducts('/products#devices-SoundIDReference');
    const panel = await screen.findByRole('region', { name: /^Devices of/ });
    await user.click(within(panel).getByRole('button', { name: 'Deactivate Studio iMac' }));
    await user.click(within(panel).getByRole('button', { name: 'Yes, deactivate' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('You have reached license deactivation limit.');
    expect(within(alert).getByRole('link', { name: /Learn more/ })).toHaveAttribute(
      'href',
      expect.stringContaining('support'),
    );
    expect(notices()).toEqual([]);
  });

  it('says under each name what the app said of itself and when it last checked in (ADR 0049)', async () => {
    const [imac, macbook] = referenceProduct().Devices;
    const seen = Date.now() - (3 * 24 + 1) * 60 * 60 * 1000;
    const api = mockApi({
      '/api/licenses/GetDeactivationAllowance': ok({
        DeactivationsLeft: 2,
        DeactivationsAllowed: 10,
        NextDeactivationReturns: `/Date(${Date.UTC(2027, 2, 3, 12)})/`,
        IdleReleaseDays: 60,
      }),
      [LIST_PATH]: ok(
        licenceList({
          products: [
            referenceProduct({
              Devices: [
                { ...imac!, LastSeen: `/Date(${seen})/`, AppVersion: '5.12.1', Os: 'macOS 14.5' },
                { ...macbook!, LastSeen: null, AppVersion: null, Os: null },
              ],
            }),
          ],
        }),
      ),
    });
    await openProducts('/products#devices-SoundIDReference');
    const panel = await screen.findByRole('region', { name: /^Devices of/ });
    const [, first, second] = within(panel).getAllByRole('row');
    expect(within(first!).getByRole('rowheader')).toHaveTextContent(
      'Studio iMac version 5.12.1 on macOS 14.5 · last seen 3 days ago',
    );
    // Never seen since it was recorded: the name alone.
    expect(within(second!).getByRole('rowheader').textContent).toBe('MacBook Pro');
    // The allowance in plain sight, read when the panel opens (ADR 0030).
    expect(await within(panel).findByText('2 of 10 deactivations left; the next returns on 3 Mar 2027')).toBeVisible();
    // And the idle-seat rule (ADR 0052).
    expect(
      within(panel).getByText(
        'A computer not seen for 60 days is signed out by itself, without using a deactivation; it gets its seat back when it checks in again, if one is free.',
      ),
    ).toBeVisible();
    expect(api.callsTo('GetDeactivationAllowance')[0]?.body).toEqual({ productName: 'SoundIDReference', silent: true });
  });

  it('reports a machine lost or stolen with its reason and note; a refusal shows in the panel (ADR 0050)', async () => {
    const after = licenceList({
      products: [referenceProduct({ InstancesUsed: 1, Devices: [referenceProduct().Devices[1]!] })],
    });
    const api = mockApi({
      [LIST_PATH]: inSequence(ok(licenceList()), ok(after)),
      '/api/licenses/ReportDeviceLost': inSequence(
        fault('LostReportLimitReached', { ExceptionCode: 409 }),
        ok({
          Message: 'Studio iMac was reported lost or stolen: its seat is free, and it can no longer use this license.',
        }),
      ),
    });
    const { user } = await openProducts('/products#devices-SoundIDReference');
    const panel = await screen.findByRole('region', { name: /^Devices of/ });
    await user.click(within(panel).getByRole('button', { name: 'Report lost or stolen: Studio iMac' }));
    const ask = within(panel).getByRole('group', { name: /Report Studio iMac lost or stolen\?/ });
    // Cancel sends nothing.
    await user.click(within(ask).getByRole('button', { name: 'Cancel' }));
    expect(api.callsTo('ReportDeviceLost')).toHaveLength(0);

    await user.click(within(panel).getByRole('button', { name: 'Report lost or stolen: Studio iMac' }));
    await user.click(within(panel).getByRole('radio', { name: 'It was stolen' }));
    await user.type(within(panel).getByLabelText('Anything support should know (optional)'), ' police report 7 ');
    await user.click(within(panel).getByRole('button', { name: 'Report and free the seat' }));
    expect(await within(panel).findByText(/already reported 2 devices of this license/)).toBeInTheDocument();
    expect(notices()).toEqual([]);

    await user.click(within(panel).getByRole('button', { name: 'Report and free the seat' }));
    await waitFor(() =>
      expect(notices()).toEqual([
        'success: Studio iMac was reported lost or stolen: its seat is free, and it can no longer use this license.',
      ]),
    );
    expect(api.callsTo('ReportDeviceLost').map((c) => c.body)).toEqual([
      { deviceId: 'd-imac', reason: 'stolen', note: 'police report 7', silent: true },
      { deviceId: 'd-imac', reason: 'stolen', note: 'police report 7', silent: true },
    ]);
    expect(await screen.findByRole('button', { name: '1 of 3 devices activated' })).toBeInTheDocument();
  });

  it('says so when no device is active, with a guide link', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    await openProducts('/products#devices-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: /^Devices of/ });
    expect(panel).toHaveTextContent('No devices active yet. Once you activate a device, it will appear here.');
    expect(within(panel).getByRole('link', { name: /How to activate a device/ })).toBeInTheDocument();
  });
});

describe('upgrade panel', () => {
  const upgradeList = () =>
    licenceList({
      products: [
        referenceProduct({
          DisplayName: 'Reference 4 Headphone Edition',
          ProductName: 'Reference4Headphone',
          LicenseKeys: [licenseKey('R4HP01')],
        }),
      ],
    });

  it('auto-selects a single licence, lists store upgrades, and keeps submit disabled until the code is valid', async () => {
    const api = mockApi({
      [LIST_PATH]: ok(upgradeList()),
      KeyUpgradePaths: ok({
        LinksToStore: [
          {
            Name: 'SoundID Reference',
            Description: 'The current version.',
            Link: 'https://store/up',
            ButtonText: 'Upgrade for $39',
          },
        ],
      }),
    });
    const { user } = await openProducts('/products#upgrade-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    expect(within(panel).getByRole('combobox', { name: 'License' })).toHaveValue('******-******-******-R4HP01');
    expect(await within(panel).findByRole('link', { name: /Upgrade for \$39/ })).toHaveAttribute(
      'href',
      'https://store/up',
    );
    expect(api.callsTo('KeyUpgradePaths')[0]?.body).toEqual({ key: '******-******-******-R4HP01' });

    const submit = within(panel).getByRole('button', { name: 'Apply upgrade code' });
    const field = within(panel).getByLabelText('Upgrade code');
    expect(submit).toBeDisabled();
    await user.type(field, 'UPG-12');
    expect(submit).toBeDisabled();
    await user.tab();
    expect(within(panel).getByText('Incorrect license key or upgrade code')).toBeInTheDocument();
    await user.type(field, '345678');
    expect(submit).toBeEnabled();
    await user.clear(field);
    await user.type(field, 'ab3d5f7');
    expect(submit).toBeEnabled();
    await user.clear(field);
    await user.type(field, 'SPRINGGRACE');
    expect(submit).toBeEnabled();
  });

  it('opens the incompatibility popup, refocuses the field and says Upgrade error.', async () => {
    mockApi({
      [LIST_PATH]: ok(upgradeList()),
      KeyUpgradePaths: ok({ LinksToStore: [] }),
      UpgradeKey: fault('UpgradeCodeIncompatibility', { ExceptionCode: 409 }),
    });
    const { user } = await openProducts('/products#upgrade-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    const field = within(panel).getByLabelText('Upgrade code');
    await user.type(field, 'UPG-ABCDEFGH');
    await user.click(within(panel).getByRole('button', { name: 'Apply upgrade code' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'This upgrade code cannot be used with your current license',
    });
    expect(within(dialog).getByText(/choose the upgrade code/)).toBeInTheDocument();
    for (const name of [/How upgrades work/, /Cancel the order/, /Contact support/]) {
      expect(within(dialog).getByRole('link', { name })).toBeInTheDocument();
    }
    expect(within(panel).getByText('Upgrade error.')).toBeInTheDocument();
    await user.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(field).toHaveFocus();
  });

  it('Escape in the incompatibility popup leaves the upgrade panel open with the typed code', async () => {
    mockApi({
      [LIST_PATH]: ok(upgradeList()),
      KeyUpgradePaths: ok({ LinksToStore: [] }),
      UpgradeKey: fault('UpgradeCodeIncompatibility', { ExceptionCode: 409 }),
    });
    const { user } = await openProducts('/products#upgrade-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    const field = within(panel).getByLabelText('Upgrade code');
    await user.type(field, 'UPG-ABCDEFGH');
    await user.click(within(panel).getByRole('button', { name: 'Apply upgrade code' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'This upgrade code cannot be used with your current license',
    });
    within(dialog).getByRole('button', { name: 'Close' }).focus();
    await user.keyboard('{Escape}');
    expect(screen.getByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' })).toBeInTheDocument();
    expect(within(panel).getByLabelText('Upgrade code')).toHaveValue('UPG-ABCDEFGH');
    expect(window.location.hash).toBe('#upgrade-Reference4Headphone');
  });

  it('refocuses the field with Upgrade error. on other faults, which also reach the banner', async () => {
    mockApi({
      [LIST_PATH]: ok(upgradeList()),
      KeyUpgradePaths: ok({ LinksToStore: [] }),
      UpgradeKey: fault('UpgradeKeyAlreadyUsed'),
    });
    const { user } = await openProducts('/products#upgrade-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    const field = within(panel).getByLabelText('Upgrade code');
    await user.type(field, 'ABCDEFG');
    await user.click(within(panel).getByRole('button', { name: 'Apply upgrade code' }));
    expect(await within(panel).findByText('Upgrade error.')).toBeInTheDocument();
    expect(field).toHaveFocus();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByText(/This upgrade code has already been used/)).toBeInTheDocument();
  });

  it('upgrades: notice, reload, panel closed', async () => {
    const upgraded = licenceList({
      products: [
        referenceProduct({ LicenseKeys: [licenseKey('NEW001')] }),
        referenceProduct({
          DisplayName: 'Reference 4 Headphone Edition',
          ProductName: 'Reference4Headphone',
          LicenseKeys: [licenseKey('R4HP01', true)],
        }),
      ],
    });
    const api = mockApi({
      [LIST_PATH]: inSequence(ok(upgradeList()), ok(upgraded)),
      KeyUpgradePaths: ok({ LinksToStore: [] }),
      UpgradeKey: ok({
        FormattedKey: '******-******-******-NEW001',
        ProductName: 'SoundIDReference',
        DisplayName: 'x',
      }),
    });
    const { user } = await openProducts('/products#upgrade-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    await user.type(within(panel).getByLabelText('Upgrade code'), ' upg-abcdefgh ');
    await user.click(within(panel).getByRole('button', { name: 'Apply upgrade code' }));
    await waitFor(() => expect(notices()).toEqual(['success: Upgrade successful!']));
    expect(api.callsTo('UpgradeKey')[0]?.body).toEqual({
      key: '******-******-******-R4HP01',
      upgradeCode: 'UPG-ABCDEFGH',
    });
    expect(window.location.hash).toBe('');
    await waitFor(() => expect(screen.getAllByRole('listitem', { name: /./ })).toHaveLength(2));
    expect(screen.queryByRole('region', { name: /^Upgrade Reference/ })).toBeNull();
  });

  it('shows Upgraded and no upgrade form for a licence already used for an upgrade', async () => {
    mockApi({
      [LIST_PATH]: ok(
        licenceList({
          products: [
            referenceProduct({
              DisplayName: 'Reference 4 Headphone Edition',
              ProductName: 'Reference4Headphone',
              LicenseKeys: [licenseKey('R4HP01', true), licenseKey('R4HP02')],
            }),
          ],
        }),
      ),
      KeyUpgradePaths: ok({ LinksToStore: [] }),
    });
    const { user } = await openProducts('/products#upgrade-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    const select = within(panel).getByRole('combobox', { name: 'License' });
    expect(
      within(select)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Choose a license', '******-******-******-R4HP01 (Upgraded)', '******-******-******-R4HP02']);
    await user.selectOptions(select, '******-******-******-R4HP01');
    expect(within(panel).getByText('Upgraded')).toBeInTheDocument();
    expect(within(panel).queryByRole('button', { name: 'Apply upgrade code' })).toBeNull();
    await user.selectOptions(select, '******-******-******-R4HP02');
    expect(within(panel).getByRole('button', { name: 'Apply upgrade code' })).toBeDisabled();
  });
});

describe('licence removal panel', () => {
  it('with a single licence goes straight to the confirmation; Cancel closes, Confirm removes', async () => {
    const api = mockApi({
      [LIST_PATH]: inSequence(ok(licenceList()), ok(licenceList({ products: [referenceProduct()] }))),
      '/api/actions/licenses/key-R4HP01/remove': ok({ Message: 'License removed successfully.' }),
    });
    const { user } = await openProducts();
    const toggle = within(productCard('Reference 4 Headphone Edition')).getByRole('button', { name: 'Remove license' });
    await user.click(toggle);
    let panel = screen.getByRole('region', { name: 'Remove Reference 4 Headphone Edition' });
    expect(within(panel).getByRole('combobox', { name: 'License' })).toHaveValue('******-******-******-R4HP01');
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: /^Remove/ })).toBeNull();
    expect(api.callsTo('remove')).toHaveLength(0);

    await user.click(toggle);
    panel = screen.getByRole('region', { name: 'Remove Reference 4 Headphone Edition' });
    expect(within(panel).getByRole('group', { name: /Remove this license from your account\?/ })).toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Yes, remove license' }));
    await waitFor(() => expect(notices()).toEqual(['success: License removed successfully.']));
    expect(api.callsTo('remove')[0]?.method).toBe('GET');
    expect(window.location.hash).toBe('');
    await waitFor(() => expect(screen.queryByRole('listitem', { name: 'Reference 4 Headphone Edition' })).toBeNull());
  });

  it('lets the customer choose among several licences, ask, and cancel back', async () => {
    mockApi({
      [LIST_PATH]: ok(
        licenceList({ products: [referenceProduct({ LicenseKeys: [licenseKey('AAAAAA'), licenseKey('BBBBBB')] })] }),
      ),
    });
    const { user } = await openProducts('/products#remove-SoundIDReference');
    const panel = await screen.findByRole('region', { name: /^Remove/ });
    const select = within(panel).getByRole('combobox', { name: 'License' });
    expect(select).toHaveValue('');
    expect(within(panel).queryByRole('button', { name: 'Remove' })).toBeNull();
    await user.selectOptions(select, '******-******-******-BBBBBB');
    await user.click(within(panel).getByRole('button', { name: 'Remove' }));
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(within(panel).getByRole('button', { name: 'Remove' })).toBeInTheDocument();
  });
});

describe('removal past the deactivation allowance', () => {
  // A removal that would release machines the allowance cannot cover is refused (ADR 0030).
  it('explains KeyRevokeOverLimit with a Learn more link in the licence removal panel', async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/actions/licenses/key-R4HP01/remove': fault('KeyRevokeOverLimit', { ExceptionCode: 429 }),
    });
    const { user } = await openProducts('/products#remove-Reference4Headphone');
    const panel = await screen.findByRole('region', { name: 'Remove Reference 4 Headphone Edition' });
    await user.click(within(panel).getByRole('button', { name: 'Yes, remove license' }));
    const alert = await within(panel).findByRole('alert');
    expect(alert).toHaveTextContent('You have reached license deactivation limit.');
    expect(within(alert).getByRole('link', { name: /Learn more/ })).toHaveAttribute(
      'href',
      expect.stringContaining('support'),
    );
    expect(notices()).toEqual([]);
  });

  it('and under Remove Perpetual', async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/actions/voice-ai/perpetual/p1/remove': fault('KeyRevokeOverLimit', { ExceptionCode: 429 }),
    });
    const { user } = await openProducts();
    await user.click(screen.getByRole('button', { name: 'Remove Perpetual' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove Perpetual' }));
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You have reached license deactivation limit.');
    expect(within(alert).getByRole('link', { name: /Learn more/ })).toBeInTheDocument();
  });
});

describe('Remove Perpetual', () => {
  it('asks first, and the question closes by itself when a reload no longer carries its URL', async () => {
    const second = voiceAi({
      ActionButtons: [
        backendAction('Remove Perpetual', '/api/actions/voice-ai/perpetual/p2/remove', 'RemovePerpetual'),
      ],
    });
    mockApi({
      [LIST_PATH]: inSequence(ok(licenceList()), ok(licenceList({ voice: second }))),
      '/api/actions/voice-ai/asset-packs/pop/remove': ok({ Message: 'ok' }),
    });
    const { user } = await openProducts();
    await user.click(screen.getByRole('button', { name: 'Remove Perpetual' }));
    expect(screen.getByRole('group', { name: /Remove the Perpetual license/ })).toBeInTheDocument();

    // Another change reloads the list: the perpetual licence now has another remove URL.
    await user.click(screen.getByRole('button', { name: 'Explore and manage preset expansion packs' }));
    await user.click(screen.getByRole('button', { name: 'Remove Pop Vocals Pack' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: /Remove the Perpetual license/ })).toBeNull());
    expect(screen.getByRole('button', { name: 'Remove Perpetual' })).toBeInTheDocument();
  });

  it('removes the perpetual licence on confirmation and reloads', async () => {
    const api = mockApi({
      [LIST_PATH]: inSequence(
        ok(licenceList()),
        ok(licenceList({ voice: voiceAi({ OfflineLicenseKey: null, ActionButtons: [] }) })),
      ),
      '/api/actions/voice-ai/perpetual/p1/remove': ok({ Message: 'License removed successfully.' }),
    });
    const { user } = await openProducts();
    await user.click(screen.getByRole('button', { name: 'Remove Perpetual' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove Perpetual' }));
    await waitFor(() => expect(notices()).toEqual(['success: License removed successfully.']));
    expect(await screen.findByRole('link', { name: 'Buy Perpetual mode or tokens' })).toBeInTheDocument();
    expect(api.callsTo('remove')).toHaveLength(1);
  });
});

describe('expansion packs', () => {
  it('lists packs with their key; Remove asks, Buy opens the store', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    const { user } = await openProducts();
    const toggle = screen.getByRole('button', { name: 'Explore and manage preset expansion packs' });
    expect(toggle).toHaveAttribute('aria-expanded', 'false');
    await user.click(toggle);
    const table = screen.getByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((c) => c.textContent),
    ).toEqual(['Pack', 'Activation key', 'Actions']);
    expect(within(table).getByText('******-******-******-POP123')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: /Buy Choir & Harmonies Pack/ })).toHaveAttribute(
      'href',
      'https://store.example/packs/choir',
    );
  });

  it('shows the server message, or the fallback, when a removal fails', async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/actions/voice-ai/asset-packs/pop/remove': inSequence(
        fault('KeyNotFound', { ExceptionUserText: 'The key is gone.' }),
        fault('Whatever', { ExceptionUserText: '' }),
      ),
    });
    const { user } = await openProducts();
    await user.click(screen.getByRole('button', { name: 'Explore and manage preset expansion packs' }));
    await user.click(screen.getByRole('button', { name: 'Remove Pop Vocals Pack' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(notices()).toEqual(['danger: The key is gone.']));
    await user.click(screen.getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() =>
      expect(notices()).toContain('danger: An unexpected error ocurred while removing activation key!'),
    );
  });

  it('removes a pack: success notice and reload', async () => {
    const api = mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/actions/voice-ai/asset-packs/pop/remove': ok({ Message: 'x' }),
    });
    const { user } = await openProducts();
    await user.click(screen.getByRole('button', { name: 'Explore and manage preset expansion packs' }));
    await user.click(screen.getByRole('button', { name: 'Remove Pop Vocals Pack' }));
    await user.click(screen.getByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(notices()).toEqual(['success: Your activation key has been removed successfully!']));
    await waitFor(() => expect(api.callsTo('GetAccountLicensesByProductLine')).toHaveLength(2));
    // The request reset with the reload: Remove is offered again.
    expect(await screen.findByRole('button', { name: 'Remove Pop Vocals Pack' })).toBeInTheDocument();
  });
});

describe('trial banner', () => {
  it('shows with a trial deeplink and opens it', async () => {
    const open = vi.spyOn(browserLocation, 'openAppLink').mockImplementation(() => undefined);
    mockApi({ [LIST_PATH]: ok(licenceList({ trialDeeplink: 'soundid://starttrial?product=SoundIDReference' })) });
    const { user } = await openProducts();
    const banner = screen.getByRole('complementary', { name: 'Try out the reference product before buying' });
    expect(
      within(banner)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['21 days free trial', 'No credit card required', 'Guided setup']);
    await user.click(within(banner).getByRole('button', { name: 'Activate trial on this device' }));
    expect(open).toHaveBeenCalledWith('soundid://starttrial?product=SoundIDReference');
  });

  it('is absent without one', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    await openProducts();
    expect(screen.queryByRole('complementary')).toBeNull();
  });
});

describe('offline activation panel', () => {
  it('is offered only where the service says so', async () => {
    mockApi({ [LIST_PATH]: ok(licenceList()) });
    await openProducts('/products#offline-activation');
    expect(screen.queryByRole('button', { name: 'Offline activation' })).toBeNull();
    expect(screen.queryByRole('region', { name: 'Offline activation' })).toBeNull();
  });

  it('uploads the .swinfo request and downloads the licence file', async () => {
    const save = vi.spyOn(textFile, 'saveTextFile').mockImplementation(() => undefined);
    const api = mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/licenses/OfflineActivate': ok({
        FileName: 'SoundIDReference-m1.swlicense',
        Content: '{"format":"soundid-license"}',
        DeviceId: 'd1',
        InstancesUsed: 3,
        InstancesMax: 3,
      }),
    });
    const { user } = await openProducts('/products', { OfflineActivation: true });
    await user.click(screen.getByRole('button', { name: 'Offline activation' }));
    expect(window.location.hash).toBe('#offline-activation');
    const panel = screen.getByRole('region', { name: 'Offline activation' });
    await user.click(within(panel).getByRole('button', { name: 'Download license file' }));
    expect(within(panel).getByRole('alert')).toHaveTextContent('Choose the .swinfo file the app saved.');

    const swinfo = '{"format":"soundid-swinfo"}';
    await user.upload(within(panel).getByLabelText('License request file (.swinfo)'), new File([swinfo], 'r.swinfo'));
    await user.click(within(panel).getByRole('button', { name: 'Download license file' }));
    await waitFor(() =>
      expect(save).toHaveBeenCalledWith('SoundIDReference-m1.swlicense', '{"format":"soundid-license"}'),
    );
    expect(api.callsTo('OfflineActivate')[0]?.body).toEqual({ swinfo, silent: true });
    expect(window.location.hash).toBe('');
  });

  it("uploads an offline machine's .swdeactivate file: the receipt is downloaded, the seat freed and the list reloaded (ADR 0053)", async () => {
    const save = vi.spyOn(textFile, 'saveTextFile').mockImplementation(() => undefined);
    const after = licenceList({
      products: [referenceProduct({ InstancesUsed: 1, Devices: [referenceProduct().Devices[1]!] })],
    });
    const api = mockApi({
      [LIST_PATH]: inSequence(ok(licenceList()), ok(after)),
      '/api/licenses/OfflineDeactivate': ok({
        FileName: 'SoundIDReference-m1.swreceipt',
        Content: '{"format":"soundid-deactivation-receipt"}',
        DeviceId: 'd-imac',
        Message: 'Studio iMac was deactivated: its seat is free, and no deactivation was used.',
        InstancesUsed: 1,
        InstancesMax: 3,
      }),
    });
    const { user } = await openProducts('/products#offline-activation', { OfflineActivation: true });
    const panel = await screen.findByRole('region', { name: 'Offline activation' });
    const section = within(panel).getByRole('region', { name: 'Deactivate a computer' });
    await user.click(within(section).getByRole('button', { name: 'Deactivate and download receipt' }));
    expect(within(section).getByRole('alert')).toHaveTextContent('Choose the .swdeactivate file the app saved.');

    const request = '{"format":"soundid-swdeactivate"}';
    await user.upload(
      within(section).getByLabelText('Deactivation file (.swdeactivate)'),
      new File([request], 'm1.swdeactivate'),
    );
    await user.click(within(section).getByRole('button', { name: 'Deactivate and download receipt' }));
    await waitFor(() =>
      expect(save).toHaveBeenCalledWith('SoundIDReference-m1.swreceipt', '{"format":"soundid-deactivation-receipt"}'),
    );
    expect(api.callsTo('OfflineDeactivate')[0]?.body).toEqual({ file: request, silent: true });
    expect(notices()).toEqual([
      "success: Studio iMac was deactivated: its seat is free, and no deactivation was used. The receipt SoundIDReference-m1.swreceipt has been downloaded: keep it with the computer's records.",
    ]);
    expect(window.location.hash).toBe('');
    expect(await screen.findByRole('button', { name: '1 of 3 devices activated' })).toBeInTheDocument();
    expect(api.callsTo('GetAccountLicensesByProductLine')).toHaveLength(2);
  });

  it("shows the service's reason for a refused deactivation file", async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/licenses/OfflineDeactivate': fault('OfflineDeactivationInvalid', {
        ExceptionVariables: [
          { Key: 'Reason', Value: 'This device is no longer activated: the file was already used.' },
        ],
      }),
    });
    const { user } = await openProducts('/products#offline-activation', { OfflineActivation: true });
    const panel = await screen.findByRole('region', { name: 'Offline activation' });
    const section = within(panel).getByRole('region', { name: 'Deactivate a computer' });
    await user.upload(
      within(section).getByLabelText('Deactivation file (.swdeactivate)'),
      new File(['{}'], 'x.swdeactivate'),
    );
    await user.click(within(section).getByRole('button', { name: 'Deactivate and download receipt' }));
    expect(await within(section).findByRole('alert')).toHaveTextContent(
      'The deactivation file is not valid. This device is no longer activated: the file was already used.',
    );
    expect(window.location.hash).toBe('#offline-activation');
  });

  it("shows the service's reason for a bad file; Cancel closes", async () => {
    mockApi({
      [LIST_PATH]: ok(licenceList()),
      '/api/licenses/OfflineActivate': fault('OfflineRequestInvalid', {
        ExceptionVariables: [{ Key: 'Reason', Value: 'Unsupported .swinfo version 2.' }],
      }),
    });
    const { user } = await openProducts('/products#offline-activation', { OfflineActivation: true });
    const panel = await screen.findByRole('region', { name: 'Offline activation' });
    await user.upload(within(panel).getByLabelText('License request file (.swinfo)'), new File(['{}'], 'r.swinfo'));
    await user.click(within(panel).getByRole('button', { name: 'Download license file' }));
    expect(await within(panel).findByRole('alert')).toHaveTextContent(
      'The license request file is not valid. Unsupported .swinfo version 2.',
    );
    await user.click(within(panel).getByRole('button', { name: 'Cancel' }));
    expect(window.location.hash).toBe('');
  });
});
