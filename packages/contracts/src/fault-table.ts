// The faults the SPA shows by name, apart from the rest of the catalogue (errors.ts) so that its
// first load carries these and not the catalogue (the /login budget, ADR 0020): a fault added to
// errors.ts costs the first load nothing. The lookup and lists are in fault-handling.ts.
import { LOGIN_LOCKOUT_MINUTES } from './constants';

/**
 * ExceptionType values (API contract: 30 is fixed, the rest are ours).
 *  10 bad input · 20 business rule · 30 session no longer valid · 40 over a limit · 50 service fault
 */
export const ExceptionType = { Input: 10, Business: 20, Session: 30, Limit: 40, Service: 50 } as const;
export type ExceptionType = (typeof ExceptionType)[keyof typeof ExceptionType];

export interface FaultSpec {
  status: number;
  type: ExceptionType;
  /** The message shown to customers: the spec's table (docs/requirements.md §8) where it has one. */
  message: string;
  /** Sent as the Retry-After header: when trying again may succeed (a limit, a busy service). */
  retryAfterSeconds?: number;
}

const B = ExceptionType.Business;

/**
 * The faults whose message the SPA knows by name (docs/requirements.md §8: "a message by fault
 * name, else the server's user text"), each defined here once and part of `faults` (errors.ts):
 * the spec's message table; the faults the SPA makes up itself (Network Error, Unknown) or names
 * on a screen without a server answer; and RequestInvalid, whose server text says what was wrong
 * while the SPA keeps its one message. The service sends every other fault with its catalogue
 * message as ExceptionUserText, which the SPA then shows.
 */
export const faultTable = {
  // Made up by the SPA when there is no Fault to show, and the spec's first rows
  'Network Error': {
    status: 503,
    type: ExceptionType.Service,
    message: 'Please check your internet connection and refresh the page to continue.',
  },
  Unknown: { status: 500, type: ExceptionType.Service, message: 'Unknown error.' },

  // The spec's message table (docs/requirements.md §8), word for word (message-table.test.ts)
  UserSaveFailure: { status: 500, type: ExceptionType.Service, message: 'Saving user failed.' },
  UserEmailValidationNotFound: { status: 404, type: B, message: 'Email validation not found.' },
  UserLoginNotRegistered: { status: 404, type: B, message: 'Login is not registered.' },
  ActionTokenSaveFailure: { status: 500, type: ExceptionType.Service, message: 'Saving token failed.' },
  UserPasswordChangeNewPasswordInvalidTooWeak: { status: 400, type: B, message: 'New password is too weak.' },
  LoginNeeded: { status: 401, type: ExceptionType.Session, message: 'Unauthorized.' },
  KeyNotFound: {
    status: 404,
    type: B,
    message: 'License activation key is not valid. Please check if you have entered the key correctly.',
  },
  KeySaveFailure: { status: 500, type: ExceptionType.Service, message: 'Saving key failed.' },
  KeyNooneToAssignKeyTo: { status: 400, type: B, message: 'User not specified for key assignment.' },
  TokenInvalid: { status: 400, type: B, message: 'Invalid token.' },
  TokenExpired: { status: 410, type: B, message: 'Token expired.' },
  TransferFailedUserNotFound: { status: 404, type: B, message: 'User not found for transfer.' },
  TransferFailedUserEmailNotVerified: { status: 403, type: B, message: 'Transfer user email is not verified.' },
  TransferFailedUserOtherError: { status: 400, type: B, message: 'Transfer unknown error.' },
  EmailValidationTokenNotFound: { status: 404, type: B, message: 'This email verification link is invalid.' },
  EmailChangeValidationTokenNotFound: { status: 404, type: B, message: 'This email verification link is invalid.' },
  EmailValidationTokenAlreadyUsed: { status: 409, type: B, message: 'Email address already validated.' },
  EmailChangeValidationTokenAlreadyUsed: { status: 409, type: B, message: 'Email address already validated.' },
  EmailChangeEmailAlreadyUsedByAnotherUser: {
    status: 409,
    type: B,
    message: 'Email address already used by another user.',
  },
  EmailChangeValidationTokenSaveFailure: { status: 500, type: ExceptionType.Service, message: 'Token save failed.' },
  AccountDeletionTokenAlreadyUsed: { status: 409, type: B, message: 'Account already deleted.' },
  AccountDeletionTokenNotFound: { status: 404, type: B, message: 'This account deletion link is invalid.' },
  UserLoginEmailNotVerified: { status: 403, type: B, message: 'Please verify your email before logging in.' },
  UserLoginEmailUnverifiedAndLinkExpired: {
    status: 403,
    type: B,
    message: 'Please verify your email before logging in.',
  },
  UserLoginInvalidCredentials: {
    status: 401,
    type: B,
    message: "We don't recognize this user. Please check your email address and password.",
  },
  AttemptOverLimitLogin: {
    status: 429,
    type: ExceptionType.Limit,
    message: 'Login failed. Please try again after 5 minutes.',
    retryAfterSeconds: LOGIN_LOCKOUT_MINUTES * 60,
  },
  KeyOwnedByAnotherUser: {
    status: 409,
    type: B,
    message:
      'This license activation key is already registered to another account. Did you use a different email address before? Look for mail from accounts@soundid.com.',
  },
  KeyAlreadyExisting: {
    status: 409,
    type: B,
    message: 'This license activation key has already been registered for your account.',
  },
  UpgradeKeyAlreadyUsed: {
    status: 409,
    type: B,
    message: 'This upgrade code has already been used. Each upgrade code can only be used once.',
  },
  KeyBundleNotAllowed: {
    status: 400,
    type: B,
    message: 'Product license not supported. Use the activation key in the product to activate.',
  },
  UpgradeCodeNotFound: {
    status: 404,
    type: B,
    message: 'Upgrade code is not valid. Please check if you have entered the code correctly.',
  },
  KeyRevokeOverLimit: { status: 429, type: B, message: 'You have reached license deactivation limit.' },

  // Ours, shown by name: RequestInvalid whatever the server's detail; the rest named by a screen
  // with no server answer to hand (faultMessage with one argument accepts only this table's names)
  RequestInvalid: { status: 400, type: ExceptionType.Input, message: 'The request is not valid.' },
  RequestTooLarge: { status: 400, type: ExceptionType.Input, message: 'The request is too large.' },
  AttemptOverLimitChangeEmail: {
    status: 429,
    type: ExceptionType.Limit,
    message: 'Too many email change requests. Please try again later.',
  },
  CheckoutUnavailable: {
    status: 503,
    type: ExceptionType.Service,
    message: 'Payment gateway initialization failed. Please try again.',
  },
  CheckoutSessionExpired: { status: 410, type: B, message: 'This checkout session has expired. Please start again.' },
  /** The title of the upgrade panel's popup (licenceMessages): the licences spec quotes it. */
  UpgradeCodeIncompatibility: {
    status: 409,
    type: B,
    message: 'This upgrade code cannot be used with your current license',
  },
} as const satisfies Record<string, FaultSpec>;

/** A fault whose message the SPA may show without the server's text. */
export type TableFaultName = keyof typeof faultTable;
