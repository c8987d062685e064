import { describe, expect, it } from 'vitest';
import { faults } from './errors';
import { faultMessage } from './fault-handling';
import {
  formatAddress,
  formatDeviceDate,
  formatHistoryDate,
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

describe('formatDeviceDate', () => {
  it('shows /Date(ms)/ as day-month-year', () => {
    expect(formatDeviceDate('/Date(1768471200000)/', 'UTC')).toBe('15/01/2026');
    expect(formatDeviceDate('not a date')).toBe('');
  });
});
