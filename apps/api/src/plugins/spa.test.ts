import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../test/accounts-flow';
import { createTestApp, fakeConsoleDist, fakeWebDist, type TestApp } from '../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  const dist = fakeWebDist();
  t = await createTestApp({ WEB_DIST_DIR: dist });
});
afterAll(() => t.close());

describe('serving the SPA', () => {
  it('answers page routes with index.html (history fallback)', async () => {
    for (const url of ['/', '/login', '/verify-email/abc', '/profile/set-password?x=1']) {
      const res = await t.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
      expect(res.headers['cache-control']).toBe('no-cache');
    }
  });

  it('serves hashed assets with a long cache', async () => {
    const res = await t.app.inject('/assets/app-abc123.js');
    expect(res.statusCode).toBe(200);
    expect(res.headers['cache-control']).toContain('immutable');
  });

  it("serves the build's precompressed files to browsers that accept them", async () => {
    const gzip = await t.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gzip.rawPayload).toString()).toBe('console.log(1)');
    const plain = await t.app.inject({ url: '/assets/app-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe('console.log(1)');
  });

  it('keeps unknown API paths and non-GET page requests as JSON 404 Faults', async () => {
    const api = await t.app.inject('/api/unknown');
    expect(api.statusCode).toBe(404);
    expect(api.json().Fault.ExceptionName).toBe('NotFound');
    const post = await t.app.inject({ method: 'POST', url: '/login' });
    expect(post.statusCode).toBe(404);
    expect(post.json().Success).toBe(false);
  });
});

describe("serving pages through the web build's page renderer (ADR 0024)", () => {
  let r: TestApp;
  beforeAll(async () => {
    r = await createTestApp({ WEB_DIST_DIR: fakeWebDist({ renderer: true }) });
  });
  afterAll(() => r.close());

  const rendered = (body: string) =>
    JSON.parse(/<div id="root">(.*)<\/div>/.exec(body)?.[1] ?? 'null') as {
      url: string;
      hasSessionCookie: boolean;
      config: { AppTarget: string; RedirectTargets: unknown[] };
    };

  it('hands every page route the request path and query, the public configuration and the cookie presence', async () => {
    const config = (await r.app.inject('/api/config')).json().Result;
    for (const url of ['/', '/login?nextUrl=%2Fproducts', '/products', '/verify-email/abc']) {
      const res = await r.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.headers.vary).toBe('Cookie, Accept-Encoding');
      expect(rendered(res.body)).toEqual({ url, hasSessionCookie: false, config });
    }
    const withCookie = await r.app.inject({ url: '/login', cookies: { soundid_session: 'anything' } });
    expect(rendered(withCookie.body).hasSessionCookie).toBe(true);
  });

  it('compresses the page for browsers that accept it', async () => {
    const br = await r.app.inject({ url: '/login', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(rendered(brotliDecompressSync(br.rawPayload).toString()).url).toBe('/login');
    const gzip = await r.app.inject({ url: '/login', headers: { 'accept-encoding': 'gzip' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(rendered(gunzipSync(gzip.rawPayload).toString()).url).toBe('/login');
  });

  it("makes the renderer's reads with the page request's cookie, and refuses any other call", async () => {
    const token = await signUpVerified(r, 'page-reader@example.com');
    const page = (url: string, cookie?: string) =>
      r.app.inject({ url, ...(cookie ? { cookies: { soundid_session: cookie } } : {}) });
    const answer = (body: string) => (rendered(body) as unknown as { answer: { Success: boolean } }).answer;

    const signedIn = await page('/products?call=/api/accounts/LoginByToken', token);
    expect(signedIn.headers['cache-control']).toBe('no-store');
    expect(answer(signedIn.body)).toMatchObject({
      Success: true,
      Result: { User: { Email: 'page-reader@example.com' } },
    });
    const licences = await page('/products?call=/api/licenses/GetAccountLicensesByProductLine', token);
    expect(answer(licences.body)).toMatchObject({ Success: true });
    // No cookie, no session: the call answers as it would the SPA.
    expect(answer((await page('/products?call=/api/accounts/LoginByToken')).body)).toMatchObject({ Success: false });

    // A write is not a page's to make: the renderer fails, and the bare page is served.
    const write = await page('/products?call=/api/accounts/Logout', token);
    expect(write.statusCode).toBe(200);
    expect(write.body).toContain('<div id="root"></div>');
    expect((await r.call('/api/accounts/LoginByToken', {}, token)).statusCode).toBe(200);
  });

  it('renders a signed-out address once, a signed-in page every time, and nothing for HEAD', async () => {
    const renders = () => (globalThis as { pageRenders?: number }).pageRenders ?? 0;
    const before = renders();
    const first = await r.app.inject('/login?nextUrl=%2Fonce');
    const second = await r.app.inject('/login?nextUrl=%2Fonce');
    expect(second.body).toBe(first.body);
    expect(renders()).toBe(before + 1);
    await r.app.inject({ url: '/login?nextUrl=%2Fonce', cookies: { soundid_session: 'a' } });
    await r.app.inject({ url: '/login?nextUrl=%2Fonce', cookies: { soundid_session: 'a' } });
    expect(renders()).toBe(before + 3);
    const head = await r.app.inject({ method: 'HEAD', url: '/products', cookies: { soundid_session: 'a' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers['cache-control']).toBe('no-store');
    expect(renders()).toBe(before + 3);
  });

  it('serves the bare page when the renderer fails', async () => {
    const res = await r.app.inject('/render-fails');
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('<div id="root"></div>');
  });

  it('answers a missing asset with a 404 Fault, not the page', async () => {
    const res = await r.app.inject('/assets/gone-123.js');
    expect(res.statusCode).toBe(404);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.json().Fault.ExceptionName).toBe('NotFound');
    expect((await r.app.inject('/assets/app-abc123.js')).body).toBe('console.log(1)');
  });
});

describe('serving the back-office console under /console (ADR 0047)', () => {
  let c: TestApp;
  let portalOnly: TestApp;
  beforeAll(async () => {
    c = await createTestApp({ WEB_DIST_DIR: fakeWebDist(), CONSOLE_DIST_DIR: fakeConsoleDist() });
    portalOnly = await createTestApp({ WEB_DIST_DIR: fakeWebDist() });
  });
  afterAll(async () => {
    await c.close();
    await portalOnly.close();
  });

  const consoleCsp = (res: { headers: Record<string, unknown> }) => String(res.headers['content-security-policy']);

  it("answers every console route with the console's index.html, under the console's own CSP", async () => {
    for (const url of [
      '/console',
      '/console/',
      '/console/sign-in',
      '/console/invitation/abc123',
      '/console/customer?email=a%40b.c',
    ]) {
      const res = await c.app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.body, url).toContain('<title>SoundID console</title>');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      const csp = consoleCsp(res);
      // ASVS 3.4.3: script-src self only, no inline script or style, nothing framed, no framing.
      expect(csp).toContain("script-src 'self';");
      expect(csp).toContain("style-src 'self';");
      expect(csp).toContain("frame-ancestors 'none'");
      expect(csp).toContain("object-src 'none'");
      expect(csp).toContain("base-uri 'none'");
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|https:/);
      expect(res.headers['referrer-policy'], url).toBe('no-referrer');
      expect(res.headers['x-frame-options'], url).toBe('DENY');
    }
  });

  it('serves its assets from its own build, compressed when asked, and a missing one as a 404', async () => {
    const plain = await c.app.inject('/console/assets/index-c0ns01e.js');
    expect(plain.statusCode).toBe(200);
    expect(plain.body).toBe('console.log("console")');
    expect(plain.headers['cache-control']).toContain('immutable');
    const br = await c.app.inject({ url: '/console/assets/index-c0ns01e.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe('console.log("console")');
    const gone = await c.app.inject('/console/assets/gone-1.js');
    expect(gone.statusCode).toBe(404);
    expect(gone.json().Fault.ExceptionName).toBe('NotFound');
  });

  it("keeps the portal's pages, assets and CSP as they were, and no console file at the portal's paths", async () => {
    const login = await c.app.inject('/login');
    expect(login.body).toContain('<title>My SoundID</title>');
    expect(consoleCsp(login)).toContain('https://accounts.google.com');
    expect((await c.app.inject('/assets/index-c0ns01e.js')).statusCode).toBe(404);
    expect((await c.app.inject('/consoles')).body).toContain('<title>My SoundID</title>');
    // The API under /api/admin keeps answering JSON, never the console's page.
    const admin = await c.app.inject('/api/admin/unknown');
    expect(admin.statusCode).toBe(404);
    expect(admin.json().Fault.ExceptionName).toBe('NotFound');
  });

  it("keeps the invitation link's token out of the service's log (ASVS 16.2.5)", async () => {
    const lines: string[] = [];
    const logged = await createTestApp(
      { LOG_LEVEL: 'info', CONSOLE_DIST_DIR: fakeConsoleDist() },
      { logger: true, logStream: { write: (line: string) => void lines.push(line) } },
    );
    try {
      const res = await logged.app.inject('/console/invitation/s3cret-invitation-token?x=1');
      expect(res.statusCode).toBe(200);
      expect(lines.join('')).toContain('/console/invitation/[redacted]?x=1');
      expect(lines.join('')).not.toContain('s3cret-invitation-token');
    } finally {
      await logged.close();
    }
  });

  it('without a console build, /console is a 404, not the portal', async () => {
    const res = await portalOnly.app.inject('/console/sign-in');
    expect(res.statusCode).toBe(404);
  });
});
