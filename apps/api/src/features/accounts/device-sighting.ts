import { createHash } from 'node:crypto';
import { browserOf, operatingSystemOf } from './user-agent';

/**
 * What a sign-in tells of the browser or app it comes from (ADR 0041). A browser is its device
 * cookie's random id; an app, which keeps no cookie and names no machine when it signs in, is
 * its user-agent family on its network (IPv4 /24, IPv6 /48). Either is hashed with the account
 * id before it is stored (seenDeviceHash).
 */
export interface DeviceSighting {
  kind: 'browser' | 'app';
  identity: string;
  /** "Chrome on Windows", "SoundID Reference on macOS": what the new-device mail names. */
  label: string;
  /** The browser's device-cookie id, to (re)set with the answer; apps get none. */
  cookie?: string;
}

/** The stored key of a device on one account: the same browser hashes apart on two accounts. */
export function seenDeviceHash(userId: string, sighting: DeviceSighting): string {
  return createHash('sha256').update(`${userId}\n${sighting.kind}\n${sighting.identity}`).digest('hex');
}

/**
 * A device's family without versions, from the User-Agent and (for apps) the Software header:
 * "Chrome on Windows", "SoundID Reference on macOS". An update of the browser or app keeps its
 * family, so it is not a new device.
 */
export function deviceLabel(userAgent: string, software: string | undefined, isBrowser: boolean): string {
  const os = operatingSystemOf(userAgent);
  const product = (isBrowser ? browserOf(userAgent) : undefined) ?? productOf(software) ?? productOf(userAgent);
  if (!product) return os ? `Unknown app on ${os}` : 'Unknown device';
  return os ? `${product} on ${os}` : product;
}

/** The product token of a User-Agent or Software header, without its version: "SoundID Reference". */
function productOf(value: string | undefined): string | undefined {
  const product = value
    ?.split('/')[0]
    ?.replace(/\s*\(.*$/, '')
    .trim()
    .slice(0, 60);
  return product || undefined;
}
