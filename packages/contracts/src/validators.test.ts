import { describe, expect, it } from 'vitest';
import { emailProblem, passwordProblem } from './field-rules';
import {
  isValidLicenseKey,
  isValidUpgradeCode,
  isValidVoiceAiUpgradeCode,
  looksLikeUpgradeCode,
  maskLicenseKeyInput,
  normalizeLicenseKey,
} from './licence-rules';
import {
  emailSchema,
  isAddressComplete,
  licenseKeySchema,
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
  it('allows exactly 96 characters, a local part of 64 at most (RFC 5321)', () => {
    const v = `${'a'.repeat(64)}@${'b'.repeat(19)}.example.com`;
    expect(v).toHaveLength(96);
    expect(emailSchema.safeParse(v).success).toBe(true);
    expect(emailSchema.safeParse(`${'a'.repeat(65)}@example.com`).success).toBe(false);
    expect(emailSchema.safeParse(`ann@${'b'.repeat(64)}.com`).success).toBe(false);
  });
});

/**
 * One address is one mailbox (docs/decisions/0031-sign-up-and-mail-limits.md), ASVS 5.0 1.2.x
 * and 1.3.x: no address list, display name, quoted or commented part, route or line break
 * reaches the mailer. Each is refused with the spec's message, by zod and by the zod-free rule.
 */
describe('e-mail: exactly one mailbox', () => {
  it.each([
    'ann@example.com',
    'ann+1@example.com',
    'Ann.Lee@Example.COM',
    "o'brien@example.ie",
    'a_b-c=d#e$f&g*h/i?j^k`l{m|n}o~p@example.com',
    'ann@sub-domain.example.co.uk',
    'ann@xn--bcher-kva.de',
    'ann@example.x1',
  ])('accepts %j', (v) => {
    expect(emailSchema.safeParse(v).success).toBe(true);
    expect(emailProblem(v)).toBeUndefined();
  });

  it.each([
    ['a list', 'ann@example.com,attacker.example'],
    ['a list of two', 'ann@example.com, eve@attacker.example'],
    ['a list by semicolon', 'ann@example.com;eve@attacker.example'],
    ['a display name', 'Ann <ann@example.com>'],
    ['angle brackets', '<ann@example.com>'],
    ['a trailing route', 'ann@example.com<eve@attacker.example>'],
    ['a quoted local part', '"ann"@example.com'],
    ['a quoted list', '"ann@example.com,eve"@attacker.example'],
    ['a comment', 'ann(comment)@example.com'],
    ['a space inside', 'ann lee@example.com'],
    ['a tab inside', 'ann\tlee@example.com'],
    ['CRLF header injection', 'ann@example.com\r\nBcc: eve@attacker.example'],
    ['LF header injection', 'ann@example.com\nBcc: eve@attacker.example'],
    ['a bare CR', 'ann@example.com\rx'],
    ['a NUL', 'ann\u0000@example.com'],
    ['two @', 'ann@eve@attacker.example'],
    ['a percent route', 'eve%attacker.example@example.com'],
    ['a bang path', 'attacker.example!eve@example.com'],
    ['a backslash', 'ann\\@example.com'],
    ['a colon (group)', 'group:ann@example.com;'],
    ['an address literal', 'ann@[127.0.0.1]'],
    ['a numeric top-level domain', 'ann@127.0.0.1'],
    ['a leading dot', '.ann@example.com'],
    ['a trailing dot in the local part', 'ann.@example.com'],
    ['two dots', 'ann..lee@example.com'],
    ['a trailing dot in the domain', 'ann@example.com.'],
    ['a hyphen starting a label', 'ann@-example.com'],
    ['a hyphen ending a label', 'ann@example-.com'],
    ['an underscore in the domain', 'ann@ex_ample.com'],
    ['a domain label of 64', `ann@${'b'.repeat(64)}.com`],
    ['a local part of 65', `${'a'.repeat(65)}@example.com`],
    ['a Unicode domain (IDN, not in its xn-- form)', 'ann@bücher.de'],
    ['a Unicode local part', 'jörg@example.com'],
    ['a full-width at sign', 'ann＠example.com'],
    ['a zero-width space', 'ann\u200b@example.com'],
    ['a right-to-left override', 'ann\u202e@example.com'],
  ])('refuses %s with the spec message', (_, v) => {
    expect(firstMessage(emailSchema.safeParse(v))).toBe('Email address is not in a correct format.');
    expect(emailProblem(v)).toBe('Email address is not in a correct format.');
  });

  it('decides in linear time on long hostile input', () => {
    const started = performance.now();
    for (const v of [`a@${'b'.repeat(60_000)}`, `${'a.'.repeat(30_000)}@x.io`, `a@${'b-'.repeat(30_000)}.c`]) {
      emailProblem(v);
      emailSchema.safeParse(v);
    }
    expect(performance.now() - started).toBeLessThan(500);
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
    `${'a'.repeat(64)}@${'b'.repeat(19)}.example.com`,
    `${'a'.repeat(84)}@example.com`,
    `${'a'.repeat(85)}@example.com`,
    ` ${'a'.repeat(64)}@${'b'.repeat(19)}.example.com `,
    'ann@example.com,attacker.example',
    'ann@example.com\r\nBcc: eve@attacker.example',
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
