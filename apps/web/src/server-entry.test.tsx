import { pageRenderCalls } from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import { BOOT_DATA_ID, readBootData } from './config/boot-data';
import { BRANDING_HEADER, SOFTWARE_HEADER } from './config/client';
import { FALLBACK_CONFIG, type PublicConfig } from './config/public-config';
import { licenceList, referenceProduct } from './features/licences/licence-list.fixture';
import { type CallAnswer, renderPage } from './server-entry';
import { testUser } from './testing/mock-api';

/** index.html as the web build writes it (vite.config.ts: the loader tag). */
const TEMPLATE = `<!doctype html><html lang="en"><head><title>My SoundID</title>
<script type="module" crossorigin id="app-loader" src="/assets/loader-1.js" data-entry="/assets/index-1.js" data-preloads="/assets/react-1.js /assets/app-1.js" data-screen-login="/assets/login-1.js" data-screen-products="/assets/query-layout-1.js /assets/products-1.js /assets/products-1.css"></script>
</head><body><div id="root"></div></body></html>`;

const CONFIG: PublicConfig = {
  ...FALLBACK_CONFIG,
  RedirectTargets: [{ Id: 'x', Name: '</script><b>', CallbackUrl: '/' }],
};

function pageOf(html: string): Document {
  return new DOMParser().parseFromString(html, 'text/html');
}

const rootOf = (page: Document) => page.getElementById('root') as HTMLElement;

/** The loader tag's attributes that name screens' files (rendered-ahead.ts). */
function screenAttributes(page: Document): Record<string, string> {
  const loader = page.getElementById('app-loader') as HTMLElement;
  return Object.fromEntries(
    loader
      .getAttributeNames()
      .flatMap((name) => (name.startsWith('data-screen') ? [[name, loader.getAttribute(name) ?? '']] : [])),
  );
}

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
    // Its modules are fetched by the loader after the first paint, so no preload hints; the
    // loader is told the screen's own, and nothing of the other screens rendered ahead.
    expect(page.querySelector('link[rel=modulepreload]')).toBeNull();
    expect(screenAttributes(page)).toEqual({ 'data-screen': '/assets/login-1.js' });
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
      // No screen sent, none named: the app finds its screen in the route table.
      expect(screenAttributes(page), url).toEqual({});
    }
  });

  it('writes a page for any address a browser may ask for', async () => {
    const odd = [
      '//elsewhere.example/login',
      '/%E0%A4%A',
      '/login?%zz=1&nextUrl=%3Cscript%3E',
      '/login/../products',
      '/\u2028',
    ];
    for (const url of odd) {
      for (const hasSessionCookie of [false, true]) {
        const page = pageOf(await renderPage(TEMPLATE, { url, hasSessionCookie, config: CONFIG }));
        expect(readBootData(page), url).toEqual({ config: CONFIG, signedOut: !hasSessionCookie });
        expect(page.querySelector('script:not([id])'), url).toBeNull();
      }
    }
  });

  describe('Licenses & Devices for a signed-in customer', () => {
    const list = licenceList({ products: [referenceProduct({ DisplayName: 'Studio $& $1 <b>Pack</b>' })] });
    const answers: Record<string, CallAnswer> = {
      [pageRenderCalls.session]: { Success: true, Result: { User: testUser } },
      [pageRenderCalls.licences]: { Success: true, Result: list },
    };
    const calls: { path: string; body: unknown; headers: Record<string, string> }[] = [];
    const call = async (path: string, body: unknown, headers: Record<string, string>) => {
      calls.push({ path, body, headers });
      return answers[path] ?? { Success: false };
    };

    it('renders the screen with the user and the list read through the service, and hands both to the SPA', async () => {
      calls.length = 0;
      const page = pageOf(
        await renderPage(TEMPLATE, { url: '/products', hasSessionCookie: true, config: CONFIG, call }),
      );
      const root = rootOf(page);
      expect(root.querySelector('h1')?.textContent).toBe('Licenses & Devices');
      // The customer's text stays text: no markup, no String.replace patterns.
      expect(root.textContent).toContain('Studio $& $1 <b>Pack</b>');
      expect(root.querySelector('b')).toBeNull();
      expect(root.textContent).toContain(testUser.Email);
      expect(calls.map((c) => c.path).sort()).toEqual([pageRenderCalls.licences, pageRenderCalls.session].sort());
      expect(calls[0]?.headers).toEqual({ Software: SOFTWARE_HEADER, Branding: BRANDING_HEADER });
      const boot = readBootData(page);
      expect(boot).toMatchObject({ signedOut: false, user: testUser });
      expect(boot?.queries?.queries).toEqual([
        expect.objectContaining({
          queryKey: ['licences', 'by-product-line'],
          state: expect.objectContaining({ data: list }),
        }),
      ]);
      expect(page.querySelector('link[rel=modulepreload]')).toBeNull();
      expect(screenAttributes(page)).toEqual({
        'data-screen': '/assets/query-layout-1.js /assets/products-1.js /assets/products-1.css',
      });
    });

    it('leaves the screen to the SPA when a call is refused, or on screens it has no data for', async () => {
      const refusing = async (path: string) =>
        path === pageRenderCalls.session ? { Success: false } : { Success: true, Result: list };
      const failingList = async (path: string) =>
        path === pageRenderCalls.session ? (answers[path] ?? { Success: false }) : { Success: false };
      for (const [url, caller] of [
        ['/products', refusing],
        ['/products', failingList],
        ['/products?token=abc', call],
        ['/profile', call],
      ] as const) {
        const page = pageOf(await renderPage(TEMPLATE, { url, hasSessionCookie: true, config: CONFIG, call: caller }));
        expect(rootOf(page).childElementCount, url).toBe(0);
        expect(readBootData(page), url).toEqual({ config: CONFIG, signedOut: false });
        expect(screenAttributes(page), url).toEqual({});
      }
      const noCaller = pageOf(await renderPage(TEMPLATE, { url: '/products', hasSessionCookie: true, config: CONFIG }));
      expect(rootOf(noCaller).childElementCount).toBe(0);
    });
  });
});
