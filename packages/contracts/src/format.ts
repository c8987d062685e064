import { LICENSE_KEY_GROUP_LENGTH } from './constants';
import { messages } from './messages';

let regionNames: Intl.DisplayNames | undefined;

/** A country's English name from its ISO 3166-1 alpha-2 code ('GB' → 'United Kingdom'); the code itself when unknown. */
export function countryName(code: string): string {
  const trimmed = code.trim();
  if (!/^[A-Za-z]{2}$/.test(trimmed)) return trimmed;
  try {
    regionNames ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
    return regionNames.of(trimmed.toUpperCase()) ?? trimmed;
  } catch {
    return trimmed;
  }
}

/** The address as its non-empty parts joined by commas (the country by name), or 'No address entered'. */
export function formatAddress(
  profile: { AddressLine1?: string; City?: string; State?: string; PostalCode?: string; Country?: string } | null,
): string {
  if (!profile) return messages.noAddress;
  const country = profile.Country ? countryName(profile.Country) : undefined;
  const parts = [profile.AddressLine1, profile.City, profile.State, profile.PostalCode, country]
    .map((p) => p?.trim())
    .filter((p): p is string => Boolean(p));
  return parts.length > 0 ? parts.join(', ') : messages.noAddress;
}

/** A licence key shown masked and upper-cased: the last group visible. */
/**
 * The last group of a licence key: how operators' screens, the audit trail and the customer
 * search name a key without showing it (ASVS 14.2.6).
 */
export function licenceKeyEnding(key: string): string {
  return key.slice(-LICENSE_KEY_GROUP_LENGTH);
}

export function maskLicenseKey(normalizedKey: string): string {
  const key = normalizedKey.toUpperCase();
  const groups = key.match(/.{1,6}/g) ?? [];
  return groups.map((g, i) => (i === groups.length - 1 ? g : '*'.repeat(g.length))).join('-');
}

/** Part of an address kept visible so that its owner recognises it: j***@e***.com */
export function maskEmail(email: string): string {
  const [local = '', domain = ''] = email.split('@');
  const dot = domain.lastIndexOf('.');
  const host = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : '';
  return `${local.slice(0, 1)}***@${host.slice(0, 1)}***${tld}`;
}

/** Epoch values padded on the right with zeros to 13 digits, so seconds-based values work. */
export function toEpochMs(value: number | string): number {
  const digits = String(value).replace(/\D/g, '');
  return Number(digits.padEnd(13, '0').slice(0, 13));
}

/** dd/mm/yy h:mm am/pm */
export function formatHistoryDate(value: number | string, timeZone?: string): string {
  const date = new Date(toEpochMs(value));
  const parts = new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: '2-digit',
    hour: 'numeric',
    minute: '2-digit',
    hour12: true,
    ...(timeZone ? { timeZone } : {}),
  }).formatToParts(date);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return `${get('day')}/${get('month')}/${get('year')} ${get('hour')}:${get('minute')} ${get('dayPeriod').toLowerCase()}`;
}

/** A /Date(ms)/ string (the device list's date form). */
export function toDotNetDate(date: Date): string {
  return `/Date(${date.getTime()})/`;
}

export function parseDotNetDate(value: string): Date | undefined {
  const match = /^\/Date\((-?\d+)\)\/$/.exec(value);
  return match ? new Date(Number(match[1])) : undefined;
}

/** USD shows $, any other currency €; two decimals. */
export function formatPrice(amount: number | string, currencyCode: string): string {
  const symbol = currencyCode.toUpperCase() === 'USD' ? '$' : '€';
  return `${symbol}${Number(amount).toFixed(2)}`;
}

const DAY_MS = 24 * 60 * 60 * 1000;
/** Up to this many days a last-seen time is told in days; beyond, as a date. */
const LAST_SEEN_IN_DAYS_UP_TO = 60;

/**
 * When a machine was last seen (`/Date(ms)/`), told against `now`: "last seen today",
 * "last seen yesterday", "last seen 3 days ago", beyond 60 days "last seen on 15/01/2026";
 * '' when unknown. Days are counted by elapsed time, not calendar days.
 */
export function formatLastSeen(value: string | null, now: Date, timeZone?: string): string {
  const date = value ? parseDotNetDate(value) : undefined;
  if (!date || Number.isNaN(date.getTime())) return '';
  const days = Math.max(0, Math.floor((now.getTime() - date.getTime()) / DAY_MS));
  if (days === 0) return 'last seen today';
  if (days === 1) return 'last seen yesterday';
  if (days <= LAST_SEEN_IN_DAYS_UP_TO) return `last seen ${days} days ago`;
  return `last seen on ${formatDeviceDate(value ?? '', timeZone)}`;
}

/** What the devices panel says of a machine under its name: "version 5.12.1 on macOS 14.5 · last seen 3 days ago". */
export function describeDevice(
  device: { LastSeen: string | null; AppVersion: string | null; Os: string | null },
  now: Date,
  timeZone?: string,
): string {
  const app = [device.AppVersion ? `version ${device.AppVersion}` : '', device.Os ? `on ${device.Os}` : '']
    .filter(Boolean)
    .join(' ');
  return [app, formatLastSeen(device.LastSeen, now, timeZone)].filter(Boolean).join(' · ');
}

/**
 * The deactivation allowance under the devices panel (ADR 0030): "10 of 10 deactivations left",
 * or "2 of 10 deactivations left; the next returns on 3 Mar 2027".
 */
export function describeAllowance(left: number, limit: number, nextReturns: string | null, timeZone?: string): string {
  const next = nextReturns ? parseDotNetDate(nextReturns) : undefined;
  const when =
    next && !Number.isNaN(next.getTime())
      ? new Intl.DateTimeFormat('en-GB', {
          day: 'numeric',
          month: 'short',
          year: 'numeric',
          ...(timeZone ? { timeZone } : {}),
        }).format(next)
      : '';
  const base = `${left} of ${limit} ${limit === 1 ? 'deactivation' : 'deactivations'} left`;
  return when ? `${base}; the next returns on ${when}` : base;
}

/** The idle-seat rule under the allowance (docs/decisions/0052-idle-seats.md). */
export function describeIdleRule(days: number): string {
  return `A computer not seen for ${days} days is signed out by itself, without using a deactivation; it gets its seat back when it checks in again, if one is free.`;
}

/** A device's registration date (`/Date(ms)/`) as day-month-year, dd/mm/yyyy; '' when unreadable. */
export function formatDeviceDate(value: string, timeZone?: string): string {
  const date = parseDotNetDate(value);
  if (!date || Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat('en-GB', {
    day: '2-digit',
    month: '2-digit',
    year: 'numeric',
    ...(timeZone ? { timeZone } : {}),
  }).format(date);
}
