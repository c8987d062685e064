import { describe, expect, it, vi } from 'vitest';
import { FALLBACK_CONFIG } from './config/public-config';
import { renderPage } from './server-entry';

// A screen that fails while the service renders it (as one reading `window` would).
vi.mock('./features/auth/components/login-screen', () => ({
  LoginScreen: () => {
    throw new Error('the screen failed');
  },
}));

describe('a screen that fails on the service', () => {
  it('fails the render, so that the service sends the bare page and logs why', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await expect(
      renderPage('<head></head><div id="root"></div>', {
        url: '/login',
        hasSessionCookie: false,
        config: FALLBACK_CONFIG,
      }),
    ).rejects.toThrow('the screen failed');
  });
});
