import { isIPv4, isIPv6 } from 'node:net';

/**
 * The network an address belongs to, as a key: an IPv4 address cut to its first `v4Octets`
 * (also when written IPv4-mapped, ::ffff:a.b.c.d), an IPv6 address to its first `v6Groups`
 * groups (a zone index dropped, leading zeros and case normalised). What is neither is kept as
 * given (or 'unknown'). The sign-up allowance counts a client per IPv4 address or IPv6 /64
 * (ADR 0031); an app's seen device is its IPv4 /24 or IPv6 /48 (ADR 0041).
 */
export function networkOf(
  ip: string | undefined,
  { v4Octets, v6Groups }: { v4Octets: number; v6Groups: number },
): string {
  const address = (ip ?? '').trim().toLowerCase();
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address)?.[1] ?? address;
  if (isIPv4(v4)) {
    if (v4Octets >= 4) return v4;
    const kept = v4.split('.').slice(0, v4Octets);
    return `${[...kept, ...Array(4 - v4Octets).fill('0')].join('.')}/${v4Octets * 8}`;
  }
  const v6 = address.split('%')[0] ?? '';
  if (!isIPv6(v6)) return address || 'unknown';
  return `${expandIPv6(v6).slice(0, v6Groups).join(':')}::/${v6Groups * 16}`;
}

/** The eight groups of an IPv6 address, without leading zeros. */
function expandIPv6(address: string): string[] {
  const [head = '', tail] = address.split('::');
  const groups = (part: string | undefined) => (part ? part.split(':') : []);
  const left = groups(head);
  const right = groups(tail);
  const missing = tail === undefined ? [] : Array(8 - left.length - right.length).fill('0');
  return [...left, ...missing, ...right].map((g) => (Number.parseInt(g, 16) || 0).toString(16));
}
