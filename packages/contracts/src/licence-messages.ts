import { REFERENCE_TRIAL_DAYS } from './constants';
import { faultTable } from './fault-table';
import { LICENCE_TRANSFER_OFFER_DAYS } from './licence-rules';

// A module of its own: the screens that use these load it with them, and /login does not (ADR 0020).
// ── Licenses & Devices (docs/requirements.md §2, docs/requirements.md §8), word for word ──────────
/** What a device without a name is called (docs/requirements.md §8: '<device name or Device> deactivated successfully.'). */
const UNNAMED_DEVICE = 'Device';

export const licenceMessages = {
  /** AccountFrozen's user text (docs/decisions/0055-my-activity.md): `until` in UTC. */
  accountFrozen: (until: string) =>
    `Something on this account was reported as not yours: licenses cannot be passed on until ${until}.`,
  productListFailed: 'Failed to fetch product list',
  unnamedDevice: UNNAMED_DEVICE,
  deviceDeactivated: (deviceName: string) => `${deviceName || UNNAMED_DEVICE} deactivated successfully.`,
  deviceReportedLost: (deviceName: string) =>
    `${deviceName || UNNAMED_DEVICE} was reported lost or stolen: its seat is free, and it can no longer use this license.`,
  deviceDeactivatedOffline: (deviceName: string) =>
    `${deviceName || UNNAMED_DEVICE} was deactivated: its seat is free, and no deactivation was used.`,
  licenseRemoved: 'License removed successfully.',
  /** Passing a licence on (docs/decisions/0054-licence-transfer.md). */
  licenceTransferStarted: (email: string) =>
    `We emailed ${email} a link to accept this license. The offer is valid for ${LICENCE_TRANSFER_OFFER_DAYS} days; until then you can cancel it.`,
  licenceTransferCancelled: 'The offer was cancelled: the license stays with you.',
  licenceTransferExpired: 'This offer has expired. Ask the sender to pass the license on again.',
  licenceTransferAccepted: (displayName: string) => `${displayName} is now in your account.`,
  upgradeSuccessful: 'Upgrade successful!',
  upgradeError: 'Upgrade error.',
  upgradeIncompatibleTitle: faultTable.UpgradeCodeIncompatibility.message,
  activationKeyRemoved: 'Your activation key has been removed successfully!',
  activationKeyRemoveFailed: 'An unexpected error ocurred while removing activation key!',
  noDevices: 'No devices active yet. Once you activate a device, it will appear here.',
  devicesActivated: (used: number, max: number) => `${used} of ${max} devices activated`,
  trialBannerTitle: 'Try out the reference product before buying',
  activateTrialOnThisDevice: 'Activate trial on this device',
  trialBannerBullets: [`${REFERENCE_TRIAL_DAYS} days free trial`, 'No credit card required', 'Guided setup'],
  exploreAssetPacks: 'Explore and manage preset expansion packs',
  buyTokens: 'Buy tokens',
  buyPerpetualOrTokens: 'Buy Perpetual mode or tokens',
  removePerpetual: 'Remove Perpetual',
  download: 'Download',
  upgraded: 'Upgraded',
  downloadLicenseFile: 'Download license file',
  /** The header link of the page (docs/requirements.md §2), also named by the licence mail. */
  registerNewLicense: 'Register a new license',
  /** The way back to the page from other screens, the sandbox checkout page and the licence mail. */
  toProducts: 'Go to Licenses & Devices',
} as const;
