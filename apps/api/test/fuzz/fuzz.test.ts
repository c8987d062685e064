import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../accounts-flow';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../test-app';

/**
 * Every endpoint gets generated bodies — random JSON, huge, deeply nested, wrong-typed and
 * unicode-edge values — signed in and not: never a 5xx, never a stack trace, always the
 * Fault envelope when refused. `npm run fuzz` runs it longer (FUZZ_RUNS).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);

let t: TestApp;
let token: string;
let routes: { method: string; url: string }[];

beforeAll(async () => {
  t = await createTestApp();
  token = await signUpVerified(t, 'fuzz@example.com');
  const doc = (await t.app.inject('/api/docs')).json() as { paths: Record<string, Record<string, unknown>> };
  routes = Object.entries(doc.paths).flatMap(([url, methods]) =>
    Object.keys(methods).map((method) => ({ method: method.toUpperCase(), url: url.replace(/\{[^}]+\}/g, 'x') })),
  );
});
afterAll(() => t.close());

const unicodeEdges = fc.constantFrom(
  '\u0000',
  '\uD800',
  '\uFFFF',
  '𝄞🎧',
  'e\u0301',
  '\u202Eevil',
  "'; drop table users; --",
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  'a'.repeat(70_000),
);
/** Deeply nested JSON, written as text (serialising it would overflow the generator's stack). */
const deep = fc
  .tuple(fc.integer({ min: 50, max: 20_000 }), fc.boolean())
  .map(([depth, arrays]) =>
    arrays ? `${'['.repeat(depth)}1${']'.repeat(depth)}` : `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`,
  );
const wrongTyped = fc.record(
  {
    email: fc.oneof(fc.integer(), fc.boolean(), fc.array(fc.string()), unicodeEdges, fc.constant(null)),
    password: fc.oneof(fc.integer(), fc.object(), unicodeEdges),
    token: fc.oneof(fc.string(), unicodeEdges, fc.integer()),
    page: fc.oneof(fc.integer(), fc.double(), fc.string(), fc.constant(-1)),
    seconds: fc.oneof(fc.double(), fc.string(), fc.constant(1e308)),
    requestId: fc.oneof(fc.string(), unicodeEdges),
    key: fc.oneof(fc.string(), unicodeEdges),
    newEmail: fc.oneof(fc.string(), unicodeEdges),
  },
  { requiredKeys: [] },
);
const body = fc.oneof(
  fc.json().map((json) => json),
  fc.jsonValue().map((value) => JSON.stringify(value)),
  wrongTyped.map((value) => JSON.stringify(value)),
  deep,
  unicodeEdges.map((value) => JSON.stringify({ email: value, password: value, token: value })),
  fc.string(),
);

function assertWellFormed(res: { statusCode: number; body: string }, label: string): void {
  expect(res.statusCode, label).toBeLessThan(500);
  expect(res.body, label).not.toMatch(/\bat [\w.<>]+ \(|node:internal|\.ts:\d+:\d+/);
  const parsed = JSON.parse(res.body) as { Success?: unknown; Fault?: { ExceptionName?: unknown } };
  expect(typeof parsed.Success, label).toBe('boolean');
  if (parsed.Success === false) expect(typeof parsed.Fault?.ExceptionName, label).toBe('string');
}

describe('fuzzing every endpoint', () => {
  it('finds the endpoints', () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it('answers generated bodies with the envelope and never a 5xx', async () => {
    for (const route of routes) {
      if (route.url.startsWith('/api/docs')) continue;
      await fc.assert(
        fc.asyncProperty(body, fc.constantFrom('none', 'session', 'operator'), async (payload, auth) => {
          const res = await t.app.inject({
            method: route.method as 'GET' | 'POST',
            url: route.url,
            headers: {
              'content-type': 'application/json',
              ...(auth === 'session' ? { authtoken: token } : {}),
              ...(auth === 'operator' ? { authorization: `Bearer ${ADMIN_TOKEN}` } : {}),
            },
            ...(route.method === 'GET' ? {} : { payload }),
          });
          assertWellFormed(res, `${route.method} ${route.url}`);
        }),
        { numRuns: RUNS, seed: 424242 },
      );
    }
  });
});
