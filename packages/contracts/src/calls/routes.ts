import type { accountResults } from './accounts';
import type { activityResults } from './activity';
import type { dataExportResults } from './data-export';
import type { operatorResults } from './operators';
import type { passkeyResults } from './passkeys';
import type { secondFactorResults } from './second-factor';
import type { signInAlertResults } from './sign-in-alerts';
import type { stepUpResults } from './step-up';
import type { tokenNoticeResults } from './token-notices';

/**
 * Where each call is answered, without its schemas (docs/api.md, Typed results): the SPA's
 * client reads this module alone, so that no page loads zod or the result schemas to send a
 * call (the /login budget, ADR 0020). The OpenAPI document adds each call's sign-in and summary
 * (operations.ts).
 */

/** The calls answered at `POST /api/accounts/<Name>`. */
export type AccountPathCall =
  | keyof typeof accountResults
  | keyof typeof secondFactorResults
  | keyof typeof passkeyResults
  | keyof typeof stepUpResults
  | keyof typeof dataExportResults
  | keyof typeof signInAlertResults
  | keyof typeof activityResults
  | keyof typeof tokenNoticeResults;

/** The operators' own calls (ADR 0044), answered at `POST /api/admin/<Name>`. */
export type OperatorPathCall = keyof typeof operatorResults;

/** Every other call's method and path. */
export const otherCallPaths = {
  CreateWebLoginCode: { method: 'POST', path: '/api/apps/CreateWebLoginCode' },
  ExchangeLoginToken: { method: 'POST', path: '/api/apps/ExchangeLoginToken' },
  GetAccountLicensesByProductLine: { method: 'POST', path: '/api/licenses/GetAccountLicensesByProductLine' },
  RegisterKey: { method: 'POST', path: '/api/accounts/RegisterKey' },
  UpgradeKey: { method: 'POST', path: '/api/accounts/UpgradeKey' },
  KeyUpgradePaths: { method: 'POST', path: '/api/accounts/KeyUpgradePaths' },
  ClaimAdam60Day: { method: 'POST', path: '/api/accounts/Campaign/ClaimAdam60Day' },
  OfflineActivate: { method: 'POST', path: '/api/licenses/OfflineActivate' },
  OfflineDeactivate: { method: 'POST', path: '/api/licenses/OfflineDeactivate' },
  ReportDeviceLost: { method: 'POST', path: '/api/licenses/ReportDeviceLost' },
  GetDeactivationAllowance: { method: 'POST', path: '/api/licenses/GetDeactivationAllowance' },
  StartLicenceTransfer: { method: 'POST', path: '/api/licenses/StartLicenceTransfer' },
  CancelLicenceTransfer: { method: 'POST', path: '/api/licenses/CancelLicenceTransfer' },
  GetLicenceTransfer: { method: 'POST', path: '/api/licenses/GetLicenceTransfer' },
  AcceptLicenceTransfer: { method: 'POST', path: '/api/licenses/AcceptLicenceTransfer' },
  GetIncomingLicenceTransfers: { method: 'POST', path: '/api/licenses/GetIncomingLicenceTransfers' },
  AcceptIncomingLicenceTransfer: { method: 'POST', path: '/api/licenses/AcceptIncomingLicenceTransfer' },
  GetOfflinePublicKey: { method: 'GET', path: '/api/licenses/offline-public-key' },
  ActivateDevice: { method: 'POST', path: '/api/apps/ActivateDevice' },
  DeactivateDevice: { method: 'POST', path: '/api/apps/DeactivateDevice' },
  CheckLicense: { method: 'POST', path: '/api/apps/CheckLicense' },
  GetProducts: { method: 'POST', path: '/api/voiceai/GetProducts' },
  GetPurchaseHistory: { method: 'POST', path: '/api/voiceai/GetPurchaseHistory' },
  GetActionHistory: { method: 'POST', path: '/api/voiceai/GetActionHistory' },
  ConsumeTokens: { method: 'POST', path: '/api/apps/ConsumeTokens' },
  PrepareTokenPurchaseCheckout: { method: 'POST', path: '/api/voiceai/PrepareTokenPurchaseCheckout' },
  GetPaymentStatus: { method: 'POST', path: '/api/voiceai/GetPaymentStatus' },
  SandboxCheckoutSession: { method: 'POST', path: '/api/sandbox/checkout/session' },
  SandboxCheckoutPay: { method: 'POST', path: '/api/sandbox/checkout/pay' },
  SandboxCheckoutRefund: { method: 'POST', path: '/api/sandbox/checkout/refund' },
  Health: { method: 'GET', path: '/api/health' },
  Ready: { method: 'GET', path: '/api/ready' },
  GetPublicConfig: { method: 'GET', path: '/api/config' },
  GetFeatures: { method: 'GET', path: '/api/accounts/features' },
  GetStoreSettings: { method: 'GET', path: '/api/shopify/store-settings' },
  InvokeAction: { method: 'GET', path: '/api/actions/' },
  AdminUser: { method: 'GET', path: '/api/admin/user' },
  AdminMetrics: { method: 'GET', path: '/api/admin/metrics' },
  AdminGrantTokens: { method: 'POST', path: '/api/admin/grant-tokens' },
  AdminPaymentMismatches: { method: 'GET', path: '/api/admin/payment-mismatches' },
  AdminProducts: { method: 'GET', path: '/api/admin/products' },
  AdminIssueKeys: { method: 'POST', path: '/api/admin/issue-keys' },
  AdminIssueUpgradeCodes: { method: 'POST', path: '/api/admin/issue-upgrade-codes' },
  AdminAddSerials: { method: 'POST', path: '/api/admin/add-serials' },
  AdminStorefrontOrders: { method: 'GET', path: '/api/admin/storefront-orders' },
  AdminUnlockSignIn: { method: 'POST', path: '/api/admin/unlock-sign-in' },
  AdminEndCustomerSessions: { method: 'POST', path: '/api/admin/end-customer-sessions' },
  AdminResendVerification: { method: 'POST', path: '/api/admin/resend-verification' },
  AdminDeactivateDevice: { method: 'POST', path: '/api/admin/deactivate-device' },
  AdminMoveLicence: { method: 'POST', path: '/api/admin/move-licence' },
  AdminUploadRelease: { method: 'POST', path: '/api/admin/releases' },
  AdminReleases: { method: 'GET', path: '/api/admin/releases' },
  AdminRemoveRelease: { method: 'POST', path: '/api/admin/remove-release' },
  AdminSearchCustomers: { method: 'GET', path: '/api/admin/search-customers' },
  AdminResetDeactivations: { method: 'POST', path: '/api/admin/reset-deactivations' },
  AdminUndoLostReport: { method: 'POST', path: '/api/admin/undo-lost-report' },
  AdminJobs: { method: 'GET', path: '/api/admin/jobs' },
  AdminRunJob: { method: 'POST', path: '/api/admin/run-job' },
  AdminWithdrawTokens: { method: 'POST', path: '/api/admin/withdraw-tokens' },
  AdminRefundPayment: { method: 'POST', path: '/api/admin/refund-payment' },
  AdminRefundStorefrontOrder: { method: 'POST', path: '/api/admin/refund-storefront-order' },
  AdminImportSerials: { method: 'POST', path: '/api/admin/import-serials' },
  GetDownloadCenter: { method: 'POST', path: '/api/downloads/GetDownloadCenter' },
  GetDownloadLink: { method: 'POST', path: '/api/downloads/GetDownloadLink' },
  StripeWebhook: { method: 'POST', path: '/api/webhooks/stripe' },
  ShopifyWebhook: { method: 'POST', path: '/api/webhooks/shopify' },
  DevMail: { method: 'GET', path: '/api/dev/mail' },
} as const;
export type OtherPathCall = keyof typeof otherCallPaths;
export type PathCall = AccountPathCall | OperatorPathCall | OtherPathCall;

export type CallPath<N extends PathCall> = N extends OtherPathCall
  ? (typeof otherCallPaths)[N]
  : N extends OperatorPathCall
    ? { method: 'POST'; path: `/api/admin/${N}` }
    : { method: 'POST'; path: `/api/accounts/${N}` };

/** The operators' own calls by name (routes.ts is read without the schemas: a list, not the map). */
const OPERATOR_PATH_CALLS: readonly string[] = [
  'OperatorBootstrap',
  'InviteOperator',
  'AcceptOperatorInvitation',
  'ConfirmOperatorInvitation',
  'OperatorLogin',
  'OperatorLoginSecondFactor',
  'OperatorLogout',
  'OperatorMe',
  'ListOperatorSessions',
  'EndOperatorSession',
  'CreateOperatorApiToken',
  'ListOperatorApiTokens',
  'RevokeOperatorApiToken',
  'ListOperators',
  'SetOperatorRoles',
  'DisableOperator',
  'SearchAudit',
  'VerifyAudit',
] satisfies OperatorPathCall[];

/** A call's method and path. */
export function callPathOf<N extends PathCall>(name: N): CallPath<N> {
  const other = Object.hasOwn(otherCallPaths, name) ? otherCallPaths[name as OtherPathCall] : undefined;
  if (other) return other as CallPath<N>;
  const area = OPERATOR_PATH_CALLS.includes(name) ? 'admin' : 'accounts';
  return { method: 'POST', path: `/api/${area}/${name}` } as CallPath<N>;
}
