import { eq, sql } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { users } from '../../src/db/schema';
import { activate, adminCall, licenceList, ownKey } from '../../src/features/licences/test-helpers';
import { freshSession, signUpVerified } from '../accounts-flow';
import { createTestApp, type TestApp } from '../kit/test-app';
import { type ApiRoute, assertWellFormed, discoverRoutes, fillPath, routeLabel } from './api-routes';
import { arbitraryFromJsonSchema, type JsonSchema } from './json-schema-arbitrary';

/**
 * Customer A calls every endpoint and every action URL with customer B's ids (ASVS 8.2.2):
 * device ids, licence key ids and keys, asset packs, invoice tags, session ids, machine and
 * request ids, the ids of B's entries of My activity, taken from B's licence list, B's checkouts and B's sessions. A never sees B's
 * data (no answer carries one of B's ids, names or address unless A sent it), and B's rows are
 * the same afterwards, row for row in every table that has an owner.
 *
 * Routes come from /api/docs and B's action URLs, so endpoints added later are covered too.
 * Left out: the dev mailbox (open by design outside production) and addresses in the id pool
 * (sign-in, sign-up and reset by address are public calls; see the enumeration tests).
 */
const RUNS = Number(process.env.FUZZ_RUNS ?? 4);
const A = 'alice.cross@example.com';
const B = 'bob.cross@example.com';
const B_DEVICE_NAMES = ['Bob secret studio', 'Bob secret laptop', 'Bob secret voice rig'];

let t: TestApp;
let tokenB: string;
let userIdB: string;
/** What A tries: B's ids. */
let idsOfB: string[];
/** What must never reach A: B's ids, device names and address. */
let markersOfB: string[];
let actionUrlsOfB: string[];
let routes: ApiRoute[];
let before: unknown;

beforeAll(async () => {
  t = await createTestApp();
  const tokenA = await signUpVerified(t, A);
  await ownKey(t, tokenA, 'sid-reference');
  await activate(t, tokenA, 'SoundIDReference', 'alice-machine-1', 'Alice studio');

  tokenB = await signUpVerified(t, B);
  const keysOfB = [
    await ownKey(t, tokenB, 'sid-reference'),
    await ownKey(t, tokenB, 'voice-ai'),
    await ownKey(t, tokenB, 'voice-pack-pop'),
  ];
  const machinesOfB = ['bob-machine-studio', 'bob-machine-laptop', 'bob-machine-voice'];
  await activate(t, tokenB, 'SoundIDReference', machinesOfB[0] as string, B_DEVICE_NAMES[0]);
  await activate(t, tokenB, 'SoundIDReference', machinesOfB[1] as string, B_DEVICE_NAMES[1]);
  await activate(t, tokenB, 'SoundIDVoiceAI', machinesOfB[2] as string, B_DEVICE_NAMES[2]);
  await adminCall(t, '/api/admin/grant-tokens', { email: B, amount: 1000 });
  await t.call('/api/apps/ConsumeTokens', { seconds: 9, requestId: 'bob-request-1' }, tokenB);
  const invoiceTags: string[] = [];
  for (const pay of [true, false]) {
    const prepared = (
      await t.call('/api/voiceai/PrepareTokenPurchaseCheckout', { priceId: 'price_sandbox_tokens_1000' }, tokenB)
    ).json().Result;
    invoiceTags.push(prepared.InvoiceTag);
    if (pay) {
      const paid = await t.call('/api/sandbox/checkout/pay', {
        clientSecret: prepared.CheckoutSession,
        cardNumber: '4242424242424242',
        expiry: '12/34',
        cvc: '123',
      });
      expect(paid.statusCode).toBe(200);
    }
  }

  const [row] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, B));
  userIdB = row?.id as string;
  const list = await licenceList(t, tokenB);
  actionUrlsOfB = stringsIn(list).filter((value) => value.startsWith('/api/actions/'));
  const uuids = [...new Set(stringsIn(list).flatMap((value) => value.match(UUID) ?? []))];
  const maskedKeys = stringsIn(list).filter((value) => /^\*{6}-\*{6}-\*{6}-[A-Z0-9]{6}$/.test(value));
  const sessionIds = (await t.call('/api/accounts/GetSessions', {}, tokenB))
    .json()
    .Result.map((s: { Id: string }) => s.Id);
  // B's entries of My activity (ADR 0055): small sequence numbers, so tried as ids but no marker.
  const entryIdsOfB = (await t.call('/api/accounts/GetMyActivity', { page: 1 }, tokenB))
    .json()
    .Result.PageItems.map((entry: { Id: string }) => entry.Id);
  expect(entryIdsOfB.length).toBeGreaterThanOrEqual(5);
  idsOfB = [
    ...uuids,
    ...keysOfB,
    ...maskedKeys,
    ...invoiceTags,
    ...sessionIds,
    ...machinesOfB,
    'bob-request-1',
    userIdB,
  ];
  markersOfB = [...idsOfB, ...B_DEVICE_NAMES, B];
  idsOfB.push(...entryIdsOfB);
  expect(actionUrlsOfB.length).toBeGreaterThanOrEqual(6);
  expect(uuids.length).toBeGreaterThanOrEqual(6);

  routes = (await discoverRoutes(t.app)).filter(
    (route) => !route.template.startsWith('/api/docs') && !route.template.startsWith('/api/dev/'),
  );
  before = await stateOfB();
}, 120_000);
afterAll(() => t.close());

const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g;

/** Status and fault name: what tells "found" from "not found" to a caller. */
function outcomeOf(res: { statusCode: number; json(): unknown }): string {
  const fault = (res.json() as { Fault?: { ExceptionName?: string } }).Fault;
  return `${res.statusCode} ${fault?.ExceptionName ?? 'Success'}`;
}

const OTHER_DIGITS = '0189';

/**
 * An id of the same shape that belongs to no one: every digit and letter moved within its own
 * class (hex letters within a-f), so that it passes the same validation as the original.
 */
function twinOf(id: string, seed: number): string {
  const isUuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/.test(id);
  const shift = (c: string, from: string, size: number, i: number) =>
    String.fromCharCode(
      from.charCodeAt(0) + ((c.charCodeAt(0) - from.charCodeAt(0) + 1 + ((seed + i) % (size - 1))) % size),
    );
  return [...id]
    .map((c, i) => {
      // A UUID keeps its version and variant digits.
      if (isUuid && (i === 14 || i === 19)) return c;
      // Digits 2-7 stay within 2-7 and 0, 1, 8, 9 among themselves, so an id keeps its shape
      // in base32 (a recovery code's alphabet) as well as in decimal.
      if (/[2-7]/.test(c)) return shift(c, '2', 6, i);
      if (/[0189]/.test(c)) return OTHER_DIGITS[(OTHER_DIGITS.indexOf(c) + 1 + ((seed + i) % 3)) % 4];
      if (isUuid && /[a-f]/.test(c)) return shift(c, 'a', 6, i);
      if (/[a-z]/.test(c)) return shift(c, 'a', 26, i);
      if (/[A-Z]/.test(c)) return shift(c, 'A', 26, i);
      return c;
    })
    .join('');
}

/** Top-level body fields that take a string (where an id can go). */
function stringFields(schema: JsonSchema): string[] {
  const isString = (field: JsonSchema): boolean =>
    field.type === 'string' || Boolean((field.anyOf ?? field.oneOf)?.some(isString));
  return Object.entries(schema.properties ?? {})
    .filter(([, field]) => isString(field) && !field.enum)
    .map(([name]) => name);
}

function stringsIn(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (Array.isArray(value)) return value.flatMap(stringsIn);
  if (value && typeof value === 'object') return Object.values(value).flatMap(stringsIn);
  return [];
}

/**
 * B's rows in every table with an owner column, and what B's own calls answer. Tables are
 * found in the catalogue, so a table added later is compared too.
 */
async function stateOfB(): Promise<unknown> {
  const db = t.database.db;
  const query = async <T>(statement: ReturnType<typeof sql>) =>
    ((await db.execute(statement)) as unknown as { rows: T[] }).rows;
  const owned = await query<{ table_name: string }>(
    sql`select table_name from information_schema.columns
        where table_schema = 'public' and column_name = 'user_id' order by table_name`,
  );
  const rows: Record<string, unknown> = {};
  for (const { table_name } of owned) {
    rows[table_name] = await query(
      sql`select to_jsonb(r)::text as row from ${sql.identifier(table_name)} r where r.user_id = ${userIdB} order by 1`,
    );
  }
  const account = await query(sql`select to_jsonb(u)::text as row from users u where u.id = ${userIdB}`);
  const answers: Record<string, unknown> = {};
  for (const [call, body] of [
    ['/api/licenses/GetAccountLicensesByProductLine', {}],
    ['/api/voiceai/GetPurchaseHistory', { page: 1 }],
    ['/api/voiceai/GetActionHistory', { page: 1 }],
    ['/api/accounts/GetOrUpdateProfile', {}],
    ['/api/accounts/GetSessions', {}],
  ] as const) {
    answers[call] = (await t.call(call, body, tokenB)).json();
  }
  return { rows, account, answers };
}

/**
 * What A has sent so far: an id A typed into its own data (an address line, a device name) may
 * come back in A's own answers later. B's names and address are never sent, so always checked.
 */
const sentByA = new Set<string>();

/** Well-formed, and nothing of B's that A did not send itself. */
function assertNothingOfB(res: { statusCode: number; body: string }, sent: string, label: string): void {
  assertWellFormed(res, label);
  for (const marker of markersOfB) if (sent.includes(marker)) sentByA.add(marker);
  for (const marker of markersOfB) {
    if (!sentByA.has(marker)) expect(res.body, `${label} answered with B's ${marker}`).not.toContain(marker);
  }
}

// The long run (`npm run fuzz`) needs time in proportion.
describe("another customer's ids (ASVS 8.2.2)", { timeout: 30_000 + RUNS * 10_000 }, () => {
  it("B's action URLs called by A: refused for B's ids, nothing of B's in the answer", async () => {
    const tokenA = await freshSession(t, A);
    for (const url of actionUrlsOfB) {
      for (const headers of [
        { authtoken: tokenA },
        { cookie: `soundid_session=${tokenA}`, software: 'MySoundID-Web/1.0' },
      ]) {
        const res = await t.app.inject({ method: 'GET', url, headers });
        assertNothingOfB(res, url, `GET ${url}`);
        if (url.match(UUID)) expect(res.json().Success, `GET ${url}`).toBe(false);
      }
    }
  });

  it("every route with a path parameter, given B's ids: nothing of B's in the answer", async () => {
    const tokenA = await freshSession(t, A);
    for (const route of routes.filter((r) => r.pathParams.length > 0)) {
      for (const id of idsOfB) {
        const url = fillPath(route.template, Object.fromEntries(route.pathParams.map((p) => [p.name, id])));
        const res = await t.app.inject({ method: route.method, url, headers: { authtoken: tokenA } });
        assertNothingOfB(res, url, routeLabel(route));
        expect(res.json().Success, `${routeLabel(route)} with ${id}`).toBe(false);
      }
    }
  });

  it("every route with a body: B's id in a field answers as an unknown id of its shape would", async () => {
    const withBodies = routes.filter((route) => route.body);
    expect(withBodies.length).toBeGreaterThan(20);
    for (const [index, route] of withBodies.entries()) {
      const fields = stringFields(route.body ?? {});
      if (fields.length === 0) continue;
      // A fresh session for each route: a generated Logout may end the last one.
      const tokenA = await freshSession(t, A);
      const bodies = arbitraryFromJsonSchema(route.body ?? {}, { samples: { '*': idsOfB } });
      await fc.assert(
        fc.asyncProperty(
          bodies,
          fc.constantFrom(...fields),
          fc.constantFrom(...idsOfB),
          fc.nat(),
          async (base, field, id, seed) => {
            const call = async (value: string) => {
              const payload = JSON.stringify({ ...(base as object), [field]: value });
              const res = await t.app.inject({
                method: route.method,
                url: route.template,
                headers: { 'content-type': 'application/json', authtoken: tokenA },
                payload,
              });
              assertNothingOfB(res, payload, routeLabel(route));
              return res;
            };
            // Unknown twins before and after: whatever the call changed in A's own state (a seat
            // taken, a session ended), B's id answers like one of them.
            const unknownBefore = outcomeOf(await call(twinOf(id, seed)));
            const withIdOfB = outcomeOf(await call(id));
            const unknownAfter = outcomeOf(await call(twinOf(id, seed + 1)));
            // The one answer that differs by design: registering a key another account holds
            // names that account's masked address (spec: "Activation key already used").
            if (withIdOfB.endsWith('KeyOwnedByAnotherUser')) return;
            expect([unknownBefore, unknownAfter], `${routeLabel(route)} ${field}=${id}`).toContain(withIdOfB);
          },
        ),
        // Another seed for each route: routes of the same shape get different bodies.
        { numRuns: RUNS, seed: 8_2026 + index },
      );
    }
  });

  it("leaves every one of B's rows and answers as they were", async () => {
    expect(await stateOfB()).toEqual(before);
  });
});
