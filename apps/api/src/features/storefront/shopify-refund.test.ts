import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { deliverShopifyWebhook, shopifyOrder } from '../../../test/storefront';
import { devices, licenseKeys } from '../../db/licences-schema';
import { storefrontOrders } from '../../db/storefront-schema';
import { deriveSandboxShopifyWebhookSecret } from '../../dev/shopify-sandbox/webhook-secret';
import { formatLicenseKey } from '../licences/codes';
import { activate, adminCall, licenceList } from '../licences/test-helpers';

/**
 * Shopify refunds (refunds/create) and cancellations (orders/cancelled) take back the perpetual
 * licences they refund (ADR 0032): signed with Shopify's HMAC, applied once per refund.
 * Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
const SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';
const SECRET = deriveSandboxShopifyWebhookSecret(SESSION_SECRET);
const VOICE = 'SoundIDVoiceAI';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ SESSION_SECRET });
});
afterAll(() => t.close());

const deliver = (body: object, topic: string, webhookId?: string) =>
  deliverShopifyWebhook(t.app, { body, secret: SECRET, topic, ...(webhookId ? { webhookId } : {}) });

async function customer(email: string) {
  const token = await signUpVerified(t, email);
  const me = await t.call('/api/accounts/LoginByToken', {}, token);
  return { token, userId: me.json().Result.User.Id as string };
}

/** Shopify's Refund resource: refund line items of the order's voice AI licence line. */
function shopifyRefund(order: ReturnType<typeof shopifyOrder>, refundId: number, quantity: number) {
  const line = order.line_items[0];
  return {
    id: refundId,
    order_id: order.id,
    created_at: '2026-01-20T10:00:00-05:00',
    note: 'Customer changed their mind',
    restock: false,
    refund_line_items: quantity === 0 ? [] : [{ id: refundId * 10, line_item_id: line?.id, quantity, line_item: line }],
    transactions: [{ kind: 'refund', amount: '99.00', status: 'success' }],
  };
}

const keysOf = (userId: string) => t.database.db.select().from(licenseKeys).where(eq(licenseKeys.userId, userId));
const activeDevices = async (userId: string) =>
  (await t.database.db.select().from(devices).where(eq(devices.userId, userId))).filter((d) => !d.deactivatedAt);
const orderRow = async (orderId: number) =>
  (
    await t.database.db
      .select()
      .from(storefrontOrders)
      .where(eq(storefrontOrders.orderId, String(orderId)))
  )[0];

describe('Shopify refunds of the perpetual licence (ASVS 2.3.3, 2.3.4)', () => {
  it('refunds/create revokes the refunded licence and releases its devices; replays change nothing', async () => {
    const buyer = await customer('refunded-buyer@example.com');
    const order = shopifyOrder({ email: 'refunded-buyer@example.com' });
    expect((await deliver(order, 'orders/paid')).json().Result.Outcome).toBe('granted');
    const [key] = await keysOf(buyer.userId);
    expect(key).toBeDefined();
    expect((await activate(t, buyer.token, VOICE, 'refund-machine-1')).statusCode).toBe(200);
    expect((await activate(t, buyer.token, VOICE, 'refund-machine-2')).statusCode).toBe(200);

    // An amount-only refund (no licence line) takes nothing back.
    expect((await deliver(shopifyRefund(order, 801, 0), 'refunds/create')).json().Result.Outcome).toBe('ignored');
    expect(await keysOf(buyer.userId)).toHaveLength(1);

    const webhookId = 'c0ffee00-0000-4000-8000-000000000802';
    const refunded = await deliver(shopifyRefund(order, 802, 1), 'refunds/create', webhookId);
    expect(refunded.json().Result).toEqual({ WebhookId: webhookId, Duplicate: false, Outcome: 'revoked' });
    expect(await keysOf(buyer.userId)).toEqual([]);
    expect(await activeDevices(buyer.userId)).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', refundedQuantity: 1 });

    // Licenses & Devices no longer shows the licence; the plugin is no longer licensed.
    const list = await licenceList(t, buyer.token);
    expect(JSON.stringify(list)).not.toContain(formatLicenseKey(key?.key ?? ''));
    const check = await t.call(
      '/api/apps/CheckLicense',
      { productName: VOICE, machineId: 'refund-machine-1' },
      buyer.token,
    );
    expect(check.json().Result.Licensed).toBe(false);

    // The same refund again (replayed, or under another webhook id) changes nothing.
    expect((await deliver(shopifyRefund(order, 802, 1), 'refunds/create', webhookId)).json().Result.Duplicate).toBe(
      true,
    );
    expect((await deliver(shopifyRefund(order, 802, 1), 'refunds/create')).json().Result.Outcome).toBe('ignored');

    // The revoked key cannot be registered again, by anyone.
    const again = await t.call('/api/accounts/RegisterKey', { key: formatLicenseKey(key?.key ?? '') }, buyer.token);
    expect(faultOf(again)).toBe('KeyRefunded');

    // The operator view says so.
    const orders = await adminCall(t, '/api/admin/storefront-orders?email=refunded-buyer@example.com');
    expect(orders.json().Result[0]).toMatchObject({
      Status: 'refunded',
      RefundedQuantity: 1,
      Keys: [{ RegisteredTo: null, Revoked: true }],
    });
  });

  it('a partial refund of a two-licence order revokes one key; the seats of the other stay', async () => {
    const buyer = await customer('two-licences@example.com');
    const order = shopifyOrder({
      email: 'two-licences@example.com',
      lines: [{ productId: 1001, variantId: 2001, quantity: 2 }],
    });
    await deliver(order, 'orders/paid');
    for (const machine of ['m1', 'm2', 'm3', 'm4']) {
      expect((await activate(t, buyer.token, VOICE, `two-${machine}`)).statusCode).toBe(200);
    }
    expect((await deliver(shopifyRefund(order, 803, 1), 'refunds/create')).json().Result.Outcome).toBe('revoked');
    expect(await keysOf(buyer.userId)).toHaveLength(1);
    expect(await activeDevices(buyer.userId)).toHaveLength(2);
    expect(await orderRow(order.id)).toMatchObject({ status: 'granted', refundedQuantity: 1 });

    expect((await deliver(order, 'orders/cancelled')).json().Result.Outcome).toBe('revoked');
    expect(await keysOf(buyer.userId)).toEqual([]);
    expect(await activeDevices(buyer.userId)).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', refundedQuantity: 2 });
  });

  it('a refund delivered before the order is paid is kept: the grant issues nothing for it', async () => {
    const buyer = await customer('refund-before-paid@example.com');
    const order = shopifyOrder({ email: 'refund-before-paid@example.com' });
    expect((await deliver(shopifyRefund(order, 804, 1), 'refunds/create')).json().Result.Outcome).toBe('recorded');
    const paid = await deliver(order, 'orders/paid');
    expect(paid.json().Result.Outcome).toBe('recorded');
    expect(await keysOf(buyer.userId)).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', refundedQuantity: 1 });
  });

  it('a refund racing the order’s payment never leaves a refunded licence granted', async () => {
    const buyer = await customer('refund-race@example.com');
    const order = shopifyOrder({ email: 'refund-race@example.com' });
    const results = await Promise.all([
      ...Array.from({ length: 3 }, () => deliver(order, 'orders/paid')),
      deliver(shopifyRefund(order, 805, 1), 'refunds/create'),
      ...Array.from({ length: 3 }, () => deliver(order, 'orders/paid')),
    ]);
    for (const res of results) expect(res.statusCode).toBe(200);
    expect(await keysOf(buyer.userId)).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'refunded', refundedQuantity: 1 });
  });
});
