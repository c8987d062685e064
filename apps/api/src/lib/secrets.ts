import { createHash, timingSafeEqual } from 'node:crypto';
import type { Random } from './clock';

/** A url-safe random token with 256 bits of entropy. */
export function newOpaqueToken(random: Random): string {
  return random.bytes(32).toString('base64url');
}

/** Tokens are stored only as their SHA-256: a leaked table grants nothing. */
export function hashToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function constantTimeEqual(a: string, b: string): boolean {
  const ab = Buffer.from(a);
  const bb = Buffer.from(b);
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}
