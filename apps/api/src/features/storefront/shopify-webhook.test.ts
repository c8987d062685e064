import { createHmac } from 'node:crypto';
import { maskLicenseKey } from '@soundid/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { deliverShopifyWebhook, newWebhookId, shopifyOrder } from '../../../test/storefront';
import { licenseKeys } from '../../db/licences-schema';
import { shopifyWebhookEvents, storefrontOrderKeys, storefrontOrders } from '../../db/storefront-schema';
import { deriveSandboxShopifyWebhookSecret } from '../../dev/shopify-sandbox/webhook-secret';
import { formatLicenseKey } from '../licences/codes';
import { licenceList } from '../licences/test-helpers';

/**
 * POST /api/webhooks/shopify: only deliveries signed with the webhook secret count; each
 * delivery applies once, each order grants once, whatever arrives how often and when.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL (real concurrent transactions).
 */
const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
const SECRET = deriveSandboxShopifyWebhookSecret(SESSION_SECRET);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET });
});
afterAll(() => t.close());

const db = () => t.database.db;
const deliver = (body: object | string, options: { topic?: string; webhookId?: string; hmac?: string | null } = {}) =>
  deliverShopifyWebhook(t.app, { body, secret: SECRET, ...options });

async function customer(email: string) {
  const token = await signUpVerified(t, email);
  const me = await t.call('/api/accounts/LoginByToken', {}, token);
  return { token, userId: me.json().Result.User.Id as string };
}
const keysOf = (userId: string) => db().select().from(licenseKeys).where(eq(licenseKeys.userId, userId));
const orderRow = async (orderId: number) =>
  (
    await db()
      .select()
      .from(storefrontOrders)
      .where(eq(storefrontOrders.orderId, String(orderId)))
  )[0];
const keysOfOrder = (orderId: number) =>
  db()
    .select({ key: licenseKeys.key, userId: licenseKeys.userId, source: licenseKeys.source })
    .from(storefrontOrderKeys)
    .innerJoin(licenseKeys, eq(licenseKeys.id, storefrontOrderKeys.licenseKeyId))
    .where(eq(storefrontOrderKeys.orderId, String(orderId)));
const eventCount = async () => (await db().select().from(shopifyWebhookEvents)).length;

describe('signature (X-Shopify-Hmac-Sha256)', () => {
  it('refuses forged, wrong-secret, tampered and missing signatures with a 400 Fault, and changes nothing', async () => {
    const buyer = await customer('hmac@example.com');
    const order = shopifyOrder({ email: 'hmac@example.com' });
    const body = JSON.stringify(order);
    const eventsBefore = await eventCount();
    const wrongSecret = createHmac('sha256', 'shpss_not-the-secret').update(body).digest('base64');
    const tampered = JSON.stringify({ ...order, line_items: [{ ...order.line_items[0], quantity: 50 }] });
    const attempts = [
      { label: 'forged', payload: body, hmac: Buffer.alloc(32, 7).toString('base64') },
      { label: 'wrong secret', payload: body, hmac: wrongSecret },
      { label: 'tampered body', payload: tampered, hmac: createHmac('sha256', SECRET).update(body).digest('base64') },
      { label: 'hex instead of base64', payload: body, hmac: createHmac('sha256', SECRET).update(body).digest('hex') },
      { label: 'missing', payload: body, hmac: null },
      { label: 'empty', payload: body, hmac: '' },
    ];
    for (const attempt of attempts) {
      const res = await deliver(attempt.payload, { hmac: attempt.hmac });
      expect(res.statusCode, attempt.label).toBe(400);
      expect(faultOf(res), attempt.label).toBe('WebhookSignatureInvalid');
    }
    expect(await eventCount()).toBe(eventsBefore);
    expect(await orderRow(order.id)).toBeUndefined();
    expect(await keysOf(buyer.userId)).toEqual([]);

    // The same body, signed with the secret, grants.
    const good = await deliver(body);
    expect(good.statusCode).toBe(200);
    expect(good.json().Result).toMatchObject({ Duplicate: false, Outcome: 'granted' });
    expect(await keysOf(buyer.userId)).toHaveLength(1);
  });

  it('a signed delivery without X-Shopify-Webhook-Id is refused', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/webhooks/shopify',
      payload: '{"id":1,"line_items":[]}',
      headers: {
        'content-type': 'application/json',
        'x-shopify-topic': 'orders/paid',
        'x-shopify-hmac-sha256': createHmac('sha256', SECRET).update('{"id":1,"line_items":[]}').digest('base64'),
      },
    });
    expect(res.statusCode).toBe(400);
    expect(faultOf(res)).toBe('StorefrontWebhookIdMissing');
  });

  it('garbage never gets a 5xx', async () => {
    for (const payload of ['', 'not json', '[]', '{"a":'.repeat(5000)]) {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/webhooks/shopify',
        payload,
        headers: { 'content-type': 'application/json' },
      });
      expect(res.statusCode, payload.slice(0, 20)).toBe(400);
      expect(res.json().Success).toBe(false);
    }
  });
});

describe('exactly once', () => {
  it('one delivery delivered 10 times at once, then replayed 10 times, grants one key', async () => {
    const buyer = await customer('burst@example.com');
    const order = shopifyOrder({ email: 'burst@example.com' });
    const webhookId = newWebhookId();
    const burst = await Promise.all(Array.from({ length: 10 }, () => deliver(order, { webhookId })));
    for (const res of burst) expect(res.statusCode).toBe(200);
    const results = burst.map((res) => res.json().Result);
    expect(results.filter((r) => !r.Duplicate)).toEqual([
      { WebhookId: webhookId, Duplicate: false, Outcome: 'granted' },
    ]);
    expect(results.filter((r) => r.Duplicate)).toHaveLength(9);
    for (let i = 0; i < 10; i++) {
      expect((await deliver(order, { webhookId })).json().Result).toEqual({
        WebhookId: webhookId,
        Duplicate: true,
        Outcome: 'granted',
      });
    }
    expect(await keysOf(buyer.userId)).toHaveLength(1);
    const [event] = await db().select().from(shopifyWebhookEvents).where(eq(shopifyWebhookEvents.webhookId, webhookId));
    expect(event).toMatchObject({ outcome: 'granted', orderId: String(order.id), attempts: 1 });
  });

  it('10 different deliveries about one order at once (orders/create, orders/paid, orders/updated) grant once', async () => {
    const buyer = await customer('many-deliveries@example.com');
    const order = shopifyOrder({ email: 'many-deliveries@example.com' });
    const topics = ['orders/create', 'orders/paid', 'orders/updated'];
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) => deliver(order, { topic: topics[i % 3] as string })),
    );
    const outcomes = results.map((res) => res.json().Result.Outcome);
    expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'ignored')).toHaveLength(9);
    expect(await keysOf(buyer.userId)).toHaveLength(1);
    expect(await keysOfOrder(order.id)).toHaveLength(1);
  });

  it('a pending order is recorded, and granted when its payment arrives', async () => {
    const buyer = await customer('pending@example.com');
    const pending = shopifyOrder({ email: 'pending@example.com', financialStatus: 'pending' });
    const created = await deliver(pending, { topic: 'orders/create' });
    expect(created.json().Result.Outcome).toBe('recorded');
    expect(await orderRow(pending.id)).toMatchObject({ status: 'pending', financialStatus: 'pending' });
    expect(await keysOf(buyer.userId)).toEqual([]);

    const paid = await deliver({ ...pending, financial_status: 'paid' }, { topic: 'orders/paid' });
    expect(paid.json().Result.Outcome).toBe('granted');
    expect(await orderRow(pending.id)).toMatchObject({ status: 'granted', financialStatus: 'paid' });
    expect(await keysOf(buyer.userId)).toHaveLength(1);
  });

  it('an order already recorded as pending, then paid by 10 deliveries at once, grants once (the order row lock)', async () => {
    const buyer = await customer('pending-burst@example.com');
    const pending = shopifyOrder({ email: 'pending-burst@example.com', financialStatus: 'pending' });
    await deliver(pending, { topic: 'orders/create' });
    const paid = { ...pending, financial_status: 'paid' };
    const results = await Promise.all(Array.from({ length: 10 }, () => deliver(paid, { topic: 'orders/paid' })));
    const outcomes = results.map((res) => res.json().Result.Outcome);
    expect(outcomes.filter((o) => o === 'granted')).toHaveLength(1);
    expect(await keysOf(buyer.userId)).toHaveLength(1);
  });

  it('a delivery whose handling failed is recorded as an error, and the retry grants', async () => {
    const buyer = await customer('retry@example.com');
    const order = shopifyOrder({ email: 'retry@example.com' });
    const webhookId = newWebhookId();
    // Every new key is refused for a moment: the grant fails inside the delivery's transaction.
    await db().execute(sql`alter table license_keys add constraint refuse_new_keys check (key = 'x') not valid`);
    try {
      const failed = await deliver(order, { webhookId });
      expect(failed.statusCode).toBe(503);
      expect(failed.json().Success).toBe(false);
    } finally {
      await db().execute(sql`alter table license_keys drop constraint refuse_new_keys`);
    }
    const [recorded] = await db()
      .select()
      .from(shopifyWebhookEvents)
      .where(eq(shopifyWebhookEvents.webhookId, webhookId));
    expect(recorded).toMatchObject({ outcome: 'error', failureReason: expect.any(String) });
    expect(await orderRow(order.id)).toBeUndefined();
    expect(await keysOf(buyer.userId)).toEqual([]);

    const retried = await deliver(order, { webhookId });
    expect(retried.json().Result).toEqual({ WebhookId: webhookId, Duplicate: false, Outcome: 'granted' });
    const [after] = await db().select().from(shopifyWebhookEvents).where(eq(shopifyWebhookEvents.webhookId, webhookId));
    expect(after).toMatchObject({ outcome: 'granted', attempts: 2, failureReason: null });
    expect(await keysOf(buyer.userId)).toHaveLength(1);
  });
});

describe('what an order grants', () => {
  it('the key shows in GetAccountLicensesByProductLine as the perpetual key; the order mail names it', async () => {
    const buyer = await customer('list@example.com');
    const order = shopifyOrder({ email: 'LIST@example.com ' });
    await deliver(order);
    const [key] = await keysOf(buyer.userId);
    expect(key).toMatchObject({ productCode: 'voice-ai', source: 'purchase' });
    const list = await licenceList(t, buyer.token);
    expect(list.VoiceAIProducts.LicenseStatus.OfflineLicenseKey).toBe(maskLicenseKey(key?.key as string));
    expect(list.VoiceAIProducts.LicenseStatus.TokenStatus).toBe('Perpetual mode: unlimited processing.');
    const [mail] = await t.mailsTo('list@example.com');
    expect(mail?.Text).toContain(formatLicenseKey(key?.key as string));
  });

  it('only the voice AI product counts: other line items are not licences, an order without it changes nothing', async () => {
    const buyer = await customer('mixed@example.com');
    const mixed = shopifyOrder({
      email: 'mixed@example.com',
      lines: [
        { productId: 1001, variantId: 2001, quantity: 2 },
        { productId: 777, variantId: 888, quantity: 5 },
      ],
    });
    await deliver(mixed);
    expect(await keysOf(buyer.userId)).toHaveLength(2);
    expect(await orderRow(mixed.id)).toMatchObject({ quantity: 2 });

    const other = shopifyOrder({
      email: 'mixed@example.com',
      lines: [{ productId: 777, variantId: 888, quantity: 1 }],
    });
    const res = await deliver(other);
    expect(res.json().Result.Outcome).toBe('ignored');
    expect(await orderRow(other.id)).toBeUndefined();
    expect(await keysOf(buyer.userId)).toHaveLength(2);
  });

  it('other topics and unreadable orders are acknowledged and ignored (Shopify stops retrying)', async () => {
    const refund = await deliver({ id: 5, order_id: 6 }, { topic: 'refunds/create' });
    expect(refund.statusCode).toBe(200);
    expect(refund.json().Result.Outcome).toBe('ignored');
    const unreadable = await deliver({ id: 'not-a-number', line_items: 'nope' }, { topic: 'orders/paid' });
    expect(unreadable.statusCode).toBe(200);
    expect(unreadable.json().Result.Outcome).toBe('ignored');
  });
});

describe('no account with the order e-mail', () => {
  it('issues the key unowned, records the order unclaimed and mails the key, which the buyer then registers', async () => {
    const order = shopifyOrder({ email: 'newcomer@example.com' });
    const res = await deliver(order);
    expect(res.json().Result.Outcome).toBe('granted');
    expect(await orderRow(order.id)).toMatchObject({
      status: 'unclaimed',
      userId: null,
      email: 'newcomer@example.com',
    });
    const [issued] = await keysOfOrder(order.id);
    expect(issued).toMatchObject({ userId: null, source: 'purchase' });

    const [mail] = await t.mailsTo('newcomer@example.com');
    expect(mail?.Subject).toBe('Your SoundID VoiceAI perpetual license key');
    expect(mail?.Text).toContain(formatLicenseKey(issued?.key as string));
    expect(mail?.Links).toEqual(['http://localhost:3000/add-license']);

    // The buyer signs up (any address) and registers the mailed key.
    const buyer = await customer('newcomer@example.com');
    const registered = await t.call(
      '/api/accounts/RegisterKey',
      { key: formatLicenseKey(issued?.key as string) },
      buyer.token,
    );
    expect(registered.statusCode).toBe(200);
    const list = await licenceList(t, buyer.token);
    expect(list.VoiceAIProducts.LicenseStatus.OfflineLicenseKey).toBe(maskLicenseKey(issued?.key as string));
  });

  it('an unverified account with that e-mail does not receive the key', async () => {
    const signUp = await t.call('/api/accounts/register', {
      email: 'unverified@example.com',
      password: 'correct horse battery',
    });
    expect(signUp.statusCode).toBe(201);
    const order = shopifyOrder({ email: 'unverified@example.com' });
    await deliver(order);
    expect(await orderRow(order.id)).toMatchObject({ status: 'unclaimed', userId: null });
  });

  it('an order without an e-mail still issues its key (support hands it out) and sends no mail', async () => {
    const order = shopifyOrder({ email: null });
    expect((await deliver(order)).json().Result.Outcome).toBe('granted');
    expect(await orderRow(order.id)).toMatchObject({ status: 'unclaimed', email: null });
    expect(await keysOfOrder(order.id)).toHaveLength(1);
  });
});

describe('operator view (npm run admin -- orders)', () => {
  const orders = async (email: string, token?: string) =>
    t.app.inject({
      method: 'GET',
      url: `/api/admin/storefront-orders?email=${encodeURIComponent(email)}`,
      headers: { authorization: `Bearer ${token ?? (await t.operatorToken(['support']))}` },
    });

  it("lists a customer's orders with their keys and where each key is registered now", async () => {
    const unclaimed = shopifyOrder({ email: 'support-case@example.com' });
    await deliver(unclaimed);
    const buyer = await customer('support-case@example.com');
    const granted = shopifyOrder({
      email: 'support-case@example.com',
      lines: [{ productId: 1001, variantId: 2001, quantity: 2 }],
    });
    await deliver(granted);

    const res = await orders('Support-Case@example.com');
    expect(res.statusCode).toBe(200);
    const [first, second] = res.json().Result;
    expect(first).toMatchObject({
      OrderId: String(unclaimed.id),
      Name: unclaimed.name,
      Email: 'support-case@example.com',
      Status: 'unclaimed',
      Quantity: 1,
      Account: null,
      IsTest: false,
      Keys: [{ Key: expect.stringMatching(/^\w{6}-\w{6}-\w{6}-\w{6}$/), RegisteredTo: null }],
    });
    expect(second).toMatchObject({
      OrderId: String(granted.id),
      Status: 'granted',
      Quantity: 2,
      Account: 'support-case@example.com',
      Keys: [
        { Key: expect.any(String), RegisteredTo: 'support-case@example.com' },
        { Key: expect.any(String), RegisteredTo: 'support-case@example.com' },
      ],
    });
    expect((await keysOf(buyer.userId)).map((k) => formatLicenseKey(k.key)).sort()).toEqual(
      second.Keys.map((k: { Key: string }) => k.Key).sort(),
    );
    expect((await orders('nobody@example.com')).json().Result).toEqual([]);
  });

  it('needs the operator token', async () => {
    const res = await orders('support-case@example.com', 'wrong-token-0123456789abcdef');
    expect(res.statusCode).toBe(401);
    expect(faultOf(res)).toBe('AdminTokenInvalid');
  });
});

describe("the store's own receipt (ADR 0058)", () => {
  it("keeps the order's https order_status_url: the licence mail and the operators' view link it; any other is dropped", async () => {
    const email = 'store-receipt@example.com';
    await customer(email);
    const statusUrl = 'https://soundid-test.myshopify.com/73418/orders/abc123/authenticate?key=k1';
    // The first delivery (unpaid) carries none; the paid one does.
    const order = shopifyOrder({ email, financialStatus: 'pending' });
    expect((await deliver(order)).json().Result.Outcome).toBe('recorded');
    expect((await orderRow(order.id))?.statusUrl).toBeNull();
    const paid = { ...order, financial_status: 'paid', order_status_url: statusUrl };
    expect((await deliver(paid)).json().Result.Outcome).toBe('granted');
    expect((await orderRow(order.id))?.statusUrl).toBe(statusUrl);
    const [mail] = await t.mailsTo(email);
    if (!mail) throw new Error('no licence mail');
    expect(mail.Subject).toBe('Your SoundID VoiceAI perpetual license');
    expect(mail.Text).toContain(`Your receipt and the status of order ${order.name} are in the store: ${statusUrl}`);

    const listed = await t.app.inject({
      method: 'GET',
      url: `/api/admin/storefront-orders?email=${encodeURIComponent(email)}`,
      headers: { authorization: `Bearer ${await t.operatorToken(['support'])}` },
    });
    expect(listed.json().Result[0]).toMatchObject({ OrderId: String(order.id), ReceiptUrl: statusUrl });

    // Not https, or not a URL: nothing kept, nothing linked.
    for (const bad of ['http://soundid-test.myshopify.com/orders/1', 'javascript:alert(1)', 'not a url']) {
      const other = shopifyOrder({ email: 'store-receipt-bad@example.com' });
      await deliver({ ...other, order_status_url: bad });
      expect((await orderRow(other.id))?.statusUrl, bad).toBeNull();
    }
  });
});
