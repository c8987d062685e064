import { isValidLicenseKey, looksLikeUpgradeCode, maskLicenseKeyInput, normalizeLicenseKey } from '@soundid/contracts';

const UPG_PREFIX = /^UPG-/i;

/** What the key field shows for what was typed: the 6-6-6-6 mask, except for an UPG- code. */
export function keyInputValue(raw: string): string {
  return UPG_PREFIX.test(raw.trimStart()) ? raw.trim().toUpperCase() : maskLicenseKeyInput(raw);
}

export type KeyProblem = 'upgradeCode' | 'format';

/** Why a value cannot be registered as a key, or null when it can. */
export function keyProblem(value: string): KeyProblem | null {
  const candidate = UPG_PREFIX.test(value) ? value : normalizeLicenseKey(value);
  if (looksLikeUpgradeCode(candidate)) return 'upgradeCode';
  return isValidLicenseKey(value) ? null : 'format';
}
