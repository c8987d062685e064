import { maskLicenseKey } from '@soundid/contracts';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adminCall, issueKey, issueUpgradeCode, ownKey } from '../../src/features/licences/test-helpers';
import { freshSession, signUpVerified } from '../accounts-flow';
import { createTestApp, type TestApp } from '../kit/test-app';
import { type ApiRoute, assertWellFormed, discoverRoutes, fillPath, routeLabel } from './api-routes';
import { arbitraryFromJsonSchema, type JsonSchema, type Samples } from './json-schema-arbitrary';

/**
 * Every endpoint gets generated bodies — random JSON, huge, deeply nested, wrong-typed and
 * unicode-edge values, and bodies of the route's own schema whole or with one field broken —
 * signed in and not: never a 5xx, never a stack trace, always the Fault envelope when refused.
 * `npm run fuzz` runs it longer (FUZZ_RUNS).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 25);
/** Well-shaped bodies do real work (hashing, mails): fewer of them in the bounded run. */
const SHAPED_RUNS = Number(process.env.FUZZ_RUNS ?? 10);
const EMAIL = 'fuzz@example.com';

let t: TestApp;
let routes: ApiRoute[];
/** An operator with every role (the fuzzed operator calls may sign it out: still no 5xx). */
let operatorToken = '';
/** Real values of the domain the schemas cannot describe: keys, codes, serials, checkout ids. */
let samples: Samples;

beforeAll(async () => {
  t = await createTestApp();
  const token = await signUpVerified(t, EMAIL);
  routes = (await discoverRoutes(t.app)).filter((route) => !route.template.startsWith('/api/docs'));
  // Every role: the fuzzed operator calls pass the gate and reach their schemas (ADR 0044).
  operatorToken = await t.operatorToken();
  const owned = await ownKey(t, token, 'ref4-studio');
  await adminCall(t, '/api/admin/add-serials', { serials: ['FUZZSERIAL001', 'FUZZSERIAL002'] });
  const checkout = (
    await t.call('/api/voiceai/PrepareTokenPurchaseCheckout', { priceId: 'price_sandbox_tokens_1000' }, token)
  ).json().Result;
  const keys = [owned, maskLicenseKey(owned), await issueKey(t, 'sid-reference')];
  samples = {
    key: keys,
    upgradeCode: [await issueUpgradeCode(t, 'sid-reference', ['ref4-studio'])],
    serial: ['FUZZSERIAL001'],
    priceId: ['price_sandbox_tokens_1000'],
    invoiceTag: [checkout.InvoiceTag],
    clientSecret: [checkout.CheckoutSession],
    // Second-factor codes (ADR 0037): six digits, or a recovery code as shown.
    code: ['123456', 'abcdef-ghijkl-mnopqr-stuvwx'],
  };
});
afterAll(() => t.close());

const authHeaders = (auth: 'none' | 'session' | 'operator', token: string): Record<string, string> => ({
  ...(auth === 'session' ? { authtoken: token } : {}),
  ...(auth === 'operator' ? { authorization: `Bearer ${operatorToken}` } : {}),
});
const auths = fc.constantFrom('none' as const, 'session' as const, 'operator' as const);

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

/** A path parameter or query value: of its schema, or anything. */
const paramValue = (name: string, schema: JsonSchema) =>
  fc.oneof(arbitraryFromJsonSchema(schema, { samples, field: name }).map(String), fc.string(), unicodeEdges);

function urlArbitrary(route: ApiRoute): fc.Arbitrary<string> {
  const path = fc.record(Object.fromEntries(route.pathParams.map((p) => [p.name, paramValue(p.name, p.schema)])));
  const query = fc.record(Object.fromEntries(route.queryParams.map((p) => [p.name, paramValue(p.name, p.schema)])), {
    requiredKeys: [],
  });
  return fc.tuple(path, query).map(([values, search]) => {
    const qs = new URLSearchParams(search as Record<string, string>).toString();
    return `${fillPath(route.template, values as Record<string, string>)}${qs ? `?${qs}` : ''}`;
  });
}

/** Values that break a field of an otherwise well-shaped body. */
const hostile = fc.oneof(
  unicodeEdges,
  fc.integer(),
  fc.double(),
  fc.boolean(),
  fc.constant(null),
  fc.array(fc.jsonValue(), { maxLength: 5 }),
  fc.dictionary(fc.string(), fc.jsonValue(), { maxKeys: 5 }),
  fc.integer({ min: 50, max: 1000 }).map((depth) => JSON.parse(`${'['.repeat(depth)}${']'.repeat(depth)}`)),
);

/** One field replaced by a hostile value, a required field dropped, or an unknown field added. */
function broken(body: unknown, index: number, value: unknown, how: 'replace' | 'drop' | 'add'): unknown {
  if (!body || typeof body !== 'object' || Array.isArray(body)) return value;
  const keys = Object.keys(body);
  if (how === 'add') return { ...body, [`unexpected${index}`]: value };
  const key = keys[index % Math.max(keys.length, 1)];
  if (key === undefined) return value;
  if (how === 'drop') return Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
  return { ...body, [key]: value };
}

// The long run (`npm run fuzz`) needs time in proportion.
describe('fuzzing every endpoint', { timeout: 30_000 + RUNS * 2_000 }, () => {
  it('finds the endpoints', () => {
    expect(routes.length).toBeGreaterThan(20);
  });

  it('answers generated bodies with the envelope and never a 5xx', async () => {
    for (const route of routes) {
      // A fresh session for each route: a generated Logout or EndOtherSessions may end the last one.
      const token = await freshSession(t, EMAIL);
      await fc.assert(
        fc.asyncProperty(body, auths, urlArbitrary(route), async (payload, auth, url) => {
          const res = await t.app.inject({
            method: route.method,
            url,
            headers: { 'content-type': 'application/json', ...authHeaders(auth, token) },
            ...(route.method === 'GET' ? {} : { payload }),
          });
          assertWellFormed(res, routeLabel(route));
        }),
        { numRuns: RUNS, seed: 424242 },
      );
    }
  });

  it("answers bodies of each route's own schema, whole or with one field broken, with the envelope", async () => {
    const withBodies = routes.filter((route) => route.body);
    expect(withBodies.length).toBeGreaterThan(20);
    for (const route of withBodies) {
      // A fresh session for each route: a generated Logout or EndOtherSessions may end the last one.
      const token = await freshSession(t, EMAIL);
      const shaped = arbitraryFromJsonSchema(route.body ?? {}, { samples });
      const variant = fc.oneof(
        shaped.map((value) => ({ value, isWhole: true })),
        fc
          .tuple(shaped, fc.nat(), hostile, fc.constantFrom('replace' as const, 'drop' as const, 'add' as const))
          .map(([value, index, bad, how]) => ({ value: broken(value, index, bad, how), isWhole: false })),
      );
      let accepted = 0;
      await fc.assert(
        fc.asyncProperty(variant, auths, urlArbitrary(route), async ({ value, isWhole }, auth, url) => {
          const res = await t.app.inject({
            method: route.method,
            url,
            headers: { 'content-type': 'application/json', ...authHeaders(auth, token) },
            payload: JSON.stringify(value),
          });
          assertWellFormed(res, routeLabel(route));
          if (isWhole && !isSchemaRefusal(res)) accepted += 1;
        }),
        { numRuns: SHAPED_RUNS, seed: 4_2026 },
      );
      // The generator really makes bodies of the route's shape: the schema lets some through.
      expect(
        accepted,
        `${routeLabel(route)}: no generated body passed its schema (add a sample value?)`,
      ).toBeGreaterThan(0);
    }
  });
});

/** A 400 from request validation (as opposed to a rule of the call refusing a valid body). */
function isSchemaRefusal(res: { statusCode: number; json(): unknown }): boolean {
  const fault = (res.json() as { Fault?: { ExceptionName?: string; ExceptionVariables?: unknown[] } }).Fault;
  return res.statusCode === 400 && fault?.ExceptionName === 'RequestInvalid';
}
