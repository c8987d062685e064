import { z } from 'zod';
import { CLIENT_REPORT_PATH } from '../client-reports';
import { publicConfigSchema } from '../public-config';
import { shopifyWebhookResultSchema, storefrontOrderSummarySchema } from '../storefront';
import {
  accountCalls,
  accountResults,
  appAccountCalls,
  appAccountResults,
  featuresResultSchema,
  storeSettingsSchema,
  userSchema,
} from './accounts';
import { activityCalls, activityResults } from './activity';
import { backOfficeCalls, backOfficeResults, customerPageSchema } from './back-office';
import { checkoutCalls, checkoutResults, paymentMismatchSummarySchema, stripeWebhookResultSchema } from './checkout';
import { dataExportCalls, dataExportResults } from './data-export';
import {
  type Replies,
  type ResultEnvelope,
  replies,
  resultEnvelope,
  type SignInEnvelope,
  signInEnvelope,
} from './envelope';
import {
  actionResultSchema,
  appLicenceCalls,
  appLicenceResults,
  licenceCalls,
  licenceResults,
  offlinePublicKeyResultSchema,
} from './licences';
import { operatorCalls, operatorResults } from './operators';
import { passkeyCalls, passkeyResults } from './passkeys';
import { releaseCalls, releaseOperatorResults, releaseResults } from './releases';
import { type CallPath, callPathOf, type OtherPathCall, type PathCall } from './routes';
import { secondFactorCalls, secondFactorResults } from './second-factor';
import { signInAlertCalls, signInAlertResults } from './sign-in-alerts';
import { stepUpCalls, stepUpResults } from './step-up';
import { tokenNoticeCalls, tokenNoticeResults } from './token-notices';
import { voiceAiCalls, voiceAiResults } from './voice-ai';

/**
 * Results of the calls that are not the portal's: probes, public configuration, operators,
 * webhooks and the dev mailbox (docs/api.md, Typed results).
 */
export const healthResultSchema = z.object({ Status: z.string() });
export const readyResultSchema = z.object({ Status: z.string(), Database: z.string() });

export const adminUserResultSchema = userSchema
  .extend({
    CreatedAt: z.string(),
    ActiveSessions: z.number(),
    SocialProviders: z.array(z.string()),
    /** Whether sign-in is locked for the address now (support unlocks it). */
    SignInLocked: z.boolean(),
    /** The keys held, by product and last six characters (support moves one with the key in full). */
    Keys: z.array(z.object({ Product: z.string(), KeyEnding: z.string(), RegisteredAt: z.string().nullable() })),
    /** The active devices, with the id support deactivates one by. */
    Devices: z.array(
      z.object({
        Id: z.string(),
        Product: z.string(),
        Name: z.string(),
        MachineId: z.string(),
        ActivatedAt: z.string(),
      }),
    ),
  })
  .extend(customerPageSchema.shape);
export const adminMetricsResultSchema = z.object({
  HeapUsedBytes: z.number(),
  RssBytes: z.number(),
  Collected: z.boolean(),
  UptimeSeconds: z.number(),
  Database: z.object({ Kind: z.string(), Connections: z.unknown() }),
});
export const grantTokensResultSchema = z.object({
  Credited: z.boolean(),
  Amount: z.number(),
  TokenBalance: z.number(),
});
export const adminProductSchema = z.object({
  Code: z.string(),
  ProductName: z.string(),
  DisplayName: z.string(),
  Line: z.string(),
  Kind: z.string(),
  InstancesMax: z.number(),
  TrialDays: z.number().nullable(),
});
export const devMailSchema = z.object({
  To: z.string(),
  Subject: z.string(),
  Text: z.string(),
  Html: z.string(),
  Links: z.array(z.string()),
  /** The mail's files (a receipt, ADR 0058): each served at its Url, `/api/dev/mail/<id>/attachments/<n>`. */
  Attachments: z.array(
    z.object({ FileName: z.string(), ContentType: z.string(), SizeBytes: z.number(), Url: z.string() }),
  ),
  CreatedAt: z.string(),
});
export type DevMail = z.infer<typeof devMailSchema>;

export const operationResults = {
  Health: healthResultSchema,
  Ready: readyResultSchema,
  GetPublicConfig: publicConfigSchema,
  GetFeatures: featuresResultSchema,
  GetStoreSettings: storeSettingsSchema,
  GetOfflinePublicKey: offlinePublicKeyResultSchema,
  InvokeAction: actionResultSchema,
  AdminUser: adminUserResultSchema,
  AdminMetrics: adminMetricsResultSchema,
  AdminGrantTokens: grantTokensResultSchema,
  AdminPaymentMismatches: z.array(paymentMismatchSummarySchema),
  AdminProducts: z.array(adminProductSchema),
  AdminIssueKeys: z.object({ Keys: z.array(z.string()) }),
  AdminIssueUpgradeCodes: z.object({ Codes: z.array(z.string()) }),
  AdminAddSerials: z.object({ Added: z.number(), AlreadyPresent: z.number() }),
  AdminStorefrontOrders: z.array(storefrontOrderSummarySchema),
  AdminUnlockSignIn: z.object({ WasLocked: z.boolean() }),
  AdminEndCustomerSessions: z.object({ SessionsEnded: z.number() }),
  AdminResendVerification: z.object({ Sent: z.boolean() }),
  AdminDeactivateDevice: z.object({ Device: z.string(), Product: z.string(), Customer: z.string() }),
  AdminMoveLicence: z.object({ Product: z.string(), From: z.string().nullable(), To: z.string() }),
  ...releaseOperatorResults,
  ...backOfficeResults,
  StripeWebhook: stripeWebhookResultSchema,
  ShopifyWebhook: shopifyWebhookResultSchema,
  DevMail: z.array(devMailSchema),
} as const;

/** Every call's result by its name: the one map the service's schemas and the SPA's client read. */
export const callResults = {
  ...accountResults,
  ...secondFactorResults,
  ...passkeyResults,
  ...stepUpResults,
  ...dataExportResults,
  ...signInAlertResults,
  ...activityResults,
  ...tokenNoticeResults,
  ...appAccountResults,
  ...licenceResults,
  ...appLicenceResults,
  ...voiceAiResults,
  ...checkoutResults,
  ...operatorResults,
  ...releaseResults,
  ...operationResults,
} as const;
export type CallName = keyof typeof callResults;
export type CallResult<N extends CallName> = z.output<(typeof callResults)[N]>;

/**
 * How a call is signed in, for the OpenAPI document: the customer's session (AuthToken header,
 * or the session cookie with the Software header), only AuthToken (desktop apps), either or
 * none, the operator's bearer token, a webhook signature, or nothing.
 */
export type CallAuth = 'session' | 'app' | 'optional' | 'operator' | 'bootstrap' | 'signature' | 'none';

export interface CallRoute {
  method: 'GET' | 'POST';
  /** The path; an action's (`InvokeAction`) is the one in the button, under /api/actions/. */
  path: string;
  auth: CallAuth;
  summary: string;
}

const account = (summary: string, auth: CallAuth = 'session') => ({ auth, summary });

const accountRouteInfo = {
  LoginByEmail: account('Sign in with e-mail and password', 'none'),
  LoginByToken: account('Who is signed in (the session of the cookie or AuthToken)'),
  LoginBySocial: account('Sign in with a Google, Apple or Facebook token', 'none'),
  Logout: account('End the session and clear the cookie', 'optional'),
  GetAppLoginDeeplink: account('A deeplink that signs the desktop app in'),
  ExchangeWebLoginCode: account("Sign the browser in with a desktop app's portal link", 'optional'),
  UpdateUserDetails: account("Save the customer's address"),
  register: account('Create an account', 'none'),
  InitiatePasswordReset: account('Mail a password reset link', 'none'),
  PasswordReset: account("Choose a new password with a reset link's token", 'none'),
  DeleteAccountConfirm: account("Delete the account with a deletion mail's token", 'none'),
  VerifyEmail: account('Verify the e-mail address and sign in', 'none'),
  VerifyEmailChange: account('Confirm a new e-mail address', 'none'),
  ResendVerificationEmailForToken: account('Mail a new verification link for an expired one', 'none'),
  ResendVerificationEmail: account('Mail a new verification link', 'none'),
  GetPaymentCountries: account('The countries of the address form', 'none'),
  GetOrUpdateProfile: account("The signed-in customer's profile"),
  ChangePassword: account('Change the password'),
  ChangeEmail: account('Ask to change the e-mail address (a confirmation mail)'),
  DeleteAccount: account('Ask to delete the account (a confirmation mail)'),
  GetSessions: account("The customer's signed-in sessions"),
  EndOtherSessions: account('Sign out every other session'),
} as const satisfies Record<keyof typeof accountResults, Omit<CallRoute, 'method' | 'path'>>;

/** Second factors (ADR 0037) and passkeys (ADR 0039), under /api/accounts/ too. */
const secondFactorRouteInfo = {
  LoginSecondFactor: account('Complete a sign-in with a TOTP or recovery code', 'none'),
  GetSecondFactors: account('Whether two-step verification is on, and recovery codes left'),
  BeginTotpSetup: account('Start setting up an authenticator app (a new secret)'),
  ConfirmTotpSetup: account("Turn two-step verification on with the app's first code"),
  DisableTotp: account('Turn two-step verification off with a code'),
  RegenerateRecoveryCodes: account('Replace the recovery codes, proven by a code'),
} as const satisfies Record<keyof typeof secondFactorResults, Omit<CallRoute, 'method' | 'path'>>;
const passkeyRouteInfo = {
  ListPasskeys: account("The customer's passkeys"),
  BeginPasskeyRegistration: account('Options to create a passkey'),
  FinishPasskeyRegistration: account("Register a passkey with the authenticator's answer"),
  RenamePasskey: account('Rename a passkey'),
  RemovePasskey: account('Remove a passkey'),
  BeginPasskeyLogin: account('Options to sign in with a passkey', 'none'),
  FinishPasskeyLogin: account('Sign in with a passkey', 'none'),
} as const satisfies Record<keyof typeof passkeyResults, Omit<CallRoute, 'method' | 'path'>>;
/** Step-up (ADR 0040): a fresh proof of presence before what matters. */
const stepUpRouteInfo = {
  GetStepUpMethods: account('How this account can prove presence, and until when the proof holds'),
  BeginStepUpPasskey: account("Options to prove presence with one of the account's passkeys"),
  SendStepUpCode: account('Mail a code that proves presence (accounts without a password)'),
  StepUp: account('Prove presence: password, authenticator code, passkey or mailed code'),
} as const satisfies Record<keyof typeof stepUpResults, Omit<CallRoute, 'method' | 'path'>>;
const dataExportRouteInfo = {
  ExportMyData: account('Everything held about the customer, as JSON (ADR 0038)'),
  GetDeletionSummary: account('What deleting the account would end'),
} as const satisfies Record<keyof typeof dataExportResults, Omit<CallRoute, 'method' | 'path'>>;
const signInAlertRouteInfo = {
  ReportSignIn: account('A new-device mail\'s "This wasn\'t me": sessions end, the password is reset', 'none'),
} as const satisfies Record<keyof typeof signInAlertResults, Omit<CallRoute, 'method' | 'path'>>;
/** My activity (docs/decisions/0055-my-activity.md). */
const activityRouteInfo = {
  GetMyActivity: account("A page of the account's activity, newest first"),
  ReportNotMe: account(
    '"This wasn\'t me" on an entry: every session ends, a reset is mailed, e-mail changes and transfers freeze',
  ),
} as const satisfies Record<keyof typeof activityResults, Omit<CallRoute, 'method' | 'path'>>;
/** Voice AI token notices by mail (ADR 0057), on the profile. */
const tokenNoticeRouteInfo = {
  GetNotificationPreferences: account('Which voice AI token notices are mailed, and the low-balance threshold'),
  SetNotificationPreferences: account('Turn the token expiry and low-balance mails on or off; set the threshold'),
} as const satisfies Record<keyof typeof tokenNoticeResults, Omit<CallRoute, 'method' | 'path'>>;
const accountPathInfo = {
  ...accountRouteInfo,
  ...secondFactorRouteInfo,
  ...passkeyRouteInfo,
  ...stepUpRouteInfo,
  ...dataExportRouteInfo,
  ...signInAlertRouteInfo,
  ...activityRouteInfo,
  ...tokenNoticeRouteInfo,
};

/** The operators' own calls (ADR 0044): signed in as an operator unless said otherwise. */
const operatorRouteInfo = {
  OperatorBootstrap: { auth: 'bootstrap', summary: "Operator: the first admin's invitation (bootstrap token, once)" },
  InviteOperator: { auth: 'operator', summary: 'Operator: invite an operator with roles' },
  AcceptOperatorInvitation: { auth: 'none', summary: 'Operator: set a password from an invitation' },
  ConfirmOperatorInvitation: { auth: 'none', summary: "Operator: confirm the invitation's authenticator code" },
  OperatorLogin: { auth: 'none', summary: 'Operator: sign in with a password (answers a challenge)' },
  OperatorLoginSecondFactor: { auth: 'none', summary: 'Operator: complete a sign-in with the authenticator code' },
  OperatorLogout: { auth: 'operator', summary: 'Operator: sign out' },
  OperatorMe: { auth: 'operator', summary: 'Operator: who is signed in' },
  ListOperatorSessions: { auth: 'operator', summary: "Operator: one's console sessions" },
  EndOperatorSession: { auth: 'operator', summary: 'Operator: end a console session' },
  CreateOperatorApiToken: { auth: 'operator', summary: 'Operator: a personal, scoped, expiring API token' },
  ListOperatorApiTokens: { auth: 'operator', summary: "Operator: API tokens (one's own; an admin sees all)" },
  RevokeOperatorApiToken: { auth: 'operator', summary: 'Operator: revoke an API token' },
  ListOperators: { auth: 'operator', summary: 'Operator: every operator' },
  SetOperatorRoles: { auth: 'operator', summary: "Operator: change an operator's roles" },
  DisableOperator: { auth: 'operator', summary: 'Operator: disable an operator (sessions and tokens end)' },
  SearchAudit: { auth: 'operator', summary: 'Operator: search the audit trail' },
  VerifyAudit: { auth: 'operator', summary: "Operator: prove the audit trail's hash chain" },
} as const satisfies Record<keyof typeof operatorResults, Omit<CallRoute, 'method' | 'path'>>;

/** Each other call's sign-in and a line on it, for the OpenAPI document; its path is routes.ts'. */
const otherRouteInfo = {
  CreateWebLoginCode: { auth: 'app', summary: 'A portal link that opens the browser signed in as the customer' },
  ExchangeLoginToken: { auth: 'none', summary: "Sign a desktop app in with the login deeplink's one-time token" },
  GetAccountLicensesByProductLine: { auth: 'session', summary: "The customer's licences and devices by product line" },
  RegisterKey: { auth: 'session', summary: 'Register a licence key' },
  UpgradeKey: { auth: 'session', summary: 'Upgrade a licence key' },
  KeyUpgradePaths: { auth: 'session', summary: "Where a key's upgrades are sold" },
  ClaimAdam60Day: { auth: 'session', summary: "Claim a campaign's 60-day trial with a serial" },
  OfflineActivate: { auth: 'session', summary: 'A signed licence file for an offline machine' },
  OfflineDeactivate: {
    auth: 'session',
    summary: "Free an offline machine's seat with its app's deactivation file; a signed receipt back",
  },
  GetDeactivationAllowance: {
    auth: 'session',
    summary: 'Deactivations left of a licence, and when the next comes back',
  },
  ReportDeviceLost: {
    auth: 'session',
    summary: "Free a lost or stolen machine's seat and refuse that machine (step-up)",
  },
  StartLicenceTransfer: { auth: 'session', summary: 'Offer a licence key to an e-mail address (step-up)' },
  CancelLicenceTransfer: { auth: 'session', summary: 'Withdraw a pending offer to pass a licence on' },
  GetLicenceTransfer: { auth: 'session', summary: "What a licence offer's mailed link offers" },
  AcceptLicenceTransfer: { auth: 'session', summary: 'Take a licence key offered to your address' },
  GetIncomingLicenceTransfers: { auth: 'session', summary: 'The open licence offers to your verified address' },
  AcceptIncomingLicenceTransfer: { auth: 'session', summary: 'Take an offered licence key by its offer id' },
  GetOfflinePublicKey: { auth: 'none', summary: 'The public key that verifies offline licence files' },
  ActivateDevice: { auth: 'session', summary: 'Activate a machine' },
  DeactivateDevice: { auth: 'session', summary: 'Deactivate a machine' },
  CheckLicense: { auth: 'session', summary: 'Whether a machine is licensed' },
  GetProducts: { auth: 'session', summary: 'What the voice AI buy page offers' },
  GetPurchaseHistory: { auth: 'session', summary: 'A page of token purchases' },
  GetActionHistory: { auth: 'session', summary: 'A page of token usage' },
  ConsumeTokens: { auth: 'session', summary: 'Spend voice AI tokens' },
  PrepareTokenPurchaseCheckout: { auth: 'session', summary: 'Start the card checkout of a token bundle' },
  GetPaymentStatus: { auth: 'session', summary: "A checkout's payment status" },
  SandboxCheckoutSession: { auth: 'none', summary: 'Sandbox: the checkout session of a client secret' },
  SandboxCheckoutPay: { auth: 'none', summary: 'Sandbox: pay a checkout session with a test card' },
  SandboxCheckoutRefund: { auth: 'operator', summary: 'Sandbox: refund a paid checkout session' },
  Health: { auth: 'none', summary: 'The process is up' },
  Ready: { auth: 'none', summary: 'The database is reachable' },
  GetPublicConfig: { auth: 'none', summary: 'What the browser may know about this deployment' },
  GetFeatures: { auth: 'none', summary: 'Feature flags' },
  GetStoreSettings: { auth: 'none', summary: 'The storefront the buy page talks to' },
  InvokeAction: { auth: 'session', summary: "An action button's GET URL" },
  AdminUser: { auth: 'operator', summary: 'Operator: a customer' },
  AdminMetrics: { auth: 'operator', summary: 'Operator: memory and connections' },
  AdminGrantTokens: { auth: 'operator', summary: 'Operator: grant voice AI tokens' },
  AdminPaymentMismatches: { auth: 'operator', summary: 'Operator: payments that did not match their checkout' },
  AdminProducts: { auth: 'operator', summary: 'Operator: the catalogue' },
  AdminIssueKeys: { auth: 'operator', summary: 'Operator: issue keys' },
  AdminIssueUpgradeCodes: { auth: 'operator', summary: 'Operator: issue upgrade codes' },
  AdminAddSerials: { auth: 'operator', summary: 'Operator: add campaign serials' },
  AdminStorefrontOrders: { auth: 'operator', summary: "Operator: a customer's storefront orders" },
  AdminUnlockSignIn: { auth: 'operator', summary: "Support: clear an address's sign-in lockout" },
  AdminEndCustomerSessions: { auth: 'operator', summary: 'Support: end every session of a customer' },
  AdminResendVerification: { auth: 'operator', summary: 'Support: mail a new verification link' },
  AdminDeactivateDevice: { auth: 'operator', summary: "Support: deactivate a device outside the customer's allowance" },
  AdminMoveLicence: { auth: 'operator', summary: 'Support: move a licence key to another account' },
  AdminUploadRelease: {
    auth: 'operator',
    summary: 'Operator: publish an installer (multipart: fields, then the file)',
  },
  AdminReleases: { auth: 'operator', summary: 'Operator: the published releases, newest version first' },
  AdminRemoveRelease: { auth: 'operator', summary: 'Operator: withdraw a release and delete its file' },
  AdminSearchCustomers: {
    auth: 'operator',
    summary: 'Operator: customers by e-mail prefix, licence key, device, storefront order or invoice tag',
  },
  AdminResetDeactivations: { auth: 'operator', summary: 'Support: give a licence its deactivation allowance back' },
  AdminUndoLostReport: { auth: 'operator', summary: 'Support: let a machine reported lost use its licence again' },
  AdminJobs: { auth: 'operator', summary: 'Admin: the job queue, job by job' },
  AdminRunJob: { auth: 'operator', summary: 'Admin: run a scheduled job now' },
  AdminWithdrawTokens: { auth: 'operator', summary: 'Finance: take voice AI tokens back' },
  AdminRefundPayment: { auth: 'operator', summary: 'Finance: refund a card payment through the payment provider' },
  AdminRefundStorefrontOrder: {
    auth: 'operator',
    summary: "Finance: refund a storefront order's perpetual licences through the store",
  },
  AdminImportSerials: { auth: 'operator', summary: 'Admin: import campaign serials from a CSV file, all or nothing' },
  GetDownloadCenter: { auth: 'session', summary: 'The installers of the products the customer holds or can try' },
  GetDownloadLink: { auth: 'session', summary: 'A short-lived link to one installer, for the signed-in customer' },
  StripeWebhook: { auth: 'signature', summary: "Stripe's events (signed)" },
  ShopifyWebhook: { auth: 'signature', summary: "Shopify's order events (signed)" },
  DevMail: { auth: 'none', summary: 'Development: the mails sent, newest first' },
} as const satisfies Record<OtherPathCall, Omit<CallRoute, 'method' | 'path'>>;

const withPaths = <I extends Record<string, Omit<CallRoute, 'method' | 'path'>>>(info: I) =>
  Object.fromEntries(
    Object.entries(info).map(([name, entry]) => [name, { ...callPathOf(name as PathCall), ...entry }]),
  ) as unknown as { [N in keyof I & PathCall]: CallPath<N> & I[N] };

/** The API contract's paths (docs/api.md) and a line on each call, by the call's name. */
export const callRoutes = {
  ...withPaths(accountPathInfo),
  ...withPaths(operatorRouteInfo),
  ...withPaths(otherRouteInfo),
} as const satisfies Record<CallName, CallRoute>;

/**
 * Operations that are no call of the SPA's client: the error-report collector (no Result) and
 * each GET action URL (all answer InvokeAction's result), by the route's path.
 */
export const otherOperations: Record<string, { name: string; auth: CallAuth; summary: string }> = {
  [`POST ${CLIENT_REPORT_PATH}`]: {
    name: 'ReportClientError',
    auth: 'none',
    summary: "The browser's error reports and traces",
  },
  'GET /api/actions/devices/:id/deactivate': {
    name: 'DeactivateDeviceAction',
    auth: 'session',
    summary: 'Deactivate a device (action button)',
  },
  'GET /api/actions/licenses/:id/remove': {
    name: 'RemoveLicenseAction',
    auth: 'session',
    summary: 'Remove a licence key (action button)',
  },
  'GET /api/actions/voice-ai/perpetual/:id/remove': {
    name: 'RemovePerpetualAction',
    auth: 'session',
    summary: 'Remove the voice AI perpetual licence (action button)',
  },
  'GET /api/actions/voice-ai/asset-packs/:id/remove': {
    name: 'RemoveAssetPackAction',
    auth: 'session',
    summary: 'Remove an expansion pack (action button)',
  },
  'GET /api/downloads/file': {
    name: 'DownloadReleaseFile',
    auth: 'session',
    summary: "An installer's bytes, by a GetDownloadLink token of the signed-in customer (local storage)",
  },
  'GET /api/voiceai/receipts/:file': {
    name: 'DownloadReceipt',
    auth: 'session',
    summary: "A card purchase's receipt (PDF, attachment), the signed-in customer's own: <invoiceTag>.pdf",
  },
  'GET /api/dev/mail/:id/attachments/:n': {
    name: 'DevMailAttachment',
    auth: 'none',
    summary: "Development: a file of a mail in the dev outbox (DevMail's Attachments[].Url)",
  },
  'GET /api/actions/trials/:product/starttrial': {
    name: 'StartTrialAction',
    auth: 'session',
    summary: 'Start a trial (server action)',
  },
  'GET /api/actions/products/:product/activate': {
    name: 'ConfirmActivationAction',
    auth: 'session',
    summary: 'Confirm an activation (server action)',
  },
};

/** The operation at a method and route path (`/api/x/:id`), for the OpenAPI document. */
export function operationAt(
  method: string,
  url: string,
): { name: string; auth: CallAuth; summary: string } | undefined {
  const other = otherOperations[`${method} ${url}`];
  if (other) return other;
  for (const [name, route] of Object.entries(callRoutes) as [CallName, CallRoute][]) {
    if (route.method === method && route.path === url) return { name, auth: route.auth, summary: route.summary };
  }
  return undefined;
}

/** The calls whose answer carries `Token` beside `Result` for API clients (docs/api.md). */
export const SIGN_IN_CALLS = [
  'LoginByEmail',
  'LoginBySocial',
  'LoginByToken',
  'ExchangeWebLoginCode',
  'VerifyEmail',
  'ExchangeLoginToken',
  'LoginSecondFactor',
  'FinishPasskeyLogin',
] as const satisfies readonly CallName[];
type SignInCall = (typeof SIGN_IN_CALLS)[number];

type SuccessEnvelope<N extends CallName> = N extends SignInCall
  ? SignInEnvelope<(typeof callResults)[N]>
  : ResultEnvelope<(typeof callResults)[N]>;

/** The calls that answer 201 Created. */
type CreatedCall = 'register';

export type CallReplies<N extends CallName> = Replies<SuccessEnvelope<N>, N extends CreatedCall ? 201 : 200>;

/** Each call's `schema.response` for the service's routes: its envelope, and the Fault envelope for 4xx and 5xx. */
export const callReplies = Object.fromEntries(
  (Object.keys(callResults) as CallName[]).map((name) => {
    const result = callResults[name];
    const envelope = (SIGN_IN_CALLS as readonly string[]).includes(name)
      ? signInEnvelope(result)
      : resultEnvelope(result);
    return [name, replies(envelope, name === 'register' ? 201 : 200)];
  }),
) as unknown as { [N in CallName]: CallReplies<N> };

/** The whole success answer of a call, as the SPA's client reads it. */
export type CallEnvelope<N extends CallName> = z.output<SuccessEnvelope<N>>;

/** Every call's body by its name (the calls that take one). */
export const callBodies = {
  ...accountCalls,
  ...secondFactorCalls,
  ...passkeyCalls,
  ...stepUpCalls,
  ...dataExportCalls,
  ...signInAlertCalls,
  ...activityCalls,
  ...tokenNoticeCalls,
  ...appAccountCalls,
  ...licenceCalls,
  ...appLicenceCalls,
  ...voiceAiCalls,
  ...checkoutCalls,
  ...operatorCalls,
  ...releaseCalls,
  ...backOfficeCalls,
} as const;
type CallBodies = typeof callBodies;
export type CallBodyName = keyof CallBodies & CallName;
export type CallBody<N extends CallBodyName> = z.input<CallBodies[N]>;

/**
 * A route's whole `schema` for a call: its body (when it takes one) and callReplies' answers.
 * Routes with a query string spread it beside theirs.
 */
export type CallSchema<N extends CallName> = N extends CallBodyName
  ? { body: CallBodies[N]; response: CallReplies<N> }
  : { response: CallReplies<N> };
export const callSchemas = Object.fromEntries(
  (Object.keys(callResults) as CallName[]).map((name) => [
    name,
    name in callBodies
      ? { body: callBodies[name as CallBodyName], response: callReplies[name] }
      : { response: callReplies[name] },
  ]),
) as unknown as { [N in CallName]: CallSchema<N> };
