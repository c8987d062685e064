import { describe, expect, it } from 'vitest';
import { BOOT_DATA_ID, readBootData } from './config/boot-data';
import { FALLBACK_CONFIG, type PublicConfig } from './config/public-config';
import { renderPage } from './server-entry';

/** index.html as the web build writes it (vite.config.ts: the loader tag). */
const TEMPLATE = `<!doctype html><html lang="en"><head><title>My SoundID</title>
<script type="module" crossorigin id="app-loader" src="/assets/loader-1.js" data-entry="/assets/index-1.js" data-preloads="/assets/react-1.js /assets/app-1.js"></script>
</head><body><div id="root"></div></body></html>`;

const CONFIG: PublicConfig = {
  ...FALLBACK_CONFIG,
  RedirectTargets: [{ Id: 'x', Name: '</script><b>', CallbackUrl: '/' }],
};

function pageOf(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

const rootOf = (page: Document) => page.getElementById('root') as HTMLElement;

/**
 * What `renderPage` writes. That the app takes the sent screen over (hydration, what was typed
 * before it started) is checked in Chromium: e2e/first-paint.spec.ts.
 */
describe('the page the service sends (ADR 0024)', () => {
  it('renders the sign-in screen for a visitor without a session cookie, with the boot data and title', async () => {
    const page = pageOf(
      await renderPage(TEMPLATE, { url: '/login?nextUrl=%2Fproducts', hasSessionCookie: false, config: CONFIG }),
    );
    expect(page.title).toBe('My SoundID | Log in');
    expect(rootOf(page).querySelector('h1')?.textContent).toBe('Log in');
    expect(rootOf(page).querySelector('input[name=email]')).not.toBeNull();
    // Submit stays disabled in the sent form: nothing submits before the app has started.
    expect(rootOf(page).querySelector('button[type=submit]')?.hasAttribute('disabled')).toBe(true);
    expect(readBootData(page)).toEqual({ config: CONFIG, signedOut: true });
    // Its modules are fetched by the loader after the first paint, so no preload hints.
    expect(page.querySelector('link[rel=modulepreload]')).toBeNull();
  });

  it('keeps a configured value from closing the data block', async () => {
    const html = await renderPage(TEMPLATE, { url: '/login', hasSessionCookie: false, config: CONFIG });
    expect(html).not.toContain('</script><b>');
    expect(pageOf(html).getElementById(BOOT_DATA_ID)?.nextElementSibling?.tagName).not.toBe('B');
    expect(readBootData(pageOf(html))?.config.RedirectTargets[0]?.Name).toBe('</script><b>');
  });

  it('sends no screen with a session cookie, a session token or saved headers in the URL, or off sign-in', async () => {
    const cases = [
      { url: '/login', hasSessionCookie: true, signedOut: false },
      { url: '/login?token=abc', hasSessionCookie: false, signedOut: true },
      { url: '/login?headers=%7B%7D', hasSessionCookie: false, signedOut: true },
      { url: '/signup', hasSessionCookie: false, signedOut: true },
      { url: '/products', hasSessionCookie: false, signedOut: true },
      { url: '/products', hasSessionCookie: true, signedOut: false },
    ];
    for (const { url, hasSessionCookie, signedOut } of cases) {
      const page = pageOf(await renderPage(TEMPLATE, { url, hasSessionCookie, config: CONFIG }));
      expect(rootOf(page).childElementCount, url).toBe(0);
      expect(readBootData(page), url).toEqual({ config: CONFIG, signedOut });
      // Nothing to paint first: the app's modules are hinted at once.
      const hints = [...page.querySelectorAll('link[rel=modulepreload]')].map((link) => link.getAttribute('href'));
      expect(hints, url).toEqual(['/assets/index-1.js', '/assets/react-1.js', '/assets/app-1.js']);
    }
  });
});
