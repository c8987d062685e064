import type {
  AccountLicensesByProductLine,
  ActionButton,
  Device,
  LicenseKey,
  ReferenceProduct,
  VoiceAiProducts,
} from '@soundid/contracts';

/** Licence lists shaped like the service's (licence-list.ts), for the page's component tests. */

export const link = (
  text: string,
  url: string,
  functionality: ActionButton['Functionality'] = 'Download',
): ActionButton => ({
  Type: 'Link',
  ActionText: text,
  Functionality: functionality,
  IsEnabled: true,
  ExternalRequest: { Type: 'Link', Url: url, ServerAction: null },
});

export const deeplink = (
  text: string,
  serverActionId: string | null,
  overrides: Partial<ActionButton> = {},
): ActionButton => ({
  Type: 'DeepLink',
  ActionText: text,
  Functionality: 'AppActivate',
  IsEnabled: true,
  ExternalRequest: {
    Type: 'DeepLink',
    Url: `soundid://${serverActionId ?? 'open'}?product=X`,
    ServerAction: serverActionId ? { Id: serverActionId, Url: `/api/actions/test/${serverActionId}` } : null,
  },
  ...overrides,
});

export const backendAction = (
  text: string,
  url: string,
  functionality: ActionButton['Functionality'],
): ActionButton => ({
  Type: 'Link',
  ActionText: text,
  Functionality: functionality,
  IsEnabled: true,
  ExternalRequest: { Type: 'BackendThenReload', Url: url, ServerAction: null },
});

export const device = (id: string, name: string, ms = Date.UTC(2026, 0, 15, 12)): Device => ({
  DeviceId: id,
  Name: name,
  TimeActivated: `/Date(${ms})/`,
  LastSeen: null,
  AppVersion: null,
  Os: null,
  ActionButtons: [backendAction('Deactivate', `/api/actions/devices/${id}/deactivate`, 'Deactivate')],
});

export const licenseKey = (last: string, isUsedForUpgrade = false): LicenseKey => ({
  FormattedKey: `******-******-******-${last}`,
  ActionButtons: [backendAction('Remove', `/api/actions/licenses/key-${last}/remove`, 'Remove')],
  IsUsedForUpgrade: isUsedForUpgrade,
});

export const upgradeButton: ActionButton = {
  Type: 'Primary',
  ActionText: 'Upgrade',
  Functionality: 'Upgrade',
  IsEnabled: true,
  ExternalRequest: null,
};

export function referenceProduct(overrides: Partial<ReferenceProduct> = {}): ReferenceProduct {
  return {
    DisplayName: 'SoundID Reference for Speakers & Headphones',
    Description: 'Speaker calibration with a measurement microphone\nCalibration profiles for 280+ headphone models',
    Icon: 'soundid-reference',
    ProductName: 'SoundIDReference',
    InstancesUsed: 2,
    InstancesMax: 3,
    IsManageable: true,
    Devices: [device('d-imac', 'Studio iMac'), device('d-mbp', 'MacBook Pro')],
    LicenseKeys: [licenseKey('AB12CD')],
    ActionButtons: [deeplink('Open SoundID Reference', 'sid-reference-activate'), upgradeButton],
    InfoLinks: [{ Title: 'Getting started', Url: 'https://support.example/getting-started' }],
    Notifications: [],
    ...overrides,
  };
}

export function voiceAi(
  overrides: Partial<VoiceAiProducts['LicenseStatus']> = {},
  rest: Partial<VoiceAiProducts> = {},
) {
  const product: VoiceAiProducts = {
    Title: 'SoundID VoiceAI',
    IconString: 'soundid-voice-ai',
    Notifications: [{ Message: 'Perpetual mode is active.', Importance: 'Low', Action: null }],
    AssetPacks: [
      {
        Title: 'Pop Vocals Pack',
        LicenseKey: '******-******-******-POP123',
        StoreUrl: 'https://store.example/packs/pop',
        RemoveLicenseAction: { Url: '/api/actions/voice-ai/asset-packs/pop/remove' },
      },
      {
        Title: 'Choir & Harmonies Pack',
        LicenseKey: null,
        StoreUrl: 'https://store.example/packs/choir',
        RemoveLicenseAction: null,
      },
    ],
    LicenseStatus: {
      StatusWarning: null,
      TokenStatus: 'Perpetual mode: unlimited processing.',
      InfoLinks: [{ Title: 'How to activate SoundID VoiceAI', Url: 'https://support.example/voice' }],
      ActionButtons: [
        deeplink('Open SoundID VoiceAI', 'voice-ai-activate'),
        link('Download', '/download-center#voice-ai'),
        backendAction('Remove Perpetual', '/api/actions/voice-ai/perpetual/p1/remove', 'RemovePerpetual'),
      ],
      Devices: [device('d-voice', 'Studio iMac')],
      IsManageable: true,
      InstancesUsed: 1,
      OfflineLicenseKey: '******-******-******-VOICE1',
      ...overrides,
    },
    ...rest,
  };
  return product;
}

export function licenceList(
  options: { products?: ReferenceProduct[]; voice?: VoiceAiProducts; trialDeeplink?: string } = {},
): AccountLicensesByProductLine {
  return {
    VoiceAIProducts: options.voice ?? voiceAi(),
    ReferenceProducts: {
      ActionButtons: [
        link('Download', '/download-center#sid-reference'),
        link('Buy SoundID Reference', 'https://store.example/buy', 'Buy'),
      ],
      Products: options.products ?? [
        referenceProduct(),
        referenceProduct({
          DisplayName: 'Reference 4 Headphone Edition',
          Description: 'Headphone calibration (legacy)',
          Icon: 'reference-4',
          ProductName: 'Reference4Headphone',
          InstancesUsed: 0,
          InstancesMax: 2,
          Devices: [],
          LicenseKeys: [licenseKey('R4HP01')],
          InfoLinks: [],
        }),
      ],
      AvailableTrials: options.trialDeeplink ? [{ DeepLinkUrl: options.trialDeeplink }] : [],
    },
  };
}

export const LIST_PATH = '/api/licenses/GetAccountLicensesByProductLine';
