import { describe, expect, it } from 'vitest';
import { faults } from './errors';
import { faultMessage } from './fault-handling';
import {
  describeAllowance,
  describeDevice,
  formatAddress,
  formatDeviceDate,
  formatHistoryDate,
  formatLastSeen,
  formatPrice,
  maskEmail,
  maskLicenseKey,
  parseDotNetDate,
  toDotNetDate,
  toEpochMs,
} from './format';
import { pageTitle } from './page-title';
import { paginationWindow } from './pagination';

describe('format', () => {
  it('address: non-empty parts joined by commas, or No address entered', () => {
    expect(
      formatAddress({ AddressLine1: '1 Road', City: 'Riga', State: '', PostalCode: 'LV-1010', Country: 'LV' }),
    ).toBe('1 Road, Riga, LV-1010, Latvia');
    expect(formatAddress({ AddressLine1: '1 Abbey Road', City: 'London', PostalCode: 'NW8', Country: 'GB' })).toBe(
      '1 Abbey Road, London, NW8, United Kingdom',
    );
    expect(formatAddress({ AddressLine1: '', City: '', State: '', PostalCode: '', Country: '' })).toBe(
      'No address entered',
    );
    expect(formatAddress(null)).toBe('No address entered');
  });
  it('page title', () => {
    expect(pageTitle(['Log in'])).toBe('My SoundID | Log in');
    expect(pageTitle([])).toBe('My SoundID');
  });
  it('masks keys and e-mails', () => {
    expect(maskLicenseKey('abcdef123456ghijkl789012')).toBe('******-******-******-789012');
    expect(maskEmail('john.smith@example.com')).toBe('j***@e***.com');
  });
  it('history dates: epoch padded to 13 digits, dd/mm/yy h:mm am/pm', () => {
    expect(toEpochMs(1700000000)).toBe(1700000000000);
    expect(toEpochMs('1700000000000')).toBe(1700000000000);
    expect(formatHistoryDate(1700000000, 'UTC')).toBe('14/11/23 10:13 pm');
  });
  it('/Date(ms)/ round trip', () => {
    const d = new Date(1700000000000);
    expect(toDotNetDate(d)).toBe('/Date(1700000000000)/');
    expect(parseDotNetDate('/Date(1700000000000)/')?.getTime()).toBe(1700000000000);
  });
  it('prices: USD is $, others €, two decimals', () => {
    expect(formatPrice(9.5, 'USD')).toBe('$9.50');
    expect(formatPrice('12', 'EUR')).toBe('€12.00');
  });
  it('pagination window: 3 each side, first, last, ellipses', () => {
    expect(paginationWindow(1, 3)).toEqual([1, 2, 3]);
    expect(paginationWindow(10, 20)).toEqual([1, 'ellipsis', 7, 8, 9, 10, 11, 12, 13, 'ellipsis', 20]);
    expect(paginationWindow(5, 9)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });
});

describe('fault messages', () => {
  it('looks up by name, falls back to user text, the name, then Unknown', () => {
    expect(faultMessage('KeyNotFound')).toBe(faults.KeyNotFound.message);
    expect(faultMessage('SomethingNew', 'Server text')).toBe('Server text');
    expect(faultMessage('SomethingNew', '')).toBe('SomethingNew');
    expect(faultMessage(undefined, undefined)).toBe('Unknown error.');
  });
  it('session faults carry ExceptionType 30', () => {
    for (const name of [
      'SecurityAuthTokenNotPassed',
      'SecurityAuthTokenExpired',
      'SecurityAuthTokenInvalid',
      'UserAuthenticationFailed',
    ] as const) {
      expect(faults[name].type).toBe(30);
    }
  });
});

describe('formatLastSeen and describeDevice (docs/decisions/0049-devices-seen.md)', () => {
  const now = new Date(Date.UTC(2026, 10, 26, 12));
  const ago = (hours: number) => `/Date(${now.getTime() - hours * 3600_000})/`;
  it('tells elapsed days, then a date beyond 60 days; nothing when unknown', () => {
    expect(formatLastSeen(ago(0), now)).toBe('last seen today');
    expect(formatLastSeen(ago(23.9), now)).toBe('last seen today');
    expect(formatLastSeen(ago(24), now)).toBe('last seen yesterday');
    expect(formatLastSeen(ago(73), now)).toBe('last seen 3 days ago');
    expect(formatLastSeen(ago(60 * 24), now)).toBe('last seen 60 days ago');
    expect(formatLastSeen(ago(61 * 24), now, 'UTC')).toBe('last seen on 26/09/2026');
    // A clock behind the server's: never "in the future".
    expect(formatLastSeen(ago(-5), now)).toBe('last seen today');
    expect(formatLastSeen(null, now)).toBe('');
    expect(formatLastSeen('garbage', now)).toBe('');
  });
  it('puts the version and OS the app sent before the time, leaving out what it did not send', () => {
    expect(describeDevice({ LastSeen: ago(73), AppVersion: '5.12.1', Os: 'macOS 14.5' }, now)).toBe(
      'version 5.12.1 on macOS 14.5 · last seen 3 days ago',
    );
    expect(describeDevice({ LastSeen: ago(1), AppVersion: null, Os: 'Windows 11' }, now)).toBe(
      'on Windows 11 · last seen today',
    );
    expect(describeDevice({ LastSeen: null, AppVersion: null, Os: null }, now)).toBe('');
  });
});

describe('describeAllowance (ADR 0030)', () => {
  it('says how many are left and when the next comes back', () => {
    expect(describeAllowance(10, 10, null)).toBe('10 of 10 deactivations left');
    expect(describeAllowance(2, 10, `/Date(${Date.UTC(2027, 2, 3, 12)})/`, 'UTC')).toBe(
      '2 of 10 deactivations left; the next returns on 3 Mar 2027',
    );
    expect(describeAllowance(0, 1, 'garbage')).toBe('0 of 1 deactivation left');
  });
});

describe('formatDeviceDate', () => {
  it('shows /Date(ms)/ as day-month-year', () => {
    expect(formatDeviceDate('/Date(1768471200000)/', 'UTC')).toBe('15/01/2026');
    expect(formatDeviceDate('not a date')).toBe('');
  });
});
