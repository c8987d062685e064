import { describe, expect, it } from 'vitest';
import { faults } from './errors';
import { FAULT_HELP_LINKS, faultMessage, LOCALLY_HANDLED_FAULTS, SESSION_CLEARING_FAULTS } from './fault-handling';
import { faultTable, type TableFaultName } from './fault-table';
import { messages } from './messages';
import { text } from './ui-text/core';

/** docs/requirements.md §8, the message table, copied word for word from the spec. */
const SPEC_MESSAGE_TABLE: Record<string, string> = {
  'Network Error': 'Please check your internet connection and refresh the page to continue.',
  Unknown: 'Unknown error.',
  UserSaveFailure: 'Saving user failed.',
  UserEmailValidationNotFound: 'Email validation not found.',
  UserLoginNotRegistered: 'Login is not registered.',
  ActionTokenSaveFailure: 'Saving token failed.',
  UserPasswordChangeNewPasswordInvalidTooWeak: 'New password is too weak.',
  LoginNeeded: 'Unauthorized.',
  KeyNotFound: 'License activation key is not valid. Please check if you have entered the key correctly.',
  KeySaveFailure: 'Saving key failed.',
  KeyNooneToAssignKeyTo: 'User not specified for key assignment.',
  TokenInvalid: 'Invalid token.',
  TokenExpired: 'Token expired.',
  TransferFailedUserNotFound: 'User not found for transfer.',
  TransferFailedUserEmailNotVerified: 'Transfer user email is not verified.',
  TransferFailedUserOtherError: 'Transfer unknown error.',
  EmailValidationTokenNotFound: 'This email verification link is invalid.',
  EmailChangeValidationTokenNotFound: 'This email verification link is invalid.',
  EmailValidationTokenAlreadyUsed: 'Email address already validated.',
  EmailChangeValidationTokenAlreadyUsed: 'Email address already validated.',
  EmailChangeEmailAlreadyUsedByAnotherUser: 'Email address already used by another user.',
  EmailChangeValidationTokenSaveFailure: 'Token save failed.',
  AccountDeletionTokenAlreadyUsed: 'Account already deleted.',
  AccountDeletionTokenNotFound: 'This account deletion link is invalid.',
  UserLoginEmailNotVerified: 'Please verify your email before logging in.',
  UserLoginEmailUnverifiedAndLinkExpired: 'Please verify your email before logging in.',
  UserLoginInvalidCredentials: "We don't recognize this user. Please check your email address and password.",
  AttemptOverLimitLogin: 'Login failed. Please try again after 5 minutes.',
  KeyAlreadyExisting: 'This license activation key has already been registered for your account.',
  UpgradeKeyAlreadyUsed: 'This upgrade code has already been used. Each upgrade code can only be used once.',
  KeyBundleNotAllowed: 'Product license not supported. Use the activation key in the product to activate.',
  UpgradeCodeNotFound: 'Upgrade code is not valid. Please check if you have entered the code correctly.',
  KeyRevokeOverLimit: 'You have reached license deactivation limit.',
};

/** docs/requirements.md §8 local handling, success notices and docs/requirements.md §5 validation messages the spec quotes. */
const SPEC_QUOTED_MESSAGES: Partial<Record<keyof typeof messages, string>> = {
  verifyToLogIn: 'Verify your email address to log in.',
  verificationResent: 'We have sent you a email verification link. Please check your inbox.',
  resetLinkExpired: 'Your request to reset password has already expired. Please try again.',
  verificationLinkExpired: 'Verification link expired',
  verificationLinkUsed: 'This email verification link is invalid or has been used already.',
  emailChangeLinkInvalid: 'This email verification link is invalid or has expired.',
  oldPasswordIncorrect: 'Old password is not correct.',
  unknownErrorShort: 'Unknown error',
  keyAlreadyUsedTitle: 'Activation key already used',
  licenseRegistrationError: 'License registration error.',
  passwordUpdated: 'Your password has been updated successfully.',
  keyRegistered: 'Your activation key has been registered successfully!',
  querySubmitted: 'Your request has been submitted',
  trialActivated: 'Trial activated successfully',
  passwordTooShort: 'Password is shorter than 8 symbols.',
  passwordsDoNotMatch: 'Passwords do not match.',
  emailFormat: 'Email address is not in a correct format.',
  looksLikeUpgradeCode: 'This looks like an upgrade code.',
  registerKeyFirst: 'Please register your Reference 4, SoundID Reference or older license activation key first.',
  upgradeCodeFormat: 'Incorrect license key or upgrade code',
  noAddress: 'No address entered',
};

describe('the message table of docs/requirements.md §8', () => {
  // By name, whatever text the server sent: the table's rows are in fault-table.ts, which the
  // SPA's first load carries (ADR 0020).
  it.each(Object.entries(SPEC_MESSAGE_TABLE))('%s', (name, message) => {
    expect(faultMessage(name, 'What the server said.')).toBe(message);
    expect(faultTable[name as TableFaultName]?.message).toBe(message);
  });

  it("the SPA knows by name the spec's table and the few faults it names itself; the rest is the server's text", () => {
    const ours = Object.keys(faultTable).filter((name) => !(name in SPEC_MESSAGE_TABLE));
    expect(ours.sort()).toEqual(
      [
        // The SPA shows its one message whatever detail the server's text gives.
        'RequestInvalid',
        // Named by a screen with no server answer: the e-mail editor's limit, the offline
        // activation file, the checkout screen and the sandbox card form.
        'AttemptOverLimitChangeEmail',
        'CheckoutSessionExpired',
        'CheckoutUnavailable',
        'RequestTooLarge',
        // The upgrade panel's popup title, which the licences spec quotes.
        'UpgradeCodeIncompatibility',
        // The spec's table describes it without quoting it (the test below).
        'KeyOwnedByAnotherUser',
      ].sort(),
    );
    expect(faultMessage('PasskeyLimitReached', faults.PasskeyLimitReached.message)).toBe(
      'Your account has the most passkeys it can hold. Remove one to add another.',
    );
    expect(faultMessage('PasskeyLimitReached', '')).toBe('PasskeyLimitReached');
  });

  it('the table is part of the catalogue the service sends from', () => {
    for (const [name, spec] of Object.entries(faultTable)) expect(faults[name as TableFaultName]).toBe(spec);
  });

  it('KeyOwnedByAnotherUser: another account, a different e-mail used before, mail from the accounts address', () => {
    expect(faults.KeyOwnedByAnotherUser.message).toMatch(/already registered to another account/);
    expect(faults.KeyOwnedByAnotherUser.message).toMatch(/different email address/);
    expect(faults.KeyOwnedByAnotherUser.message).toMatch(/accounts@/);
  });

  it('KeyRevokeOverLimit comes with a Learn more link to a support article', () => {
    expect(FAULT_HELP_LINKS.KeyRevokeOverLimit).toMatch(/^https:\/\/support\./);
  });

  it('lists the faults that clear the session silently and those handled locally', () => {
    expect([...SESSION_CLEARING_FAULTS].sort()).toEqual([
      'SecurityAuthTokenExpired',
      'SecurityAuthTokenInvalid',
      'SecurityAuthTokenNotPassed',
      'UserAuthenticationFailed',
    ]);
    expect([...LOCALLY_HANDLED_FAULTS].sort()).toEqual([
      'ActionTokenAlreadyUsed',
      'ActionTokenExpired',
      'AttemptOverLimitChangeEmail',
      'AttemptOverLimitLogin',
      'KeyOwnedByAnotherUser',
      // Ours, not the spec's: the sessions panel's re-authentication (ASVS 7.5.2) and the
      // step-up dialog that asks for a proof in place (ADR 0040).
      'ReauthenticationPasswordInvalid',
      'StepUpRequired',
      'UpgradeCodeIncompatibility',
      'UserNotFound',
      'UserPasswordChangeOldPasswordInvalid',
    ]);
  });
});

describe('texts the spec quotes', () => {
  it.each(Object.entries(SPEC_QUOTED_MESSAGES))('%s', (key, message) => {
    expect(messages[key as keyof typeof messages]).toBe(message);
  });

  it('pageNotFound, the not-found screen (docs/requirements.md §2)', () => {
    expect(text.pageNotFound).toBe('Page not found');
  });
});
