import { describe, expect, it } from 'vitest';
import { buildRedirectUrl } from './redirect-url';

describe('buildRedirectUrl', () => {
  it('appends return_to with a leading slash', () => {
    expect(buildRedirectUrl('https://forum.example/sso', 't/1')).toBe('https://forum.example/sso/t/1');
    expect(buildRedirectUrl('https://forum.example/sso', '/t/1')).toBe('https://forum.example/sso/t/1');
    expect(buildRedirectUrl('https://forum.example/sso', null)).toBe('https://forum.example/sso');
  });
});
