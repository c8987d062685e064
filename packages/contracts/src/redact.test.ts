import { describe, expect, it } from 'vitest';
import { redactUrl } from './redact';

describe('redactUrl', () => {
  it('keeps action tokens and credentials out of logged addresses', () => {
    expect(redactUrl('/reset-password/abc123?x=1')).toBe('/reset-password/[redacted]?x=1');
    expect(redactUrl('/login?token=jwt.jwt.jwt&nextUrl=%2Fproducts')).toBe(
      '/login?token=[redacted]&nextUrl=%2Fproducts',
    );
    expect(redactUrl('/login?email=a%40b.c&password=hunter2')).toBe('/login?email=a%40b.c&password=[redacted]');
    expect(redactUrl('/products')).toBe('/products');
    expect(redactUrl('/report-sign-in/abc123')).toBe('/report-sign-in/[redacted]');
    expect(redactUrl('/verify-email-change/abc123')).toBe('/verify-email-change/[redacted]');
  });
});
