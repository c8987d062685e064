import { REFERENCE_TRIAL_DAYS } from './constants';

/** Texts shown by the portal, word for word from the spec. Fault messages live in errors.ts. */
export const messages = {
  emailFormat: 'Email address is not in a correct format.',
  passwordTooShort: 'Password is shorter than 8 symbols.',
  passwordTooLong: 'Password is longer than 128 symbols.',
  passwordsDoNotMatch: 'Passwords do not match.',
  passwordHint: 'minimum 8 characters',
  licenseKeyFormat: 'License key must be 24 letters or digits in four groups of 6.',
  upgradeCodeFormat: 'Incorrect license key or upgrade code',
  looksLikeUpgradeCode: 'This looks like an upgrade code.',
  registerKeyFirst: 'Please register your Reference 4, SoundID Reference or older license activation key first.',
  serialTooShort: 'Serial number must be at least 9 characters.',
  serialTooLong: 'Serial number must be at most 24 characters.',
  noAddress: 'No address entered',

  // Success notices (account-and-sign-in §8)
  passwordUpdated: 'Your password has been updated successfully.',
  passwordSaved: 'Your password has been saved successfully.',
  emailVerified: 'Your email address has been verified successfully.',
  emailChanged: 'Your email address has been changed successfully.',
  emailChangeRequested: 'We have sent a confirmation link to your new email address. Please check your inbox.',
  addressChanged: 'Your address has been updated successfully.',
  keyRegistered: 'Your activation key has been registered successfully!',
  deletionEmailSent: 'We have sent you an email to confirm the deletion of your account. Please check your inbox.',
  querySubmitted: 'Your request has been submitted',
  accountDeleted: 'Your account has been deleted. Goodbye!',
  otherSessionsEnded: 'You have been signed out on every other device.',
  trialClaimed: 'Your 60-day trial has been activated successfully!',

  // Local fault handling (account-and-sign-in §8)
  verifyToLogIn: 'Verify your email address to log in.',
  verificationResent: 'We have sent you a email verification link. Please check your inbox.',
  resetLinkExpired: 'Your request to reset password has already expired. Please try again.',
  verificationLinkExpired: 'Verification link expired',
  verificationLinkUsed: 'This email verification link is invalid or has been used already.',
  emailChangeLinkInvalid: 'This email verification link is invalid or has expired.',
  oldPasswordIncorrect: 'Old password is not correct.',
  unknownErrorShort: 'Unknown error',
  keyAlreadyUsedTitle: 'Activation key already used',
  keyOneAccountAtATime:
    'An activation key can be used with one account at a time. Please deactivate it in the other account first.',
  licenseRegistrationError: 'License registration error.',
  trialActivated: 'Trial activated successfully',
} as const;

// ── Licenses & Devices (licenses-devices-tokens §2, §8), word for word ──────────
/** What a device without a name is called (spec §8: '<device name or Device> deactivated successfully.'). */
const UNNAMED_DEVICE = 'Device';

export const licenceMessages = {
  productListFailed: 'Failed to fetch product list',
  unnamedDevice: UNNAMED_DEVICE,
  deviceDeactivated: (deviceName: string) => `${deviceName || UNNAMED_DEVICE} deactivated successfully.`,
  licenseRemoved: 'License removed successfully.',
  upgradeSuccessful: 'Upgrade successful!',
  upgradeError: 'Upgrade error.',
  upgradeIncompatibleTitle: 'This upgrade code cannot be used with your current license',
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
  /** The header link of the page (spec §2), also named by the licence mail. */
  registerNewLicense: 'Register a new license',
  /** The way back to the page from other screens, the sandbox checkout page and the licence mail. */
  toProducts: 'Go to Licenses & Devices',
} as const;
