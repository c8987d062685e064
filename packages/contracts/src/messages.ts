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

  // Success notices (docs/requirements.md §8)
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

  // Local fault handling (docs/requirements.md §8)
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
