import { z } from 'zod';
import {
  EMAIL_MAX_LENGTH,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  SERIAL_MAX_LENGTH,
  SERIAL_MIN_LENGTH,
} from './constants';
import { EMAIL_PATTERN, localPartFits } from './field-rules';
import { isValidLicenseKey, isValidUpgradeCode, isValidVoiceAiUpgradeCode, normalizeLicenseKey } from './licence-rules';
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

export const licenseKeySchema = z
  .string()
  .trim()
  .refine(isValidLicenseKey, messages.licenseKeyFormat)
  .transform(normalizeLicenseKey);

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
