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
