import { TOTP_DIGITS, TOTP_ISSUER, TOTP_PERIOD_SECONDS, TOTP_TOLERANCE_STEPS } from '@soundid/contracts';
import { generateURI, ScureBase32Plugin, verifySync } from 'otplib';
import type { Random } from './clock';

/**
 * RFC 6238 codes with otplib (ADR 0037), for customers' and operators' authenticator apps alike:
 * one place for the period, digits, drift tolerance and replay rule.
 */
const base32 = new ScureBase32Plugin();
/** 20 random bytes: the secret length RFC 4226 recommends and authenticator apps expect. */
const SECRET_BYTES = 20;

/** A new shared secret, in base32 as authenticator apps take it. */
export function newTotpSecret(random: Random): string {
  return base32.encode(random.bytes(SECRET_BYTES));
}

/** The otpauth:// URL a QR code carries. */
export function totpUrl(secret: string, account: string, issuer: string = TOTP_ISSUER): string {
  return generateURI({ issuer, label: account, secret, digits: TOTP_DIGITS, period: TOTP_PERIOD_SECONDS });
}

/**
 * The time step a code is valid for at `now` (within ±TOTP_TOLERANCE_STEPS), only after
 * `afterStep` (the last accepted one: a code is never accepted twice), or undefined.
 */
export function totpStepOf(secret: string, code: string, now: Date, afterStep: number | null): number | undefined {
  const result = verifySync({
    secret,
    token: code,
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
    epoch: Math.floor(now.getTime() / 1000),
    epochTolerance: TOTP_TOLERANCE_STEPS * TOTP_PERIOD_SECONDS,
    ...(afterStep !== null ? { afterTimeStep: afterStep } : {}),
  });
  return result.valid && 'timeStep' in result ? result.timeStep : undefined;
}
