import { describe, expect, it } from 'vitest';
import { networkOf } from './ip-networks';

const SLASH_24_48 = { v4Octets: 3, v6Groups: 3 };
const ADDRESS_64 = { v4Octets: 4, v6Groups: 4 };

describe('networkOf', () => {
  it('reads networks as IPv4 /24 and IPv6 /48 (an app’s seen device, ADR 0041)', () => {
    expect(networkOf('203.0.113.77', SLASH_24_48)).toBe('203.0.113.0/24');
    expect(networkOf('::ffff:203.0.113.77', SLASH_24_48)).toBe('203.0.113.0/24');
    expect(networkOf('2001:db8:abcd:12::1', SLASH_24_48)).toBe('2001:db8:abcd::/48');
    expect(networkOf('2001:db8::1', SLASH_24_48)).toBe('2001:db8:0::/48');
    expect(networkOf('2001:0DB8:00ab:ffff:0:0:0:1', SLASH_24_48)).toBe('2001:db8:ab::/48');
    expect(networkOf('fe80::1%eth0', SLASH_24_48)).toBe('fe80:0:0::/48');
    expect(networkOf(undefined, SLASH_24_48)).toBe('unknown');
  });

  it('reads an IPv4 address whole and IPv6 as its /64 (the sign-up allowance, ADR 0031)', () => {
    expect(networkOf('203.0.113.7', ADDRESS_64)).toBe('203.0.113.7');
    expect(networkOf('::1', ADDRESS_64)).toBe('0:0:0:0::/64');
    expect(networkOf('not an address', ADDRESS_64)).toBe('not an address');
  });
});
