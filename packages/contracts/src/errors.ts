import type { z } from 'zod';
// The schema lives apart so that the catalogue loads without zod (the /login budget, ADR 0020).
import { ACCOUNT_FREEZE_HOURS, EMAIL_CHANGE_FREEZE_HOURS, SERVICE_BUSY_RETRY_AFTER_SECONDS } from './constants';
import type { faultSchema } from './fault-schema';
import { ExceptionType, type FaultSpec, faultTable } from './fault-table';
import { licenceMessages } from './licence-messages';
import { LICENCE_TRANSFER_INTERVAL_DAYS, LOST_REPORTS_PER_LICENCE } from './licence-rules';
import { messages } from './messages';

const B = ExceptionType.Business;

/**
 * The error catalogue: every fault the service raises, with its status and message. The SPA's
 * first load does not carry it (ADR 0020): a fault added here is shown in the server's
 * ExceptionUserText, unless a screen names it (then it belongs in fault-table.ts).
 */
export const faults = {
  // The faults the SPA shows by name (the spec's message table and a few of ours): fault-table.ts
  ...faultTable,

  // Generic
  ServiceUnavailable: {
    status: 503,
    type: ExceptionType.Service,
    message: 'The service is temporarily unavailable. Please try again in a moment.',
  },
  NotFound: { status: 404, type: ExceptionType.Input, message: 'Not found.' },
  MethodNotAllowed: { status: 405, type: ExceptionType.Input, message: 'Method not allowed.' },
  /** An operator call without a live operator session or API token (ADR 0044). */
  AdminTokenInvalid: {
    status: 401,
    type: ExceptionType.Input,
    message: 'Sign in as an operator: the session or API token is missing, expired or wrong.',
  },

  // Operators (ADR 0044): the back office's own accounts
  /** The operator's roles do not admit this call (deny by default); the attempt is audited. */
  OperatorForbidden: { status: 403, type: ExceptionType.Input, message: 'Your role does not allow this.' },
  /** A read-only API token used for a change. */
  OperatorTokenReadOnly: { status: 403, type: ExceptionType.Input, message: 'This API token may only read.' },
  /** The bootstrap token (ADMIN_TOKEN) once an admin exists, or used for anything but bootstrap. */
  BootstrapClosed: {
    status: 403,
    type: ExceptionType.Input,
    message: 'An admin exists: the bootstrap token no longer works. Sign in as an operator.',
  },
  /** The bootstrap token (ADMIN_TOKEN) used for anything but creating the first admin. */
  BootstrapTokenOnly: {
    status: 403,
    type: ExceptionType.Input,
    message: 'The bootstrap token only creates the first admin (npm run admin -- bootstrap). Sign in as an operator.',
  },
  OperatorSignInFailed: { status: 401, type: ExceptionType.Input, message: 'Email or password is not correct.' },
  OperatorCodeInvalid: { status: 400, type: ExceptionType.Input, message: 'The authenticator code is not correct.' },
  OperatorChallengeInvalid: {
    status: 401,
    type: ExceptionType.Input,
    message: 'This sign-in has expired. Enter your email and password again.',
  },
  OperatorInvitationInvalid: {
    status: 404,
    type: ExceptionType.Input,
    message: 'This invitation link is invalid, used or expired. Ask an admin for a new one.',
  },
  OperatorAlreadyExists: { status: 409, type: ExceptionType.Input, message: 'An operator with this email exists.' },
  OperatorNotFound: { status: 404, type: ExceptionType.Input, message: 'Operator not found.' },
  /** The last active admin cannot lose the role or be disabled: nobody could manage operators. */
  OperatorLastAdmin: {
    status: 409,
    type: ExceptionType.Input,
    message: 'This is the last active admin. Make another operator admin first.',
  },
  // The console's customer work (ADR 0047)
  /** A serial import with bad rows imports nothing; ExceptionVariables `Rows` lists each bad row. */
  CsvRowsInvalid: {
    status: 400,
    type: ExceptionType.Input,
    message: 'Some rows of the file are not valid; nothing was imported. Correct the rows listed and upload it again.',
  },
  /** A withdrawal larger than the balance takes nothing (a balance is never negative). */
  TokenWithdrawalExceedsBalance: {
    status: 409,
    type: ExceptionType.Input,
    message: 'The customer has fewer tokens than this. Nothing was withdrawn.',
  },
  /** A withdrawal's reference already names another withdrawal (another customer or amount). */
  TokenWithdrawalReferenceReused: {
    status: 409,
    type: ExceptionType.Input,
    message: 'This reference already names another withdrawal. Nothing was withdrawn; use a new reference.',
  },
  PaymentNotPaid: {
    status: 409,
    type: ExceptionType.Input,
    message: 'This payment has not been paid. There is nothing to refund.',
  },
  /** The payment provider is still working on a refund with this reference: ask again in a moment. */
  PaymentRefundInProgress: {
    status: 409,
    type: ExceptionType.Input,
    message: 'A refund of this payment with this reference is under way. Look at the payment again in a moment.',
  },
  /** Nothing left to refund, or more than is left asked for. */
  PaymentRefundInvalid: {
    status: 409,
    type: ExceptionType.Input,
    message: 'This payment has less left to refund than asked. Nothing was refunded.',
  },
  SoftwareHeaderMissing: {
    status: 403,
    type: ExceptionType.Input,
    message: 'Requests signed in by cookie must carry the Software header.',
  },

  // Session (ExceptionType 30: the SPA drops the session and reloads)
  SecurityAuthTokenNotPassed: { status: 401, type: ExceptionType.Session, message: 'Unauthorized.' },
  SecurityAuthTokenExpired: { status: 401, type: ExceptionType.Session, message: 'Token expired.' },
  SecurityAuthTokenInvalid: { status: 401, type: ExceptionType.Session, message: 'Invalid token.' },
  UserAuthenticationFailed: { status: 401, type: ExceptionType.Session, message: 'Unauthorized.' },

  // Users
  UserNotFound: { status: 404, type: B, message: 'User not found.' },
  UserAlreadyRegistered: {
    status: 409,
    type: B,
    message: 'An account with this email address already exists. Please log in.',
  },
  UserPasswordChangeOldPasswordInvalid: { status: 400, type: B, message: messages.oldPasswordIncorrect },
  /** Ending the other sessions: the password given to confirm it is wrong (ASVS 7.5.2). */
  ReauthenticationPasswordInvalid: { status: 400, type: B, message: 'Password is not correct.' },
  /** A new password found in the breached-password list shipped with the service (ADR 0042, ASVS 6.2.12). */
  UserPasswordBreached: {
    status: 400,
    type: B,
    message: 'This password has appeared in a data breach. Choose a different one.',
  },
  UserPasswordAlreadySet: {
    status: 409,
    type: B,
    message: 'A password is already set for this account. Use change password instead.',
  },
  UserEmailInvalid: { status: 400, type: ExceptionType.Input, message: messages.emailFormat },
  UserPasswordInvalid: { status: 400, type: ExceptionType.Input, message: messages.passwordTooShort },
  UserEmailUnchanged: { status: 400, type: B, message: 'This is already your email address.' },
  SocialLoginProviderNotConfigured: { status: 400, type: B, message: 'This sign-in provider is not available.' },
  SocialLoginTokenInvalid: { status: 401, type: B, message: 'The sign-in with the provider could not be verified.' },
  SocialLoginEmailMissing: {
    status: 400,
    type: B,
    message: 'The provider did not share an email address. Please sign up with your email address.',
  },

  // Action tokens
  ActionTokenNotFound: { status: 404, type: B, message: 'Invalid token.' },
  ActionTokenExpired: { status: 410, type: B, message: 'Token expired.' },
  ActionTokenAlreadyUsed: { status: 409, type: B, message: 'Token already used.' },
  /** ChangeEmail or VerifyEmailChange within a day of a "This wasn't me" report (ADR 0041). */
  EmailChangeFrozen: {
    status: 403,
    type: B,
    message: `A sign-in was reported as not yours: email changes are paused for ${EMAIL_CHANGE_FREEZE_HOURS} hours.`,
  },

  // My activity (docs/decisions/0055-my-activity.md): another customer's entry is not found (ASVS 8.2.2).
  ActivityEntryNotFound: { status: 404, type: B, message: 'This entry is not in your activity.' },
  ActivityEntryNotDisputable: {
    status: 409,
    type: B,
    message: 'This entry was made by SoundID or has already been reported, so it cannot be reported.',
  },

  // Portal links of the desktop apps (ADR 0029): a one-time code, never a session token
  WebLoginCodeInvalid: {
    status: 400,
    type: B,
    message: 'This sign-in link is not valid. Open My SoundID from the app again.',
  },
  WebLoginCodeUsed: {
    status: 409,
    type: B,
    message: 'This sign-in link has already been used. Open My SoundID from the app again.',
  },
  WebLoginCodeExpired: {
    status: 410,
    type: B,
    message: 'This sign-in link has expired. Open My SoundID from the app again.',
  },
  /** CreateWebLoginCode signed in by a browser's cookie: only an app's AuthToken counts there. */
  WebLoginCodeNeedsAppSession: {
    status: 403,
    type: ExceptionType.Input,
    message: 'Only the desktop apps can make a sign-in link: send the AuthToken header.',
  },
  /** Another customer is signed in here; ExceptionVariables CurrentEmail and LinkEmail name both. */
  WebLoginSwitchUnconfirmed: {
    status: 409,
    type: B,
    message: 'Another account is signed in on this browser. Confirm to switch accounts.',
  },

  // Limits
  AttemptOverLimit: { status: 429, type: ExceptionType.Limit, message: 'Too many requests. Please try again later.' },
  /** Sign-ups from one client address over SIGNUP_MAX_PER_CLIENT in the hour (ADR 0031). */
  AttemptOverLimitSignUp: {
    status: 429,
    type: ExceptionType.Limit,
    message: 'Too many accounts have been created from your network. Please try again in an hour.',
  },
  /** Sign-ups from all clients over SIGNUP_MAX_TOTAL in the hour (ADR 0031). */
  AttemptOverLimitSignUpTotal: {
    status: 429,
    type: ExceptionType.Limit,
    message: 'We are receiving too many sign-ups right now. Please try again in an hour.',
  },
  /** Mails to one mailbox over MAILS_MAX_PER_MAILBOX in the hour: nothing is sent (ADR 0031). */
  AttemptOverLimitMailbox: {
    status: 429,
    type: ExceptionType.Limit,
    message: 'Too many emails have been sent to this address. Please wait an hour before asking for another one.',
  },
  /** Data exports of one account over DATA_EXPORT_MAX_PER_HOUR in the hour (ADR 0038). */
  AttemptOverLimitDataExport: {
    status: 429,
    type: ExceptionType.Limit,
    message: 'Too many downloads. Please try again in an hour.',
    retryAfterSeconds: 60 * 60,
  },
  /** "This wasn't me" over NOT_ME_REPORTS_PER_HOUR in the hour (docs/decisions/0055-my-activity.md). */
  AttemptOverLimitNotMe: {
    status: 429,
    type: ExceptionType.Limit,
    message: 'Too many reports. Please try again in an hour, or reset your password.',
    retryAfterSeconds: 60 * 60,
  },
  /** Every password-hashing place is taken: refused before any work, to be tried again in a moment (ADR 0028). */
  // Second factors (ADR 0037). SecondFactorRequired is not a session fault: the SPA keeps the
  // sign-in form and asks for the code; ExceptionVariables carries the Challenge.
  SecondFactorRequired: {
    status: 401,
    type: B,
    message: 'Enter the code from your authenticator app, or a recovery code.',
  },
  SecondFactorCodeInvalid: { status: 401, type: B, message: 'That code is not valid. Please try again.' },
  SecondFactorChallengeInvalid: {
    status: 401,
    type: B,
    message: 'Your sign-in has expired. Please sign in again.',
  },
  TotpAlreadyEnabled: { status: 409, type: B, message: 'Two-step verification is already on.' },
  TotpSetupNotStarted: {
    status: 409,
    type: B,
    message: 'Please start setting up two-step verification again.',
  },
  TotpNotEnabled: { status: 409, type: B, message: 'Two-step verification is not on.' },
  // Passkeys (ADR 0039). A refused assertion or attestation says no more than that.
  PasskeyInvalid: { status: 401, type: B, message: 'Your passkey could not be used. Please try again.' },
  PasskeyChallengeInvalid: {
    status: 401,
    type: B,
    message: 'The passkey request has expired. Please try again.',
  },
  PasskeyNotFound: { status: 404, type: B, message: 'That passkey was not found.' },
  PasskeyAlreadyRegistered: { status: 409, type: B, message: 'This passkey is already registered.' },
  PasskeyLimitReached: {
    status: 409,
    type: B,
    message: 'Your account has the most passkeys it can hold. Remove one to add another.',
  },
  // Step-up (ADR 0040). StepUpRequired is not a session fault: the SPA asks for a proof in place
  // and sends the call again; ExceptionVariables carries the account's Methods.
  StepUpRequired: {
    status: 403,
    type: B,
    message: "Please confirm it's you to continue.",
  },
  StepUpProofInvalid: { status: 401, type: B, message: "That didn't confirm it's you. Please try again." },
  StepUpCodeExpired: { status: 401, type: B, message: 'This code has expired. Please ask for a new one.' },
  ServiceBusy: {
    status: 503,
    type: ExceptionType.Limit,
    message: 'Too many sign-ins right now. Please try again in a moment.',
    retryAfterSeconds: SERVICE_BUSY_RETRY_AFTER_SECONDS,
  },

  // Keys and licences
  KeyRefunded: {
    status: 410,
    type: B,
    message: 'This license was refunded and can no longer be registered.',
  },

  // Licences, devices, trials and campaigns (licences feature)
  ProductNotFound: { status: 404, type: B, message: 'Product not found.' },
  DeviceNotFound: { status: 404, type: B, message: 'Device not found.' },
  NoLicenseForProduct: {
    status: 403,
    type: B,
    message: 'You have no license for this product. Register an activation key or start a trial.',
  },
  // Lost or stolen machines (docs/decisions/0050-lost-or-stolen.md).
  DeviceReportedLost: {
    status: 403,
    type: B,
    message:
      'This computer was reported lost or stolen, so it can no longer use this license. If you found it, please contact support.',
  },
  // Idle seats (docs/decisions/0052-idle-seats.md): the machine's seat was released while it was
  // away, and every seat has been taken since. ExceptionVariables: IdleDays, InstancesMax.
  IdleSeatTaken: {
    status: 409,
    type: B,
    message:
      'This computer was signed out of its license because it had not checked in for a long time, and all devices of the license are now in use. Deactivate a device on My SoundID to use this one.',
  },
  LostReportLimitReached: {
    status: 409,
    type: B,
    message: `You have already reported ${LOST_REPORTS_PER_LICENCE} devices of this license lost or stolen this year. Please contact support to free another.`,
  },
  // Passing a licence on (docs/decisions/0054-licence-transfer.md). A refused call changes nothing.
  LicenceTransferToSelf: {
    status: 409,
    type: B,
    message: 'This license key is already in the account with that email address.',
  },
  LicenceTransferPending: {
    status: 409,
    type: B,
    message: 'This license key already has an offer waiting for its recipient. Cancel it to send another.',
  },
  // ExceptionVariables: NextTransferAt (`/Date(ms)/`).
  LicenceTransferTooSoon: {
    status: 409,
    type: B,
    message: `A license key can be passed on once in ${LICENCE_TRANSFER_INTERVAL_DAYS} days.`,
  },
  LicenceTransferKeyUpgraded: {
    status: 409,
    type: B,
    message: 'This license key was traded in for an upgrade, so it cannot be passed on.',
  },
  LicenceTransferNotFound: {
    status: 404,
    type: B,
    message: 'This offer was not found. Please check the link in your email.',
  },
  LicenceTransferNotPending: {
    status: 409,
    type: B,
    message: 'This offer was already accepted or cancelled.',
  },
  LicenceTransferExpired: {
    status: 409,
    type: B,
    message: licenceMessages.licenceTransferExpired,
  },
  /**
   * StartLicenceTransfer or AcceptLicenceTransfer within a day of a "This wasn't me" report
   * (docs/decisions/0055-my-activity.md). ExceptionVariables: FrozenUntil (`/Date(ms)/`); the
   * user text names the time (UTC).
   */
  AccountFrozen: {
    status: 403,
    type: B,
    message: `Something on this account was reported as not yours: licenses cannot be passed on for ${ACCOUNT_FREEZE_HOURS} hours.`,
  },
  // ExceptionVariables: Email (the addressed one, masked).
  LicenceTransferWrongAccount: {
    status: 403,
    type: B,
    message: 'This offer was sent to another email address. Sign in with that address to accept it.',
  },
  SeatLimitReached: {
    status: 409,
    type: B,
    message: 'All devices of this license are in use. Deactivate a device to activate this one.',
  },
  KeyAlreadyUpgraded: { status: 409, type: B, message: 'This license has already been upgraded.' },
  TrialNotAvailable: { status: 400, type: B, message: 'This product has no free trial.' },
  TrialAlreadyUsed: { status: 409, type: B, message: 'The free trial of this product has already been used.' },
  SerialNotFound: {
    status: 404,
    type: B,
    message: 'Serial number is not valid. Please check the serial number on your monitor.',
  },
  SerialAlreadyUsed: {
    status: 409,
    type: B,
    message: 'This serial number has already been used to claim a trial.',
  },
  OfflineRequestInvalid: { status: 400, type: ExceptionType.Input, message: 'The license request file is not valid.' },
  // Offline deactivation (docs/decisions/0053-offline-deactivation.md): Reason says what is wrong.
  OfflineDeactivationInvalid: {
    status: 400,
    type: ExceptionType.Input,
    message: 'The deactivation file is not valid.',
  },
  OfflineActivationUnavailable: {
    status: 503,
    type: ExceptionType.Service,
    message: 'Offline activation is not available right now.',
  },

  // Voice AI tokens
  TokenBalanceInsufficient: {
    status: 402,
    type: B,
    message: 'Not enough tokens. Buy more tokens to continue processing.',
  },
  TokenRequestIdReused: {
    status: 409,
    type: B,
    message: 'This request id was already used for a different request.',
  },

  // Card checkout of token bundles
  PriceNotFound: { status: 404, type: B, message: 'This token bundle is not available.' },
  PaymentNotFound: { status: 404, type: B, message: 'Payment not found.' },
  CheckoutReturnUrlNotAllowed: {
    status: 400,
    type: ExceptionType.Input,
    message: 'The return address must be on this site.',
  },
  CheckoutSessionNotFound: { status: 404, type: B, message: 'Checkout session not found.' },
  CardInvalid: {
    status: 400,
    type: ExceptionType.Input,
    message: 'Use a test card number such as 4242 4242 4242 4242, a future expiry date and any CVC.',
  },
  CardDeclined: { status: 402, type: B, message: 'Your card was declined.' },
  WebhookSignatureInvalid: { status: 400, type: ExceptionType.Input, message: 'Webhook signature is not valid.' },

  // Storefront: the perpetual licence bought through Shopify or the sandbox storefront
  StorefrontUnavailable: {
    status: 503,
    type: ExceptionType.Service,
    message: 'The store is not available right now. Please try again later.',
  },
  StorefrontCheckoutNotFound: {
    status: 404,
    type: B,
    message: 'This checkout link is not valid or has expired. Please start again from the store.',
  },
  StorefrontCartEmpty: { status: 409, type: B, message: 'Your cart is empty.' },
  StorefrontWebhookIdMissing: {
    status: 400,
    type: ExceptionType.Input,
    message: 'The X-Shopify-Webhook-Id header is missing.',
  },
  // Finance's refunds of storefront orders (ADR 0059)
  StorefrontOrderNotFound: { status: 404, type: ExceptionType.Input, message: 'Storefront order not found.' },
  StorefrontOrderNotPaid: {
    status: 409,
    type: ExceptionType.Input,
    message: 'This order has not been paid: no licence was granted, there is nothing to refund.',
  },
  /** Every licence of the order is refunded already, or the order was cancelled. */
  StorefrontOrderRefunded: {
    status: 409,
    type: ExceptionType.Input,
    message: 'Every licence of this order is already refunded, or the order was cancelled. Nothing was refunded.',
  },
  /** More licences asked for than are left to refund (`RefundableQuantity`), or the store refused the refund. */
  StorefrontRefundInvalid: {
    status: 409,
    type: ExceptionType.Input,
    message: 'This order has fewer licences left to refund than asked. Nothing was refunded.',
  },
  /** A real store without SHOPIFY_ADMIN_TOKEN (outside production): refund in the Shopify admin instead. */
  StorefrontRefundsUnavailable: {
    status: 503,
    type: ExceptionType.Service,
    message: 'Refunds of storefront orders are not set up here (SHOPIFY_ADMIN_TOKEN). Refund in the Shopify admin.',
  },

  // Voice AI pay-as-you-go seats (voice-buy)
  OfflineActivationNeedsLicence: {
    status: 409,
    type: B,
    message:
      'Offline activation needs a perpetual license or a running trial: pay-as-you-go processing spends tokens online.',
  },

  // Releases and the download center (docs/decisions/0046-release-storage.md). An upload refused
  // for its size or kind stores nothing; ExceptionVariables name the limit or the kinds allowed.
  ReleaseFileMissing: {
    status: 400,
    type: ExceptionType.Input,
    message: 'Send the installer as the multipart field "file", after the fields product, platform, version and notes.',
  },
  ReleaseFileTooLarge: {
    status: 413,
    type: ExceptionType.Input,
    message: 'The installer is larger than the upload limit (RELEASE_MAX_BYTES).',
  },
  ReleaseFileTypeNotAllowed: {
    status: 415,
    type: ExceptionType.Input,
    message:
      'This kind of file is not taken for this platform: macOS takes .dmg, .pkg or .zip; Windows .exe, .msi or .zip.',
  },
  ReleaseFileContentInvalid: {
    status: 415,
    type: ExceptionType.Input,
    message: "The file's content is not what its extension says: it is not an installer of that kind.",
  },
  ReleaseAlreadyExists: {
    status: 409,
    type: B,
    message: 'This version of the product is already published for this platform. Publish a new version instead.',
  },
  ReleaseNotFound: { status: 404, type: B, message: 'This download is not available.' },
  DownloadLinkExpired: {
    status: 410,
    type: B,
    message: 'This download link has expired. Start the download again from the download center.',
  },
  DownloadLinkInvalid: {
    status: 403,
    type: B,
    message: 'This download link is not valid for your account. Start the download from the download center.',
  },
  ReleaseStorageUnavailable: {
    status: 503,
    type: ExceptionType.Service,
    message: 'Downloads are not available right now. Please try again in a moment.',
  },

  // Licenses & Devices page (licences-web): offline activation switched off on this deployment
  OfflineActivationDisabled: {
    status: 403,
    type: B,
    message: 'Offline activation is not available on this site.',
  },
} as const satisfies Record<string, FaultSpec>;

export type FaultName = keyof typeof faults;

export function isFaultName(name: string): name is FaultName {
  return Object.hasOwn(faults, name);
}

export type FaultBody = z.infer<typeof faultSchema>;

export interface FailureEnvelope {
  Success: false;
  Fault: FaultBody;
}
export interface SuccessEnvelope<T> {
  Success: true;
  Result: T;
}
export type Envelope<T> = SuccessEnvelope<T> | FailureEnvelope;
