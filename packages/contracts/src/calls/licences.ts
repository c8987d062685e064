import { z } from 'zod';
import { ActivationType } from '../constants';
import { licenseKeySchema, serialSchema, upgradeCodeSchema } from '../validators';
import { callBody, emptyBody } from './common';

/**
 * Licences, devices, upgrades and trials (docs/requirements.md §3, docs/requirements.md §7;
 * docs/requirements.md §7), and the desktop-app activation calls (API contract, Desktop apps).
 */

/** Customer deactivations allowed per licence in a rolling window; the next is KeyRevokeOverLimit. */
export const DEVICE_DEACTIVATION_LIMIT = 10;
export const DEVICE_DEACTIVATION_WINDOW_DAYS = 365;

/** Largest .swinfo request file accepted (it is a few hundred bytes). */
export const SWINFO_MAX_LENGTH = 16 * 1024;

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

export const licenceCalls = {
  GetAccountLicensesByProductLine: emptyBody,
  RegisterKey: callBody({ key: licenseKeySchema }),
  UpgradeKey: callBody({ key: ownedKeySchema, upgradeCode: upgradeCodeSchema }),
  KeyUpgradePaths: callBody({ key: ownedKeySchema }),
  ClaimAdam60Day: callBody({ serial: serialSchema }),
  /** The .swinfo file's text, as uploaded on the offline activation panel. */
  OfflineActivate: callBody({ swinfo: z.string().min(1).max(SWINFO_MAX_LENGTH) }),
} as const;

export const appLicenceCalls = {
  ActivateDevice: callBody({
    productName: productNameSchema,
    machineId: machineIdSchema,
    deviceName: deviceNameSchema,
  }),
  DeactivateDevice: callBody({ productName: productNameSchema, machineId: machineIdSchema }),
  CheckLicense: callBody({ productName: productNameSchema, machineId: machineIdSchema }),
} as const;

export type LicenceCallName = keyof typeof licenceCalls;
export type LicenceCallBody<N extends LicenceCallName> = z.input<(typeof licenceCalls)[N]>;
export type AppLicenceCallName = keyof typeof appLicenceCalls;
export type AppLicenceCallBody<N extends AppLicenceCallName> = z.input<(typeof appLicenceCalls)[N]>;

// ── Response shapes (docs/requirements.md §3) ─────────────────────

export type ActionButtonType = 'Link' | 'Primary' | 'DeepLink' | 'Redirect';
export type ExternalRequestType = 'DeepLink' | 'Redirect' | 'Link' | 'BackendThenReload';
/**
 * What a button does. The spec's: Upgrade, AppExtendTrialFirst, AppExtendTrial, AppStartTrial.
 * Ours: AppActivate (open the app to activate), Deactivate (device), Remove (licence key),
 * RemovePerpetual (voice perpetual licence), Download, Buy.
 */
export type ActionFunctionality =
  | 'Upgrade'
  | 'AppExtendTrialFirst'
  | 'AppExtendTrial'
  | 'AppStartTrial'
  | 'AppActivate'
  | 'Deactivate'
  | 'Remove'
  | 'RemovePerpetual'
  | 'Download'
  | 'Buy';

/**
 * A server action: a GET on Url (under /api/actions/) before the deeplink opens. Its Id
 * contains 'starttrial' (activation type trial) or 'activate' (normal).
 */
export interface ServerAction {
  Id: string;
  Url: string;
}

export interface ExternalRequest {
  Type: ExternalRequestType;
  /** A deeplink, a page, or for BackendThenReload the GET action URL under /api/actions/. */
  Url: string;
  ServerAction: ServerAction | null;
}

export interface ActionButton {
  Type: ActionButtonType;
  ActionText: string;
  Functionality: ActionFunctionality;
  IsEnabled: boolean;
  /** Null for buttons that only open a panel of the page (Upgrade). */
  ExternalRequest: ExternalRequest | null;
}

/** Three levels: High is shown red, Medium yellow, Low green. */
export const NOTIFICATION_IMPORTANCES = ['High', 'Medium', 'Low'] as const;
export type NotificationImportance = (typeof NOTIFICATION_IMPORTANCES)[number];

export interface LicenceNotification {
  Message: string;
  Importance: NotificationImportance;
  Action: ActionButton | null;
}

export interface InfoLink {
  Title: string;
  Url: string;
}

export interface Device {
  DeviceId: string;
  Name: string;
  /** `/Date(ms)/` */
  TimeActivated: string;
  /** The first is the deactivate action (a GET on its ExternalRequest.Url). */
  ActionButtons: ActionButton[];
}

export interface LicenseKey {
  /** Upper-cased and masked: only the last group is shown (`******-******-******-AB12CD`). */
  FormattedKey: string;
  /** The first is remove (a GET on its ExternalRequest.Url). */
  ActionButtons: ActionButton[];
  IsUsedForUpgrade: boolean;
}

export interface ReferenceProduct {
  DisplayName: string;
  /** Newline-separated lines. */
  Description: string;
  Icon: string;
  ProductName: string;
  InstancesUsed: number;
  InstancesMax: number;
  IsManageable: boolean;
  Devices: Device[];
  LicenseKeys: LicenseKey[];
  ActionButtons: ActionButton[];
  InfoLinks: InfoLink[];
  Notifications: LicenceNotification[];
}

export interface AvailableTrial {
  DeepLinkUrl: string;
}

export interface ReferenceProducts {
  ActionButtons: ActionButton[];
  Products: ReferenceProduct[];
  AvailableTrials: AvailableTrial[];
}

export interface AssetPack {
  Title: string;
  /** Masked key when the customer owns the pack, else null. */
  LicenseKey: string | null;
  StoreUrl: string;
  /** Present when owned: a GET on Url removes the pack's key from the account. */
  RemoveLicenseAction: { Url: string } | null;
}

export interface VoiceAiLicenseStatus {
  /** A warning shown beside the status (tokens expiring soon, trial ended), or null. */
  StatusWarning: string | null;
  /** Plain status text: perpetual, the token balance (pay-as-you-go), trial days left, or none. */
  TokenStatus: string;
  InfoLinks: InfoLink[];
  /**
   * Activation (DeepLink with a server action), Download, and when a perpetual licence is
   * registered RemovePerpetual (BackendThenReload to /api/actions/voice-ai/perpetual/<id>/remove).
   */
  ActionButtons: ActionButton[];
  Devices: Device[];
  IsManageable: boolean;
  InstancesUsed: number;
  /** The perpetual licence key, masked; null without one. */
  OfflineLicenseKey: string | null;
}

export interface VoiceAiProducts {
  Title: string;
  IconString: string;
  Notifications: LicenceNotification[];
  AssetPacks: AssetPack[];
  LicenseStatus: VoiceAiLicenseStatus;
}

export interface AccountLicensesByProductLine {
  VoiceAIProducts: VoiceAiProducts;
  ReferenceProducts: ReferenceProducts;
}

/** RegisterKey: the products and expansion packs this key added to the account. */
export interface RegisterKeyResult {
  ProductCount: number;
  /** Present for voice AI keys; ActivationUrl is the plugin's activation deeplink. */
  VoiceAi?: { AssetCount: number; ActivationUrl?: string };
}

export interface UpgradeStoreLink {
  Name: string;
  Description: string;
  Link: string;
  ButtonText: string;
}

export interface KeyUpgradePathsResult {
  LinksToStore: UpgradeStoreLink[];
}

/** UpgradeKey: the licence the upgrade added (the old key stays, marked IsUsedForUpgrade). */
export interface UpgradeKeyResult {
  FormattedKey: string;
  ProductName: string;
  DisplayName: string;
}

export interface ClaimAdam60DayResult {
  ProductName: string;
  /** `/Date(ms)/` */
  TrialEndsAt: string;
}

/** Result of the GET action URLs (deactivate, remove, start trial, activate). */
export interface ActionResult {
  Message: string;
}

// ── Desktop-app calls ──────────────────────────────────────────────────────

export interface ActivateDeviceResult {
  DeviceId: string;
  InstancesUsed: number;
  InstancesMax: number;
}

export interface DeactivateDeviceResult {
  InstancesUsed: number;
  InstancesMax: number;
}

/** Tokens: pay-as-you-go, the customer holds a spendable token lot (voice AI; ADR 0009). */
export type LicenceKind = 'Perpetual' | 'Trial' | 'Tokens' | 'None';

export interface CheckLicenseResult {
  /** True when this machine holds an active activation of a licence that is in force. */
  Licensed: boolean;
  LicenseKind: LicenceKind;
  /** `/Date(ms)/` when the licence is a trial, else null. */
  TrialEndsAt: string | null;
  DeviceId: string | null;
  InstancesUsed: number;
  InstancesMax: number;
  /** The customer's spendable tokens, for a product paid with tokens (voice AI); else null. */
  TokenBalance: number | null;
}

// ── Offline activation (docs/offline-activation.md) ────────────────────────

export interface OfflineActivateResult {
  /** Suggested download name, `<ProductName>-<machine>.swlicense`. */
  FileName: string;
  /** The licence file's text (JSON, signed with Ed25519). */
  Content: string;
  DeviceId: string;
  InstancesUsed: number;
  InstancesMax: number;
}

export interface OfflinePublicKeyResult {
  Algorithm: 'Ed25519';
  KeyId: string;
  /** SubjectPublicKeyInfo, PEM. */
  PublicKeyPem: string;
}

export const licenceCallPaths = {
  GetAccountLicensesByProductLine: '/api/licenses/GetAccountLicensesByProductLine',
  RegisterKey: '/api/accounts/RegisterKey',
  UpgradeKey: '/api/accounts/UpgradeKey',
  KeyUpgradePaths: '/api/accounts/KeyUpgradePaths',
  ClaimAdam60Day: '/api/accounts/Campaign/ClaimAdam60Day',
  OfflineActivate: '/api/licenses/OfflineActivate',
  OfflinePublicKey: '/api/licenses/offline-public-key',
} as const;

// ── The activation button (docs/requirements.md §4) ────────────────

/** The activation types of the spec by name, as the voice AI activate page takes them in its query. */
export const ACTIVATION_TYPE_NAMES = { normal: ActivationType.Normal, trial: ActivationType.Trial } as const;
export type ActivationTypeName = keyof typeof ACTIVATION_TYPE_NAMES;

export function isActivationTypeName(value: string | null | undefined): value is ActivationTypeName {
  return value === 'normal' || value === 'trial';
}

/** A server action id containing 'starttrial' means trial, 'activate' normal; anything else is unsupported. */
export function activationTypeOf(serverActionId: string): ActivationTypeName | undefined {
  const id = serverActionId.toLowerCase();
  if (id.includes('starttrial')) return 'trial';
  if (id.includes('activate')) return 'normal';
  return undefined;
}

export interface ActivationChoice {
  button: ActionButton;
  type: ActivationTypeName;
  /** The app deeplink the button opens. */
  deeplink: string;
  serverAction: ServerAction;
}

/** What an action button activates, when it is an enabled DeepLink with a recognised server action. */
export function activationOf(button: ActionButton): ActivationChoice | undefined {
  const request = button.ExternalRequest;
  if (!button.IsEnabled || button.Type !== 'DeepLink' || !request?.ServerAction) return undefined;
  const type = activationTypeOf(request.ServerAction.Id);
  return type ? { button, type, deeplink: request.Url, serverAction: request.ServerAction } : undefined;
}

/** Only the first enabled DeepLink button with a server action of a recognised type activates. */
export function findActivationButton(buttons: readonly ActionButton[]): ActivationChoice | undefined {
  for (const button of buttons) {
    const choice = activationOf(button);
    if (choice) return choice;
  }
  return undefined;
}

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
