import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../test/accounts-flow';
import { createTestApp, fakeWebDist, type TestApp } from '../../test/kit/test-app';

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
