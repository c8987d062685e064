import { LICENSE_KEY_LENGTH } from './constants';

// The licence rules the Licenses & Devices and add-licence screens apply, without zod: those
// screens load without it (docs/decisions/0043-signed-in-page-main-thread-work.md). The zod
// schemas of validators.ts and calls/licences.ts are built from these.

// ── Licence keys and upgrade codes (docs/requirements.md §3) ───────

const LICENSE_KEY_PATTERN = /^[A-Za-z0-9]{6}(-?[A-Za-z0-9]{6}){3}$/;

/** Four groups of 6 letters or digits, hyphens optional between groups. */
export function isValidLicenseKey(value: string): boolean {
  return LICENSE_KEY_PATTERN.test(value.trim());
}

/** The stored form of a key: 24 upper-case alphanumerics. */
export function normalizeLicenseKey(value: string): string {
  return value.replace(/[^A-Za-z0-9]/g, '').toUpperCase();
}

/** The 6-6-6-6 input mask: upper-cases and inserts hyphens as the customer types. */
export function maskLicenseKeyInput(value: string): string {
  const chars = normalizeLicenseKey(value).slice(0, LICENSE_KEY_LENGTH);
  return chars.match(/.{1,6}/g)?.join('-') ?? '';
}

const UPGRADE_UPG = /^UPG-[A-Za-z0-9]{8,60}$/;
const UPGRADE_SEVEN = /^[A-Za-z0-9]{7}$/;
const UPGRADE_GRACE = /GRACE$/i;

/** Upgrade code: UPG- + 8..60 alphanumerics, or exactly 7 alphanumerics, or ending in GRACE. */
export function isValidUpgradeCode(value: string): boolean {
  const v = value.trim();
  return UPGRADE_UPG.test(v) || UPGRADE_SEVEN.test(v) || UPGRADE_GRACE.test(v);
}

/** The voice-AI upgrade code accepts only the UPG- form. */
export function isValidVoiceAiUpgradeCode(value: string): boolean {
  return UPGRADE_UPG.test(value.trim());
}

/** On the key page a value shaped like an upgrade code (and not like a key) is rejected. */
export function looksLikeUpgradeCode(value: string): boolean {
  return !isValidLicenseKey(value) && isValidUpgradeCode(value);
}

/**
 * What a desktop app says of itself with ActivateDevice and CheckLicense (docs/decisions/0049-devices-seen.md):
 * its version ("5.12.1", "5.12.1-beta.2") and its operating system ("macOS 14.5", "Windows 11 23H2").
 */
export const APP_VERSION_MAX_LENGTH = 32;
export const DEVICE_OS_MAX_LENGTH = 64;
/**
 * A machine's last-seen time is written at most once in this many minutes (and whenever its app
 * version or OS changes): CheckLicense stays a read on the hot path (docs/decisions/0049-devices-seen.md).
 */
export const DEVICE_SEEN_PRECISION_MINUTES = 60;

/**
 * Lost or stolen machines (docs/decisions/0050-lost-or-stolen.md): a report frees the seat at once
 * without spending the deactivation allowance, at most LOST_REPORTS_PER_LICENCE times per licence
 * in LOST_REPORT_WINDOW_DAYS; the machine is refused for the licence until support undoes it.
 */
export const LOST_REPORTS_PER_LICENCE = 2;
export const LOST_REPORT_WINDOW_DAYS = 365;
export const LOST_REPORT_REASONS = ['lost', 'stolen'] as const;
export type LostReportReason = (typeof LOST_REPORT_REASONS)[number];
export const LOST_REPORT_NOTE_MAX_LENGTH = 500;

/**
 * Passing a licence on (docs/decisions/0054-licence-transfer.md): the owner offers a key to an
 * e-mail address; the offer holds LICENCE_TRANSFER_OFFER_DAYS, and a key is passed on at most once
 * in LICENCE_TRANSFER_INTERVAL_DAYS (counted from the last accepted offer).
 */
export const LICENCE_TRANSFER_OFFER_DAYS = 7;
export const LICENCE_TRANSFER_INTERVAL_DAYS = 90;
export const LICENCE_TRANSFER_STATES = ['pending', 'accepted', 'cancelled', 'expired'] as const;
export type LicenceTransferState = (typeof LICENCE_TRANSFER_STATES)[number];
/** The portal page of an offer's mailed link: `${LICENCE_TRANSFER_PATH}/<token>`. */
export const LICENCE_TRANSFER_PATH = '/license-transfer';

/**
 * Idle seats (docs/decisions/0052-idle-seats.md): an activation whose app has not been seen for this
 * many days is released without spending the deactivation allowance, unless the product's
 * catalogue entry says otherwise. The machine, should it call again, gets a seat back if one is free.
 */
export const IDLE_SEAT_RELEASE_DAYS = 60;

/** Largest .swinfo request file accepted (it is a few hundred bytes). */
export const SWINFO_MAX_LENGTH = 16 * 1024;
/**
 * Largest .swdeactivate offline deactivation request accepted (it is a few hundred bytes;
 * docs/offline-activation.md, docs/decisions/0053-offline-deactivation.md).
 */
export const SWDEACTIVATE_MAX_LENGTH = 16 * 1024;
