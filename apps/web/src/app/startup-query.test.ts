import { describe, expect, it } from 'vitest';
import { loadSavedHeaders } from '../lib/saved-headers';
import { takeStartupQuery } from './startup-query';

const at = (path: string) => takeStartupQuery(new URL(path, 'http://localhost'));

describe('takeStartupQuery', () => {
  it('saves the headers query to local storage and removes it from the URL', () => {
    const headers = encodeURIComponent(JSON.stringify({ Software: 'Reference/5.1', AuthToken: 'x' }));
    expect(at(`/profile?headers=${headers}&a=1#top`)).toEqual({ cleanedUrl: '/profile?a=1#top' });
    // AuthToken can never come from a link.
    expect(loadSavedHeaders()).toEqual({ Software: 'Reference/5.1' });
  });

  it('takes the query token out of the URL as a login code to exchange, never as a session token (ADR 0029)', () => {
    expect(at('/products?token=abc')).toEqual({ loginCode: 'abc', cleanedUrl: '/products' });
    expect(at('/products?token=abc')).not.toHaveProperty('sessionToken');
  });

  it('ignores the query token on the action-token routes', () => {
    for (const route of ['reset-password', 'delete-account', 'verify-email', 'verify-email-change', 'report-sign-in']) {
      expect(at(`/${route}?token=abc`)).toEqual({});
    }
  });

  it('leaves a clean URL alone', () => {
    expect(at('/login?nextUrl=%2Fprofile')).toEqual({});
  });
});
