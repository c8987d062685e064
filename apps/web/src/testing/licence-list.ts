import type { AccountLicensesByProductLine } from '@soundid/contracts';

/** A licence list with nothing in it, for tests of other screens that load it on the way. */
export function emptyLicenceList(): AccountLicensesByProductLine {
  return {
    VoiceAIProducts: {
      Title: 'SoundID VoiceAI',
      IconString: 'voice-ai',
      Notifications: [],
      AssetPacks: [],
      LicenseStatus: {
        StatusWarning: null,
        TokenStatus: '',
        InfoLinks: [],
        ActionButtons: [],
        Devices: [],
        IsManageable: false,
        InstancesUsed: 0,
        OfflineLicenseKey: null,
      },
    },
    ReferenceProducts: { ActionButtons: [], Products: [], AvailableTrials: [] },
  };
}
