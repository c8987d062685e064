import { CUSTOMER_SEARCH_LIMIT, type CustomerSearchHit } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { devices, licences } from '../../db/licences-schema';
import { auditEntries } from '../../db/operators-schema';
import { checkoutSessions } from '../../db/payments-schema';
import { users } from '../../db/schema';
import { storefrontOrders } from '../../db/storefront-schema';
import { addDays } from '../../lib/clock';
import { findUserByEmail } from '../accounts/users-repo';
import { activate, issueKey, ownKey } from '../licences/test-helpers';

/**
 * The operators' customer search (docs/api.md, Operators): each kind finds its customer and no
 * other, in any case where the kind allows it; a key shows by its last group only; at most
 * CUSTOMER_SEARCH_LIMIT customers with More; support and finance may search, admin is refused
 * and the refusal audited.
 */
let t: TestApp;
let support: string;
const PRODUCT = 'SoundIDReference';
const ALICE = 'alice.search@example.com';
const ALICIA = 'alicia@example.com';
const BOB = 'bob.search@example.com';
const CAROL = 'carol-rig@example.com';
let aliceKey = '';
let bobKey = '';
const ids: Record<string, string> = {};

beforeAll(async () => {
  t = await createTestApp();
  support = await t.operatorToken(['support']);
  const { db } = t.database;
  const alice = await signUpVerified(t, ALICE);
  aliceKey = await ownKey(t, alice, 'sid-reference');
  await activate(t, alice, PRODUCT, 'mac-alice-001', 'Studio Mac');
  const bob = await signUpVerified(t, BOB);
  bobKey = await ownKey(t, bob, 'sid-reference');
  await activate(t, bob, PRODUCT, 'mac-bob-001', 'Studio Macintosh');
  await signUpVerified(t, ALICIA);
  const carol = await signUpVerified(t, CAROL);
  await ownKey(t, carol, 'sid-reference');
  await activate(t, carol, PRODUCT, 'carol-machine', 'carol-rig');
  for (const email of [ALICE, ALICIA, BOB, CAROL]) ids[email] = (await findUserByEmail(db, email))?.id ?? '';

  const now = t.clock.now();
  // #1001 was granted to Alice's account; #1002 is unclaimed, bought with Bob's address.
  const order = { source: 'sandbox' as const, quantity: 1, financialStatus: 'paid', receivedAt: now };
  await db.insert(storefrontOrders).values([
    { ...order, orderId: '820982911946154508', name: '#1001', email: ALICE, userId: ids[ALICE], status: 'granted' },
    { ...order, orderId: '820982911946154509', name: '#1002', email: BOB, userId: null, status: 'unclaimed' },
  ]);
  const checkout = {
    priceId: 'price_1000',
    bundleTitle: '1000 tokens',
    tokenAmount: 1000,
    amountInCents: 999,
    currency: 'USD',
    provider: 'sandbox' as const,
    status: 'succeeded' as const,
    returnUrl: 'http://localhost:3000/voice-ai',
    createdAt: now,
    expiresAt: addDays(now, 1),
  };
  await db.insert(checkoutSessions).values([
    { ...checkout, invoiceTag: 'inv_BobPaid_1', userId: ids[BOB] ?? '', providerSessionId: 'cs_bob' },
    { ...checkout, invoiceTag: 'inv_CarolPaid_1', userId: ids[CAROL] ?? '', providerSessionId: 'cs_carol' },
  ]);
});
afterAll(() => t.close());

const search = (query: Record<string, string>, token = support) =>
  t.app.inject({
    url: `/api/admin/search-customers?${new URLSearchParams(query)}`,
    headers: { authorization: `Bearer ${token}` },
  });
const hits = async (query: Record<string, string>) => {
  const res = await search(query);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Result as { Customers: CustomerSearchHit[]; More: boolean };
};
const emailsOf = async (query: Record<string, string>) => (await hits(query)).Customers.map((c) => c.Email).sort();
const groups = (key: string) => key.split('-');

describe('AdminSearchCustomers, each kind (ASVS 8.2.1)', () => {
  it('email: a prefix, in any case; LIKE wildcards are taken literally', async () => {
    const found = await hits({ q: 'ALICE.S', by: 'email' });
    expect(found).toEqual({
      Customers: [
        {
          Id: ids[ALICE],
          Email: ALICE,
          Name: null,
          EmailVerified: true,
          CreatedAt: expect.any(String),
          MatchedBy: 'email',
          Matched: ALICE,
        },
      ],
      More: false,
    });
    expect(await emailsOf({ q: 'ali', by: 'email' })).toEqual([ALICE, ALICIA]);
    expect(await emailsOf({ q: 'a_ice', by: 'email' })).toEqual([]);
    expect(await emailsOf({ q: 'ali%', by: 'email' })).toEqual([]);
    expect(await emailsOf({ q: 'search@example.com', by: 'email' })).toEqual([]);
  });

  it('key: in full (hyphens or not, any case) or its last group; shown by its last group only (ASVS 14.2.6)', async () => {
    const last = groups(aliceKey).at(-1) as string;
    for (const q of [aliceKey, aliceKey.replace(/-/g, ''), aliceKey.toLowerCase(), last, last.toLowerCase()]) {
      const res = await search({ q, by: 'key' });
      expect(
        res.json().Result.Customers.map((c: CustomerSearchHit) => [c.Email, c.MatchedBy, c.Matched]),
        q,
      ).toEqual([[ALICE, 'key', last]]);
      for (const group of groups(aliceKey).slice(0, 3)) expect(res.body).not.toContain(group);
    }
    expect(await emailsOf({ q: groups(bobKey).at(-1) as string, by: 'key' })).toEqual([BOB]);
    // Another group than the last, a key nobody holds, a query of another length.
    expect(await emailsOf({ q: groups(aliceKey)[0] as string, by: 'key' })).toEqual([]);
    expect(await emailsOf({ q: (await issueKey(t, 'sid-reference')).slice(-6), by: 'key' })).toEqual([]);
    expect(await emailsOf({ q: 'ABCDEFG', by: 'key' })).toEqual([]);
  });

  it('device: a name in any case (exactly, not a part of it), or a machine id exactly', async () => {
    expect(await hits({ q: 'STUDIO MAC', by: 'device' })).toMatchObject({
      Customers: [{ Email: ALICE, MatchedBy: 'device', Matched: 'Studio Mac' }],
    });
    expect(await emailsOf({ q: 'studio macintosh', by: 'device' })).toEqual([BOB]);
    expect(await emailsOf({ q: 'Studio', by: 'device' })).toEqual([]);
    expect(await hits({ q: 'mac-bob-001', by: 'device' })).toMatchObject({
      Customers: [{ Email: BOB, Matched: 'mac-bob-001' }],
    });
    expect(await emailsOf({ q: 'MAC-BOB-001', by: 'device' })).toEqual([]);
    // A deactivated device still names its customer.
    await t.database.db
      .update(devices)
      .set({ deactivatedAt: t.clock.now(), deactivationCause: 'customer' })
      .where(eq(devices.machineId, 'mac-bob-001'));
    expect(await emailsOf({ q: 'mac-bob-001', by: 'device' })).toEqual([BOB]);
  });

  it('order: #1001 or 1001 (the account it was granted to, else its buyer’s account)', async () => {
    for (const q of ['#1001', '1001']) {
      expect(await hits({ q, by: 'order' })).toMatchObject({
        Customers: [{ Email: ALICE, MatchedBy: 'order', Matched: '#1001' }],
      });
    }
    expect(await emailsOf({ q: '#1002', by: 'order' })).toEqual([BOB]);
    expect(await emailsOf({ q: '820982911946154509', by: 'order' })).toEqual([BOB]);
    expect(await emailsOf({ q: '#1003', by: 'order' })).toEqual([]);
    expect(await emailsOf({ q: 'bob', by: 'order' })).toEqual([]);
  });

  it('invoice: the tag of a card payment, exactly', async () => {
    expect(await hits({ q: 'inv_BobPaid_1', by: 'invoice' })).toMatchObject({
      Customers: [{ Email: BOB, MatchedBy: 'invoice', Matched: 'inv_BobPaid_1' }],
    });
    expect(await emailsOf({ q: 'inv_CarolPaid_1', by: 'invoice' })).toEqual([CAROL]);
    expect(await emailsOf({ q: 'INV_BOBPAID_1', by: 'invoice' })).toEqual([]);
    expect(await emailsOf({ q: 'inv_BobPaid', by: 'invoice' })).toEqual([]);
  });

  it('without a kind: every kind, each customer once, under the first kind that found them', async () => {
    expect(await hits({ q: 'inv_BobPaid_1' })).toMatchObject({ Customers: [{ Email: BOB, MatchedBy: 'invoice' }] });
    expect(await hits({ q: groups(aliceKey).at(-1) as string })).toMatchObject({
      Customers: [{ Email: ALICE, MatchedBy: 'key' }],
    });
    expect(await hits({ q: '#1001' })).toMatchObject({ Customers: [{ Email: ALICE, MatchedBy: 'order' }] });
    // Carol's address starts with her device's name: found by both kinds, listed once.
    expect(await hits({ q: 'carol-rig' })).toEqual({
      Customers: [expect.objectContaining({ Email: CAROL, MatchedBy: 'email' })],
      More: false,
    });
    expect(await emailsOf({ q: 'nothing-like-this' })).toEqual([]);
  });

  it(`answers at most ${CUSTOMER_SEARCH_LIMIT} customers, with More when there are others`, async () => {
    const { db } = t.database;
    const many = async (prefix: string, count: number) => {
      const made = await db
        .insert(users)
        .values(Array.from({ length: count }, (_, i) => ({ email: `${prefix}-${i}@example.com` })))
        .returning({ id: users.id });
      return made.map((u) => u.id);
    };
    await many('exactly', CUSTOMER_SEARCH_LIMIT);
    expect(await hits({ q: 'exactly-', by: 'email' })).toMatchObject({ More: false });
    expect((await hits({ q: 'exactly-', by: 'email' })).Customers).toHaveLength(CUSTOMER_SEARCH_LIMIT);
    await many('crowd', CUSTOMER_SEARCH_LIMIT + 1);
    const crowd = await hits({ q: 'CROWD', by: 'email' });
    expect([crowd.Customers.length, crowd.More]).toEqual([CUSTOMER_SEARCH_LIMIT, true]);
    expect(new Set(crowd.Customers.map((c) => c.Id)).size).toBe(CUSTOMER_SEARCH_LIMIT);
    // A device name shared by more customers than the limit, each with an active and an ended one.
    for (const userId of await many('sharer', CUSTOMER_SEARCH_LIMIT + 1)) {
      const [licence] = await db.insert(licences).values({ userId, productCode: 'sid-reference' }).returning();
      await db.insert(devices).values(
        [1, 2].map((n) => ({
          licenceId: licence?.id ?? '',
          userId,
          machineId: `shared-${userId}-${n}`,
          name: n === 1 ? 'Shared Rig' : 'SHARED RIG',
          activatedAt: t.clock.now(),
          ...(n === 2 ? { deactivatedAt: t.clock.now(), deactivationCause: 'customer' as const } : {}),
        })),
      );
    }
    const shared = await hits({ q: 'shared rig', by: 'device' });
    expect([shared.Customers.length, shared.More]).toEqual([CUSTOMER_SEARCH_LIMIT, true]);
    expect(new Set(shared.Customers.map((c) => c.Id)).size).toBe(CUSTOMER_SEARCH_LIMIT);
  });

  it('takes 3 to 320 characters and a known kind', async () => {
    expect(faultOf(await search({ q: 'ab' }))).toBe('RequestInvalid');
    expect(faultOf(await search({ q: 'alice', by: 'phone' }))).toBe('RequestInvalid');
    expect(faultOf(await search({ q: 'a'.repeat(321) }))).toBe('RequestInvalid');
  });
});

describe('AdminSearchCustomers, who may search (ASVS 8.2.1, 16.2.1)', () => {
  it('admits support and finance, refuses admin with 403 and audits the refusal, unaudited when admitted', async () => {
    const finance = await t.operatorToken(['finance']);
    expect((await search({ q: 'alice' }, finance)).statusCode).toBe(200);
    const lastAudit = async () =>
      (await t.database.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1))[0];
    const before = (await lastAudit())?.seq;
    expect((await search({ q: 'alice' })).statusCode).toBe(200);
    expect((await lastAudit())?.seq).toBe(before);

    const refused = await search({ q: 'alice' }, await t.operatorToken(['admin']));
    expect([refused.statusCode, faultOf(refused)]).toEqual([403, 'OperatorForbidden']);
    expect(await lastAudit()).toMatchObject({ action: 'AdminSearchCustomers', outcome: 'denied', roles: ['admin'] });
    const anonymous = await t.app.inject({ url: '/api/admin/search-customers?q=alice' });
    expect(anonymous.statusCode).toBe(401);
  });
});
