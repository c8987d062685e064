import { LICENSE_KEY_LENGTH, type UpgradeCodeShape } from '@soundid/contracts';
import type { Random } from '../../lib/clock';

/** No 0/O or 1/I: keys are read aloud and typed from print. 32 symbols, 5 bits each. */
const ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZ23456789';

function randomSymbols(random: Random, length: number): string {
  const bytes = random.bytes(length);
  let out = '';
  for (let i = 0; i < length; i++) out += ALPHABET[(bytes[i] ?? 0) & 31];
  return out;
}

/** A new activation key in its stored form: 24 symbols, 120 bits of entropy. */
export function newLicenseKey(random: Random): string {
  return randomSymbols(random, LICENSE_KEY_LENGTH);
}

/** 6-6-6-6 with hyphens, for operators and the start-up banner (never in the licence list). */
export function formatLicenseKey(key: string): string {
  return key.match(/.{1,6}/g)?.join('-') ?? key;
}

/**
 * The three shapes of the spec: UPG- and 12 symbols; exactly 7 symbols; 10 symbols ending in
 * GRACE. Voice AI codes are only ever the UPG- form.
 */
export function newUpgradeCode(random: Random, shape: UpgradeCodeShape): string {
  if (shape === 'seven') return randomSymbols(random, 7);
  if (shape === 'grace') return `${randomSymbols(random, 10)}GRACE`;
  return `UPG-${randomSymbols(random, 12)}`;
}

/** Upgrade codes and serials are matched case-insensitively: stored trimmed and upper-cased. */
export function normalizeCode(value: string): string {
  return value.trim().toUpperCase();
}
