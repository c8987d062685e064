import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  LICENSE_KEY_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SERIAL_MAX_LENGTH,
  SERIAL_MIN_LENGTH,
} from './constants';
import { EMAIL_PATTERN, localPartFits } from './field-rules';
import { messages } from './messages';

export const emailSchema = z
  .string({ error: messages.emailFormat })
  .trim()
  .min(1, messages.emailFormat)
  .max(EMAIL_MAX_LENGTH, messages.emailFormat)
  .regex(EMAIL_PATTERN, messages.emailFormat)
  .refine(localPartFits, messages.emailFormat);

export const passwordSchema = z
  .string({ error: messages.passwordTooShort })
  .min(PASSWORD_MIN_LENGTH, messages.passwordTooShort)
  .max(PASSWORD_MAX_LENGTH, messages.passwordTooLong);

/** Returns the repeated-password message when the two differ. */
export function repeatedPasswordError(password: string, repeated: string): string | undefined {
  return password === repeated ? undefined : messages.passwordsDoNotMatch;
}

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

export const licenseKeySchema = z
  .string()
  .trim()
  .refine(isValidLicenseKey, messages.licenseKeyFormat)
  .transform(normalizeLicenseKey);

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

export const upgradeCodeSchema = z.string().trim().refine(isValidUpgradeCode, messages.upgradeCodeFormat);
export const voiceAiUpgradeCodeSchema = z.string().trim().refine(isValidVoiceAiUpgradeCode, messages.upgradeCodeFormat);

export const serialSchema = z
  .string()
  .trim()
  .min(SERIAL_MIN_LENGTH, messages.serialTooShort)
  .max(SERIAL_MAX_LENGTH, messages.serialTooLong);

/** Address: all five fields must be filled in. */
export const addressSchema = z.object({
  addressLine1: z.string().trim().min(1).max(200),
  city: z.string().trim().min(1).max(100),
  state: z.string().trim().min(1).max(100),
  postalCode: z.string().trim().min(1).max(20),
  country: z.string().trim().min(1).max(100),
});
export type Address = z.infer<typeof addressSchema>;

export function isAddressComplete(address: Partial<Record<keyof Address, string | null | undefined>>): boolean {
  return addressSchema.safeParse(address).success;
}

/** Pagination: page an integer >= 1; page count an integer > 0. */
export const pageSchema = z.number().int().min(1);
export const pageCountSchema = z.number().int().positive();
