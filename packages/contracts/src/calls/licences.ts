import { z } from 'zod';
import {
  APP_VERSION_MAX_LENGTH,
  DEVICE_OS_MAX_LENGTH,
  LICENCE_TRANSFER_STATES,
  LOST_REPORT_NOTE_MAX_LENGTH,
  LOST_REPORT_REASONS,
  SWDEACTIVATE_MAX_LENGTH,
  SWINFO_MAX_LENGTH,
} from '../licence-rules';
import { emailSchema, licenseKeySchema, serialSchema, upgradeCodeSchema } from '../validators';
import { actionTokenSchema, callBody, emptyBody } from './common';

/**
 * Licences, devices, upgrades and trials (docs/requirements.md §3, docs/requirements.md §7;
 * docs/requirements.md §7), and the desktop-app activation calls (API contract, Desktop apps).
 */

/** Customer deactivations allowed per licence in a rolling window; the next is KeyRevokeOverLimit. */
export const DEVICE_DEACTIVATION_LIMIT = 10;
export const DEVICE_DEACTIVATION_WINDOW_DAYS = 365;

/**
 * A key as the customer typed it (any 6-6-6-6 form) or as the licence list shows it
 * (`FormattedKey`, masked: `******-******-******-AB12CD`); the service resolves the masked
 * form among the caller's own keys only.
 */
const MASKED_KEY = /^\*{6}-\*{6}-\*{6}-[A-Za-z0-9]{6}$/;
export const ownedKeySchema = z.union([
  z
    .string()
    .trim()
    .regex(MASKED_KEY)
    .transform((v) => v.toUpperCase()),
  licenseKeySchema,
]);
export function isMaskedLicenseKey(value: string): boolean {
  return MASKED_KEY.test(value);
}

/** The ProductName of the catalogue, as desktop apps know it. */
const productNameSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9._-]+$/);
/** A machine's stable identifier, chosen by the app (hardware hash); opaque to the service. */
export const machineIdSchema = z
  .string()
  .trim()
  .min(4)
  .max(128)
  .regex(/^[A-Za-z0-9._:-]+$/);
const deviceNameSchema = z.string().trim().min(1).max(100);
/** The app's version as it names it: letters, digits and `.+_-` (docs/decisions/0049-devices-seen.md). */
export const appVersionSchema = z
  .string()
  .trim()
  .min(1)
  .max(APP_VERSION_MAX_LENGTH)
  .regex(/^[0-9A-Za-z][0-9A-Za-z.+_-]*$/);
/** The operating system as the app names it: letters, digits, spaces and `.,()_+/-`. */
export const deviceOsSchema = z
  .string()
  .trim()
  .min(1)
  .max(DEVICE_OS_MAX_LENGTH)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} .,()_+/-]*$/u);
/** Sent by today's apps or not: optional, so an app that does not know them keeps working. */
const appSelf = { appVersion: appVersionSchema.optional(), os: deviceOsSchema.optional() };

export const licenceCalls = {
  GetAccountLicensesByProductLine: emptyBody,
  RegisterKey: callBody({ key: licenseKeySchema }),
  UpgradeKey: callBody({ key: ownedKeySchema, upgradeCode: upgradeCodeSchema }),
  KeyUpgradePaths: callBody({ key: ownedKeySchema }),
  ClaimAdam60Day: callBody({ serial: serialSchema }),
  /** The .swinfo file's text, as uploaded on the offline activation panel. */
  OfflineActivate: callBody({ swinfo: z.string().min(1).max(SWINFO_MAX_LENGTH) }),
  /**
   * The .swdeactivate file's text, as uploaded on the offline panel: frees the seat of an offline
   * machine whose app removed its licence file, outside the deactivation allowance
   * (docs/decisions/0053-offline-deactivation.md).
   */
  OfflineDeactivate: callBody({ file: z.string().min(1).max(SWDEACTIVATE_MAX_LENGTH) }),
  /**
   * Frees a lost or stolen machine's seat without spending the allowance, and refuses that
   * machine for the licence from then on (docs/decisions/0050-lost-or-stolen.md). Needs a step-up.
   */
  /**
   * The deactivation allowance of the caller's licence of a product (docs/decisions/0030-deactivation-allowance-belongs-to-the-key.md):
   * read by the devices panel when it opens, not by the licence list read at every visit.
   */
  GetDeactivationAllowance: callBody({ productName: productNameSchema }),
  ReportDeviceLost: callBody({
    deviceId: z.uuid(),
    reason: z.enum(LOST_REPORT_REASONS),
    note: z.string().trim().max(LOST_REPORT_NOTE_MAX_LENGTH).optional(),
  }),
  /**
   * Passing a licence on (docs/decisions/0054-licence-transfer.md): offers one of the caller's
   * keys (full or as the list's masked FormattedKey) to an e-mail address, which is mailed a link.
   * Needs a step-up.
   */
  StartLicenceTransfer: callBody({ key: ownedKeySchema, email: emailSchema }),
  /** The owner withdraws a pending offer (the licence list's `Transfer.TransferId`). */
  CancelLicenceTransfer: callBody({ transferId: z.uuid() }),
  /** What the mailed link offers, read by the recipient's page before accepting. */
  GetLicenceTransfer: callBody({ token: actionTokenSchema }),
  /** The recipient, signed in with the verified address the offer was sent to, takes the key. */
  AcceptLicenceTransfer: callBody({ token: actionTokenSchema }),
  /** The offers waiting for the caller's verified address (ADR 0054, addendum): signed up since the mail. */
  GetIncomingLicenceTransfers: emptyBody,
  /** Accepts one of those by its id: the verified address is the proof the link would give. */
  AcceptIncomingLicenceTransfer: callBody({ transferId: z.uuid() }),
} as const;

export const appLicenceCalls = {
  ActivateDevice: callBody({
    productName: productNameSchema,
    machineId: machineIdSchema,
    deviceName: deviceNameSchema,
    ...appSelf,
  }),
  DeactivateDevice: callBody({ productName: productNameSchema, machineId: machineIdSchema }),
  /** Also records the machine as seen (its app version and OS with it). */
  CheckLicense: callBody({ productName: productNameSchema, machineId: machineIdSchema, ...appSelf }),
} as const;

export type LicenceCallName = keyof typeof licenceCalls;
export type LicenceCallBody<N extends LicenceCallName> = z.input<(typeof licenceCalls)[N]>;
export type AppLicenceCallName = keyof typeof appLicenceCalls;
export type AppLicenceCallBody<N extends AppLicenceCallName> = z.input<(typeof appLicenceCalls)[N]>;

// ── Response shapes (docs/requirements.md §3) ─────────────────────

export const ACTION_BUTTON_TYPES = ['Link', 'Primary', 'DeepLink', 'Redirect'] as const;
export type ActionButtonType = (typeof ACTION_BUTTON_TYPES)[number];
export const EXTERNAL_REQUEST_TYPES = ['DeepLink', 'Redirect', 'Link', 'BackendThenReload'] as const;
export type ExternalRequestType = (typeof EXTERNAL_REQUEST_TYPES)[number];
/**
 * What a button does. The spec's: Upgrade, AppExtendTrialFirst, AppExtendTrial, AppStartTrial.
 * Ours: AppActivate (open the app to activate), Deactivate (device), Remove (licence key),
 * RemovePerpetual (voice perpetual licence), Download, Buy.
 */
export const ACTION_FUNCTIONALITIES = [
  'Upgrade',
  'AppExtendTrialFirst',
  'AppExtendTrial',
  'AppStartTrial',
  'AppActivate',
  'Deactivate',
  'Remove',
  'RemovePerpetual',
  'Download',
  'Buy',
] as const;
export type ActionFunctionality = (typeof ACTION_FUNCTIONALITIES)[number];

/**
 * A server action: a GET on Url (under /api/actions/) before the deeplink opens. Its Id
 * contains 'starttrial' (activation type trial) or 'activate' (normal).
 */
export const serverActionSchema = z.object({ Id: z.string(), Url: z.string() });
export type ServerAction = z.infer<typeof serverActionSchema>;

export const externalRequestSchema = z.object({
  Type: z.enum(EXTERNAL_REQUEST_TYPES),
  /** A deeplink, a page, or for BackendThenReload the GET action URL under /api/actions/. */
  Url: z.string(),
  ServerAction: serverActionSchema.nullable(),
});
export type ExternalRequest = z.infer<typeof externalRequestSchema>;

export const actionButtonSchema = z.object({
  Type: z.enum(ACTION_BUTTON_TYPES),
  ActionText: z.string(),
  Functionality: z.enum(ACTION_FUNCTIONALITIES),
  IsEnabled: z.boolean(),
  /** Null for buttons that only open a panel of the page (Upgrade). */
  ExternalRequest: externalRequestSchema.nullable(),
});
export type ActionButton = z.infer<typeof actionButtonSchema>;

/** Three levels: High is shown red, Medium yellow, Low green. */
export const NOTIFICATION_IMPORTANCES = ['High', 'Medium', 'Low'] as const;
export type NotificationImportance = (typeof NOTIFICATION_IMPORTANCES)[number];

export const licenceNotificationSchema = z.object({
  Message: z.string(),
  Importance: z.enum(NOTIFICATION_IMPORTANCES),
  Action: actionButtonSchema.nullable(),
});
export type LicenceNotification = z.infer<typeof licenceNotificationSchema>;

export const infoLinkSchema = z.object({ Title: z.string(), Url: z.string() });
export type InfoLink = z.infer<typeof infoLinkSchema>;

export const deviceSchema = z.object({
  DeviceId: z.string(),
  Name: z.string(),
  /** `/Date(ms)/` */
  TimeActivated: z.string(),
  /** `/Date(ms)/` when the app last checked the licence on it (ActivateDevice or CheckLicense); null: never since it was recorded. */
  LastSeen: z.string().nullable(),
  /** What the app said of itself when last seen; null when it did not say. */
  AppVersion: z.string().nullable(),
  Os: z.string().nullable(),
  /** The first is the deactivate action (a GET on its ExternalRequest.Url). */
  ActionButtons: z.array(actionButtonSchema),
});
export type Device = z.infer<typeof deviceSchema>;

/** A pending offer to pass a key on, as its owner sees it (docs/decisions/0054-licence-transfer.md). */
export const pendingLicenceTransferSchema = z.object({
  TransferId: z.string(),
  /** The address the offer was sent to, as the owner typed it (normalised). */
  Email: z.string(),
  /** `/Date(ms)/`: when the offer lapses unless accepted. */
  ExpiresAt: z.string(),
});
export type PendingLicenceTransfer = z.infer<typeof pendingLicenceTransferSchema>;

export const licenseKeySchemaOfList = z.object({
  /** Upper-cased and masked: only the last group is shown (`******-******-******-AB12CD`). */
  FormattedKey: z.string(),
  /** The first is remove (a GET on its ExternalRequest.Url). */
  ActionButtons: z.array(actionButtonSchema),
  IsUsedForUpgrade: z.boolean(),
  /** Present while an offer to pass the key on waits for its recipient (ADR 0054). */
  Transfer: pendingLicenceTransferSchema.optional(),
});
export type LicenseKey = z.infer<typeof licenseKeySchemaOfList>;

export const referenceProductSchema = z.object({
  DisplayName: z.string(),
  /** Newline-separated lines. */
  Description: z.string(),
  Icon: z.string(),
  ProductName: z.string(),
  InstancesUsed: z.number(),
  InstancesMax: z.number(),
  IsManageable: z.boolean(),
  Devices: z.array(deviceSchema),
  LicenseKeys: z.array(licenseKeySchemaOfList),
  ActionButtons: z.array(actionButtonSchema),
  InfoLinks: z.array(infoLinkSchema),
  Notifications: z.array(licenceNotificationSchema),
});
export type ReferenceProduct = z.infer<typeof referenceProductSchema>;

export const availableTrialSchema = z.object({ DeepLinkUrl: z.string() });
export type AvailableTrial = z.infer<typeof availableTrialSchema>;

export const referenceProductsSchema = z.object({
  ActionButtons: z.array(actionButtonSchema),
  Products: z.array(referenceProductSchema),
  AvailableTrials: z.array(availableTrialSchema),
});
export type ReferenceProducts = z.infer<typeof referenceProductsSchema>;

export const assetPackSchema = z.object({
  Title: z.string(),
  /** Masked key when the customer owns the pack, else null. */
  LicenseKey: z.string().nullable(),
  StoreUrl: z.string(),
  /** Present when owned: a GET on Url removes the pack's key from the account. */
  RemoveLicenseAction: z.object({ Url: z.string() }).nullable(),
});
export type AssetPack = z.infer<typeof assetPackSchema>;

/** Live tokens that expire within TOKEN_EXPIRY_WARNING_DAYS (ADR 0056): a lot's tokens left and its expiry (epoch ms). */
export const expiringTokensSchema = z.object({ Tokens: z.number(), ExpiryDate: z.number() });
export type ExpiringTokens = z.infer<typeof expiringTokensSchema>;

export const voiceAiLicenseStatusSchema = z.object({
  /** A warning shown beside the status (tokens expiring soon, trial ended), or null. */
  StatusWarning: z.string().nullable(),
  /**
   * Plain status text: perpetual, the token balance (pay-as-you-go) and how long it lasts at the
   * customer's pace (ADR 0056), trial days left, or none.
   */
  TokenStatus: z.string(),
  /** The live lots that expire within TOKEN_EXPIRY_WARNING_DAYS, earliest first (ADR 0056); absent: none. */
  ExpiringTokens: z.array(expiringTokensSchema).optional(),
  InfoLinks: z.array(infoLinkSchema),
  /**
   * Activation (DeepLink with a server action), Download, and when a perpetual licence is
   * registered RemovePerpetual (BackendThenReload to /api/actions/voice-ai/perpetual/<id>/remove).
   */
  ActionButtons: z.array(actionButtonSchema),
  Devices: z.array(deviceSchema),
  IsManageable: z.boolean(),
  InstancesUsed: z.number(),
  /** The perpetual licence key, masked; null without one. */
  OfflineLicenseKey: z.string().nullable(),
});
export type VoiceAiLicenseStatus = z.infer<typeof voiceAiLicenseStatusSchema>;

export const voiceAiProductsSchema = z.object({
  Title: z.string(),
  IconString: z.string(),
  Notifications: z.array(licenceNotificationSchema),
  AssetPacks: z.array(assetPackSchema),
  LicenseStatus: voiceAiLicenseStatusSchema,
});
export type VoiceAiProducts = z.infer<typeof voiceAiProductsSchema>;

export const accountLicensesByProductLineSchema = z.object({
  VoiceAIProducts: voiceAiProductsSchema,
  ReferenceProducts: referenceProductsSchema,
});
export type AccountLicensesByProductLine = z.infer<typeof accountLicensesByProductLineSchema>;

/** RegisterKey: the products and expansion packs this key added to the account. */
export const registerKeyResultSchema = z.object({
  ProductCount: z.number(),
  /** Present for voice AI keys; ActivationUrl is the plugin's activation deeplink. */
  VoiceAi: z.object({ AssetCount: z.number(), ActivationUrl: z.string().optional() }).optional(),
});
export type RegisterKeyResult = z.infer<typeof registerKeyResultSchema>;

export const upgradeStoreLinkSchema = z.object({
  Name: z.string(),
  Description: z.string(),
  Link: z.string(),
  ButtonText: z.string(),
});
export type UpgradeStoreLink = z.infer<typeof upgradeStoreLinkSchema>;

export const keyUpgradePathsResultSchema = z.object({ LinksToStore: z.array(upgradeStoreLinkSchema) });
export type KeyUpgradePathsResult = z.infer<typeof keyUpgradePathsResultSchema>;

/** UpgradeKey: the licence the upgrade added (the old key stays, marked IsUsedForUpgrade). */
export const upgradeKeyResultSchema = z.object({
  FormattedKey: z.string(),
  ProductName: z.string(),
  DisplayName: z.string(),
});
export type UpgradeKeyResult = z.infer<typeof upgradeKeyResultSchema>;

export const claimAdam60DayResultSchema = z.object({
  ProductName: z.string(),
  /** `/Date(ms)/` */
  TrialEndsAt: z.string(),
});
export type ClaimAdam60DayResult = z.infer<typeof claimAdam60DayResultSchema>;

/** Result of the GET action URLs (deactivate, remove, start trial, activate). */
export const actionResultSchema = z.object({
  Message: z.string(),
  /** A started trial's end, `/Date(ms)/` (starttrial only). */
  TrialEndsAt: z.string().optional(),
});
export type ActionResult = z.infer<typeof actionResultSchema>;

// ── Desktop-app calls ──────────────────────────────────────────────────────

export const activateDeviceResultSchema = z.object({
  DeviceId: z.string(),
  InstancesUsed: z.number(),
  InstancesMax: z.number(),
});
export type ActivateDeviceResult = z.infer<typeof activateDeviceResultSchema>;

export const deactivateDeviceResultSchema = z.object({ InstancesUsed: z.number(), InstancesMax: z.number() });
export type DeactivateDeviceResult = z.infer<typeof deactivateDeviceResultSchema>;

/** Tokens: pay-as-you-go, the customer holds a spendable token lot (voice AI; ADR 0009). */
export const LICENCE_KINDS = ['Perpetual', 'Trial', 'Tokens', 'None'] as const;
export type LicenceKind = (typeof LICENCE_KINDS)[number];

export const checkLicenseResultSchema = z.object({
  /** True when this machine holds an active activation of a licence that is in force. */
  Licensed: z.boolean(),
  LicenseKind: z.enum(LICENCE_KINDS),
  /** `/Date(ms)/` when the licence is a trial, else null. */
  TrialEndsAt: z.string().nullable(),
  DeviceId: z.string().nullable(),
  InstancesUsed: z.number(),
  InstancesMax: z.number(),
  /** The customer's spendable tokens, for a product paid with tokens (voice AI); else null. */
  TokenBalance: z.number().nullable(),
  /**
   * Present and true when this check gave the machine its seat back: it had been released while
   * idle (docs/decisions/0052-idle-seats.md) and a seat was free. Absent otherwise.
   */
  Reactivated: z.boolean().optional(),
});
export type CheckLicenseResult = z.infer<typeof checkLicenseResultSchema>;

// ── Offline activation (docs/offline-activation.md) ────────────────────────

export const offlineActivateResultSchema = z.object({
  /** Suggested download name, `<ProductName>-<machine>.swlicense`. */
  FileName: z.string(),
  /** The licence file's text (JSON, signed with Ed25519). */
  Content: z.string(),
  DeviceId: z.string(),
  InstancesUsed: z.number(),
  InstancesMax: z.number(),
});
export type OfflineActivateResult = z.infer<typeof offlineActivateResultSchema>;

export const offlineDeactivateResultSchema = z.object({
  /** Suggested download name, `<ProductName>-<machine>.swreceipt`. */
  FileName: z.string(),
  /** The receipt's text (JSON, signed with Ed25519 by the key that signs licence files). */
  Content: z.string(),
  /** The device whose seat was freed. */
  DeviceId: z.string(),
  /** "<device name> was deactivated: its seat is free, and no deactivation was used." */
  Message: z.string(),
  InstancesUsed: z.number(),
  InstancesMax: z.number(),
});
export type OfflineDeactivateResult = z.infer<typeof offlineDeactivateResultSchema>;

export const offlinePublicKeyResultSchema = z.object({
  Algorithm: z.literal('Ed25519'),
  KeyId: z.string(),
  /** SubjectPublicKeyInfo, PEM. */
  PublicKeyPem: z.string(),
});
export type OfflinePublicKeyResult = z.infer<typeof offlinePublicKeyResultSchema>;

/** What the devices panel says under the devices: left of the limit, and when the next used one comes back. */
export const deactivationAllowanceSchema = z.object({
  DeactivationsLeft: z.number(),
  DeactivationsAllowed: z.number(),
  /** `/Date(ms)/`; null when none is used. */
  NextDeactivationReturns: z.string().nullable(),
  /** Days a computer may go unseen before its seat is freed by itself (docs/decisions/0052-idle-seats.md). */
  IdleReleaseDays: z.number(),
});
export type DeactivationAllowance = z.infer<typeof deactivationAllowanceSchema>;

/** What the recipient's page shows before accepting (ADR 0054); addresses masked. */
export const licenceTransferOfferSchema = z.object({
  DisplayName: z.string(),
  ProductName: z.string(),
  /** The key, masked as in the licence list. */
  FormattedKey: z.string(),
  /** The owner's address, masked (`a***@example.com`). */
  FromEmail: z.string(),
  /** The address the offer was sent to, masked: the account that may accept it. */
  ToEmail: z.string(),
  /** `/Date(ms)/` */
  ExpiresAt: z.string(),
  State: z.enum(LICENCE_TRANSFER_STATES),
});
export type LicenceTransferOffer = z.infer<typeof licenceTransferOfferSchema>;

/** An open offer to the caller's verified address, for Licenses & Devices (ADR 0054, addendum). */
export const incomingLicenceTransferSchema = licenceTransferOfferSchema
  .omit({ State: true, ToEmail: true })
  .extend({ TransferId: z.string() });
export type IncomingLicenceTransfer = z.infer<typeof incomingLicenceTransferSchema>;

const acceptLicenceTransferResultSchema = z.object({
  Message: z.string(),
  DisplayName: z.string(),
  ProductName: z.string(),
  FormattedKey: z.string(),
});

export const licenceResults = {
  GetAccountLicensesByProductLine: accountLicensesByProductLineSchema,
  RegisterKey: registerKeyResultSchema,
  UpgradeKey: upgradeKeyResultSchema,
  KeyUpgradePaths: keyUpgradePathsResultSchema,
  ClaimAdam60Day: claimAdam60DayResultSchema,
  OfflineActivate: offlineActivateResultSchema,
  OfflineDeactivate: offlineDeactivateResultSchema,
  ReportDeviceLost: z.object({ Message: z.string() }),
  GetDeactivationAllowance: deactivationAllowanceSchema,
  StartLicenceTransfer: pendingLicenceTransferSchema.extend({ Message: z.string() }),
  CancelLicenceTransfer: z.object({ Message: z.string() }),
  GetLicenceTransfer: licenceTransferOfferSchema,
  AcceptLicenceTransfer: acceptLicenceTransferResultSchema,
  GetIncomingLicenceTransfers: z.object({ Offers: z.array(incomingLicenceTransferSchema) }),
  AcceptIncomingLicenceTransfer: acceptLicenceTransferResultSchema,
} as const satisfies Record<LicenceCallName, z.ZodType>;

export const appLicenceResults = {
  ActivateDevice: activateDeviceResultSchema,
  DeactivateDevice: deactivateDeviceResultSchema,
  CheckLicense: checkLicenseResultSchema,
} as const satisfies Record<AppLicenceCallName, z.ZodType>;

export const licenceCallPaths = {
  GetAccountLicensesByProductLine: '/api/licenses/GetAccountLicensesByProductLine',
  RegisterKey: '/api/accounts/RegisterKey',
  UpgradeKey: '/api/accounts/UpgradeKey',
  KeyUpgradePaths: '/api/accounts/KeyUpgradePaths',
  ClaimAdam60Day: '/api/accounts/Campaign/ClaimAdam60Day',
  OfflineActivate: '/api/licenses/OfflineActivate',
  OfflineDeactivate: '/api/licenses/OfflineDeactivate',
  ReportDeviceLost: '/api/licenses/ReportDeviceLost',
  GetDeactivationAllowance: '/api/licenses/GetDeactivationAllowance',
  StartLicenceTransfer: '/api/licenses/StartLicenceTransfer',
  CancelLicenceTransfer: '/api/licenses/CancelLicenceTransfer',
  GetLicenceTransfer: '/api/licenses/GetLicenceTransfer',
  AcceptLicenceTransfer: '/api/licenses/AcceptLicenceTransfer',
  GetIncomingLicenceTransfers: '/api/licenses/GetIncomingLicenceTransfers',
  AcceptIncomingLicenceTransfer: '/api/licenses/AcceptIncomingLicenceTransfer',
  OfflinePublicKey: '/api/licenses/offline-public-key',
} as const;

// ── Pages the service renders with their data (ADR 0024) ───────────────────

/**
 * The only calls the service makes, in its own process, for a page it renders for a signed-in
 * customer: reads. The web renderer names them; the service refuses any other.
 */
export const pageRenderCalls = {
  session: '/api/accounts/LoginByToken',
  licences: licenceCallPaths.GetAccountLicensesByProductLine,
} as const;

export const PAGE_RENDER_CALL_PATHS: readonly string[] = Object.values(pageRenderCalls);
