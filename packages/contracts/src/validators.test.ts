import { describe, expect, it } from 'vitest';
import { emailProblem, passwordProblem } from './field-rules';
import {
  emailSchema,
  isAddressComplete,
  isValidLicenseKey,
  isValidUpgradeCode,
  isValidVoiceAiUpgradeCode,
  licenseKeySchema,
  looksLikeUpgradeCode,
  maskLicenseKeyInput,
  normalizeLicenseKey,
  pageCountSchema,
  pageSchema,
  passwordSchema,
  repeatedPasswordError,
  serialSchema,
} from './validators';

const firstMessage = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('e-mail', () => {
  it.each(['ann@example.com', 'a.b+c@sub.example.co.uk', ' ann@example.com '])('accepts %j', (v) => {
    expect(emailSchema.safeParse(v).success).toBe(true);
  });
  it.each([
    '',
    'ann',
    'ann@',
    '@example.com',
    'ann@example',
    'a n@example.com',
    'ann@@example.com',
    `${'a'.repeat(85)}@example.com`,
  ])('rejects %j with the spec message', (v) => {
    expect(firstMessage(emailSchema.safeParse(v))).toBe('Email address is not in a correct format.');
  });
  it('allows exactly 96 characters', () => {
    const v = `${'a'.repeat(84)}@example.com`;
    expect(v).toHaveLength(96);
    expect(emailSchema.safeParse(v).success).toBe(true);
  });
});

describe('zod-free rules (field-rules.ts) against the schemas', () => {
  const emails = [
    'ann@example.com',
    ' ann@example.com ',
    'a.b+c@sub.example.co.uk',
    '',
    '   ',
    'ann',
    'ann@',
    '@example.com',
    'ann@example',
    'ann@example.',
    'a n@example.com',
    'ann@@example.com',
    `${'a'.repeat(84)}@example.com`,
    `${'a'.repeat(85)}@example.com`,
    ` ${'a'.repeat(84)}@example.com `,
  ];
  it.each(emails)('e-mail %j: same verdict and message', (v) => {
    expect(emailProblem(v)).toBe(firstMessage(emailSchema.safeParse(v)));
  });
  const passwords = ['', '1234567', '12345678', ' 234567 ', 'x'.repeat(64), 'x'.repeat(128), 'x'.repeat(129)];
  it.each(passwords)('password %j: same verdict and message', (v) => {
    expect(passwordProblem(v)).toBe(firstMessage(passwordSchema.safeParse(v)));
  });
});

describe('password', () => {
  it('needs at least 8 characters', () => {
    expect(firstMessage(passwordSchema.safeParse('1234567'))).toBe('Password is shorter than 8 symbols.');
    expect(passwordSchema.safeParse('12345678').success).toBe(true);
  });
  it('accepts at least 64 characters and at most 128', () => {
    expect(passwordSchema.safeParse('x'.repeat(64)).success).toBe(true);
    expect(passwordSchema.safeParse('x'.repeat(128)).success).toBe(true);
    expect(passwordSchema.safeParse('x'.repeat(129)).success).toBe(false);
  });
  it('repeated password must match', () => {
    expect(repeatedPasswordError('abcdefgh', 'abcdefgh')).toBeUndefined();
    expect(repeatedPasswordError('abcdefgh', 'abcdefgi')).toBe('Passwords do not match.');
  });
});

describe('licence key', () => {
  it.each(['ABCDEF123456GHIJKL789012', 'abcdef-123456-ghijkl-789012', 'ABCDEF-123456GHIJKL-789012'])(
    'accepts %j',
    (v) => {
      expect(isValidLicenseKey(v)).toBe(true);
    },
  );
  it.each([
    '',
    'ABCDEF-123456-GHIJKL',
    'ABCDEF--123456-GHIJKL-789012',
    'ABCDE!-123456-GHIJKL-789012',
    'ABCDEF123456GHIJKL7890123',
  ])('rejects %j', (v) => {
    expect(isValidLicenseKey(v)).toBe(false);
  });
  it('normalises to 24 upper-case characters and masks input as 6-6-6-6', () => {
    expect(normalizeLicenseKey('abcdef-123456-ghijkl-789012')).toBe('ABCDEF123456GHIJKL789012');
    expect(licenseKeySchema.parse('abcdef-123456-ghijkl-789012')).toBe('ABCDEF123456GHIJKL789012');
    expect(maskLicenseKeyInput('abcdef12')).toBe('ABCDEF-12');
    expect(maskLicenseKeyInput('abcdef123456ghijkl789012XYZ')).toBe('ABCDEF-123456-GHIJKL-789012');
  });
});

describe('upgrade code', () => {
  it.each(['UPG-ABCD1234', `UPG-${'A'.repeat(60)}`, 'ABC1234', 'somethingGRACE', 'xgrace'])('accepts %j', (v) => {
    expect(isValidUpgradeCode(v)).toBe(true);
  });
  it.each(['UPG-ABC', `UPG-${'A'.repeat(61)}`, 'ABC123', 'ABC12345', 'UPG-ABCD-1234'])('rejects %j', (v) => {
    expect(isValidUpgradeCode(v)).toBe(false);
  });
  it('voice AI accepts only the UPG- form', () => {
    expect(isValidVoiceAiUpgradeCode('UPG-ABCD1234')).toBe(true);
    expect(isValidVoiceAiUpgradeCode('ABC1234')).toBe(false);
    expect(isValidVoiceAiUpgradeCode('oldGRACE')).toBe(false);
  });
  it('is detected on the key page', () => {
    expect(looksLikeUpgradeCode('UPG-ABCD1234')).toBe(true);
    expect(looksLikeUpgradeCode('ABCDEF-123456-GHIJKL-789012')).toBe(false);
  });
});

describe('serial, address, pagination', () => {
  it('serial is 9 to 24 characters', () => {
    expect(serialSchema.safeParse('12345678').success).toBe(false);
    expect(serialSchema.safeParse('123456789').success).toBe(true);
    expect(serialSchema.safeParse('x'.repeat(24)).success).toBe(true);
    expect(serialSchema.safeParse('x'.repeat(25)).success).toBe(false);
  });
  it('address needs all five fields', () => {
    const full = { addressLine1: 'a', city: 'b', state: 'c', postalCode: 'd', country: 'LV' };
    expect(isAddressComplete(full)).toBe(true);
    expect(isAddressComplete({ ...full, state: ' ' })).toBe(false);
  });
  it('page >= 1 and page count > 0, integers', () => {
    expect(pageSchema.safeParse(1).success).toBe(true);
    expect(pageSchema.safeParse(0).success).toBe(false);
    expect(pageSchema.safeParse(1.5).success).toBe(false);
    expect(pageCountSchema.safeParse(0).success).toBe(false);
  });
});
