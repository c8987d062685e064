import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const post = (payload: string, contentType = 'application/json') =>
  t.app.inject({
    method: 'POST',
    url: '/api/accounts/LoginByEmail',
    payload,
    headers: { 'content-type': contentType },
  });

describe('bad input gets a 400 Fault, never a 5xx', () => {
  it.each([
    ['malformed JSON', '{"email": '],
    ['wrong types', '{"email": 12, "password": ["x"]}'],
    ['unknown fields', '{"email": "a@b.co", "password": "12345678", "admin": true}'],
    ['a JSON array', '[1,2,3]'],
    ['prototype poisoning', '{"__proto__": {"x": 1}, "email": "a@b.co", "password": "12345678"}'],
    ['an oversize body', JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(100_000) })],
    ['an oversize field', JSON.stringify({ email: 'a@b.co', password: 'x'.repeat(5000) })],
  ])('%s', async (_name, payload) => {
    const res = await post(payload);
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.Success).toBe(false);
    expect(body.Fault).toMatchObject({ ExceptionType: 10, ExceptionCode: 400 });
    expect(res.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('a body that is not JSON', async () => {
    const res = await post('email=a', 'application/x-www-form-urlencoded');
    expect(res.statusCode).toBe(400);
    expect(res.json().Success).toBe(false);
  });

  it('text the database cannot store (a NUL character) in a body or a query', async () => {
    const inBody = await post(JSON.stringify({ email: 'a\u0000b@example.com', password: '12345678' }));
    const inQuery = await t.app.inject({ method: 'GET', url: '/api/dev/mail?to=%00' });
    for (const res of [inBody, inQuery]) {
      expect(res.statusCode).toBe(400);
      expect(res.json().Fault).toMatchObject({ ExceptionName: 'RequestInvalid', ExceptionType: 10 });
    }
  });

  it('a path parameter longer than the router takes, or a malformed URL, with the security headers', async () => {
    for (const url of [
      `/api/actions/devices/${'a'.repeat(5000)}/deactivate`,
      '/api/actions/devices/%E0%A4%A/deactivate',
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(400);
      expect(res.json().Fault).toMatchObject({ ExceptionName: 'RequestInvalid', ExceptionType: 10 });
      expect(res.headers['content-security-policy'], url).toMatch(/default-src 'self'/);
      expect(res.headers['x-content-type-options'], url).toBe('nosniff');
    }
  });

  it('an unknown API path is a JSON 404 Fault', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/nope' });
    expect(res.statusCode).toBe(404);
    expect(res.json().Fault.ExceptionName).toBe('NotFound');
  });
});

describe('operations', () => {
  it('health, readiness, features, store settings and config', async () => {
    expect((await t.app.inject('/api/health')).json()).toEqual({ Success: true, Result: { Status: 'up' } });
    expect((await t.app.inject('/api/ready')).json().Result.Status).toBe('ready');
    expect((await t.app.inject('/api/accounts/features')).json()).toEqual({
      Success: true,
      Result: { CoProducer: false },
    });
    const store = (await t.app.inject('/api/shopify/store-settings')).json().Result;
    expect(store).toMatchObject({ ApiVersion: '2025-01', Sandbox: true });
    const config = (await t.app.inject('/api/config')).json().Result;
    expect(config).toMatchObject({
      AppTarget: 'reference',
      SocialProviders: {},
      DevelopmentEnv: true,
      MainHost: 'localhost:3000',
    });
  });

  it('serves the OpenAPI document generated from the schemas', async () => {
    const doc = (await t.app.inject('/api/docs')).json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/accounts/LoginByEmail'].post.requestBody).toBeDefined();
    expect(doc.paths['/api/voiceai/GetProducts'].post.requestBody).toBeDefined();
  });

  it('sets the security headers on every response', async () => {
    const res = await t.app.inject('/api/health');
    expect(res.headers['content-security-policy']).toMatch(/default-src 'self'/);
    expect(res.headers['content-security-policy']).toMatch(/object-src 'none'/);
    expect(res.headers['content-security-policy']).toMatch(/base-uri 'none'/);
    expect(res.headers['content-security-policy']).toMatch(/frame-ancestors 'none'/);
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['referrer-policy']).toBe('strict-origin-when-cross-origin');
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['cache-control']).toBe('no-store');
  });

  it('lists payment countries from the ISO 3166 data', async () => {
    const res = await t.call('/api/accounts/GetPaymentCountries', {});
    const list: { Code: string; Name: string }[] = res.json().Result;
    expect(list.length).toBeGreaterThan(240);
    expect(list).toContainEqual({ Code: 'LV', Name: 'Latvia' });
    expect(list.map((c) => c.Name)).toEqual([...list.map((c) => c.Name)].sort((a, b) => a.localeCompare(b, 'en')));
  });
});
