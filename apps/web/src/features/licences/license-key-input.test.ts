import { describe, expect, it } from 'vitest';
import { keyInputValue, keyProblem } from './license-key-input';

describe('license key input', () => {
  it('masks keys and keeps UPG- codes as typed', () => {
    expect(keyInputValue('abcdef12')).toBe('ABCDEF-12');
    expect(keyInputValue('upg-abcdefgh')).toBe('UPG-ABCDEFGH');
  });

  it('tells upgrade codes from malformed and valid keys', () => {
    expect(keyProblem('UPG-ABCDEFGH')).toBe('upgradeCode');
    expect(keyProblem('ABCDEF-G')).toBe('upgradeCode');
    expect(keyProblem('ABCGRA-CE')).toBe('upgradeCode');
    expect(keyProblem('ABCDEF-12')).toBe('format');
    expect(keyProblem('ABCDEF-123456-GHIJKL-7890AB')).toBe(null);
  });
});
