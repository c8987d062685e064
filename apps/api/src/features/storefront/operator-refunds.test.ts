import { callRoutes, type OperatorRole } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, TEST_SESSION_SECRET, type TestApp } from '../../../test/kit/test-app';
import { createSandboxCart, deliverShopifyWebhook, payCheckout, shopifyOrder } from '../../../test/storefront';
import { devices, licenseKeys } from '../../db/licences-schema';
import { auditEntries } from '../../db/operators-schema';
import { sandboxRefunds, shopifyWebhookEvents, storefrontOrders } from '../../db/storefront-schema';
import type { SandboxStoreAdmin } from '../../dev/shopify-sandbox/admin';
import { deriveSandboxShopifyWebhookSecret } from '../../dev/shopify-sandbox/webhook-secret';
import { parseShopifyRefund, type ShopifyRefund } from '../../integrations/shopify/order-webhook';
import { activate } from '../licences/test-helpers';
import { type StorefrontOperatorRefund, StorefrontRefunds } from './operator-refunds';
import type { StorefrontOrderService } from './order-fulfilment';

/**
 * Finance refunds a storefront order (AdminRefundStorefrontOrder, ADR 0059) through the store,
 * here the sandbox store end to end: the perpetual licence bought at the sandbox checkout, the
 * refund recorded by the sandbox's Admin API stand-in, its signed refunds/create through the
 * webhook handler, the key revoked and its devices signed out. Audited with the customer in the
 * transaction that applies the refund (ADR 0045). The production client's side:
 * integrations/shopify/admin-api.test.ts. PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

let made = 0;
const newEmail = (name: string) => `${name}-${++made}@example.com`;

/** Finance's call as the console sends it; a field given as null is left out. */
const refund = async (
  order: string,
  {
    roles = ['finance'],
    ...fields
  }: { quantity?: number; roles?: OperatorRole[]; reason?: string | null; reference?: string | null } = {},
) => {
  const body = { order, reason: 'ticket S-1: customer asked', reference: `form-${++made}`, ...fields };
  return t.app.inject({
    method: 'POST',
    url: callRoutes.AdminRefundStorefrontOrder.path,
    payload: Object.fromEntries(Object.entries(body).filter(([, value]) => value !== null)),
    headers: { authorization: `Bearer ${await t.operatorToken(roles)}` },
  });
};

const orderOf = async (email: string) =>
  (await t.database.db.select().from(storefrontOrders).where(eq(storefrontOrders.email, email)))[0];
const liveKeys = (userId: string) => t.database.db.select().from(licenseKeys).where(eq(licenseKeys.userId, userId));
const activeDevices = async (userId: string) =>
  (await t.database.db.select().from(devices).where(eq(devices.userId, userId))).filter((d) => !d.deactivatedAt);
const refundsOfSandbox = (orderId: string) =>
  t.database.db
    .select()
    .from(sandboxRefunds)
    .where(eq(sandboxRefunds.orderId, Number(orderId)));
const auditOf = async (orderId: string) =>
  (
    await t.database.db
      .select()
      .from(auditEntries)
      .where(eq(auditEntries.action, 'AdminRefundStorefrontOrder'))
      .orderBy(desc(auditEntries.seq))
  ).filter((entry) => entry.targetId === orderId);

/** A verified customer who bought `quantity` perpetual licences at the sandbox checkout. */
async function bought(name: string, quantity = 1) {
  const email = newEmail(name);
  const token = await signUpVerified(t, email);
  const userId = (await t.call('/api/accounts/LoginByToken', {}, token)).json().Result.User.Id as string;
  const { checkoutUrl } = await createSandboxCart(t.app, email, quantity);
  expect((await payCheckout(t.app, checkoutUrl, email)).statusCode).toBe(303);
  const order = await orderOf(email);
  if (order?.status !== 'granted') throw new Error(`order not granted: ${JSON.stringify(order)}`);
  return { email, token, userId, order };
}

describe('finance refunds a storefront order through the store (ASVS 2.3.2, 8.2.1, 16.2.1)', () => {
  it('the sandbox store refunds it and tells the service by refunds/create: the key is revoked, its devices signed out, audited', async () => {
    const { email, token, userId, order } = await bought('refunded');
    expect((await activate(t, token, 'SoundIDVoiceAI', 'refund-mac')).statusCode).toBe(200);
    const [key] = await liveKeys(userId);

    const res = await refund(order.name);
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toEqual({
      OrderId: order.orderId,
      Name: order.name,
      Quantity: 1,
      RefundedQuantity: 1,
      Status: 'refunded',
    });
    expect(await liveKeys(userId)).toEqual([]);
    expect(await activeDevices(userId)).toEqual([]);
    // The store recorded it, and its signed refunds/create went through the webhook handler.
    const [stored] = await refundsOfSandbox(order.orderId);
    expect(stored).toMatchObject({ amountCents: 9900, lines: [{ lineItemId: 1, quantity: 1 }] });
    expect(stored?.deliveredAt).not.toBeNull();
    const [event] = await t.database.db
      .select()
      .from(shopifyWebhookEvents)
      .where(eq(shopifyWebhookEvents.webhookId, stored?.delivery.webhookId ?? ''));
    expect(event).toMatchObject({ topic: 'refunds/create', orderId: order.orderId, outcome: 'revoked' });

    const [entry] = await auditOf(order.orderId);
    expect(entry).toMatchObject({
      action: 'AdminRefundStorefrontOrder',
      outcome: 'done',
      targetType: 'storefront-order',
      customerEmail: email,
      roles: ['finance'],
      reason: 'ticket S-1: customer asked',
      before: { status: 'granted', quantity: 1, refundedQuantity: 0, liveKeys: [key?.key.slice(-6)] },
      after: { status: 'refunded', refundedQuantity: 1, liveKeys: [], refundedNow: 1, refundId: String(stored?.id) },
    });
  });

  it('a store that answers before its refunds/create: the answer takes the licences back at once, the webhook then changes nothing', async () => {
    // Shopify's refundCreate answers first and sends its webhook later: a store that only answers.
    const email = newEmail('answer-first');
    const token = await signUpVerified(t, email);
    const userId = (await t.call('/api/accounts/LoginByToken', {}, token)).json().Result.User.Id as string;
    const secret = deriveSandboxShopifyWebhookSecret(TEST_SESSION_SECRET);
    const paid = shopifyOrder({ email });
    expect((await deliverShopifyWebhook(t.app, { body: paid, secret })).json().Result.Outcome).toBe('granted');
    const told = {
      id: 930000123,
      order_id: paid.id,
      refund_line_items: [{ quantity: 1, line_item: paid.line_items[0] }],
    };
    const orders = t.services.storefrontOrders as StorefrontOrderService;
    const answersOnly = new StorefrontRefunds({
      db: t.database.db,
      clock: t.clock,
      orders,
      store: { refundLicences: async () => parseShopifyRefund(Buffer.from(JSON.stringify(told))) as ShopifyRefund },
    });
    const audited: StorefrontOperatorRefund[] = [];
    const operator = { id: '00000000-0000-4000-8000-00000000f1a5', email: 'fin@operators.example.com' };
    const result = await answersOnly.refundOrder(
      { order: paid.name, reference: 'T-first' },
      operator,
      async (_tx, r) => {
        audited.push(r);
      },
    );
    expect(result).toMatchObject({ RefundedQuantity: 1, Status: 'refunded' });
    expect(await liveKeys(userId)).toEqual([]);
    expect(audited).toMatchObject([
      { refundId: '930000123', quantity: 1, after: { status: 'refunded', liveKeys: [] } },
    ]);
    const late = await deliverShopifyWebhook(t.app, { body: told, secret, topic: 'refunds/create' });
    expect(late.json().Result.Outcome).toBe('ignored');
  });

  it('once per reference: sent twice at once and once more later, it refunds once and audits once', async () => {
    const { order } = await bought('double-click', 2);
    const same = { quantity: 1, reference: 'form-double' };
    const answers = await Promise.all([refund(order.orderId, same), refund(order.orderId, same)]);
    const later = await refund(order.orderId, same);
    for (const res of [...answers, later]) {
      expect(res.json().Result).toMatchObject({ RefundedQuantity: 1, Quantity: 2, Status: 'granted' });
    }
    expect(await refundsOfSandbox(order.orderId)).toHaveLength(1);
    expect(await auditOf(order.orderId)).toHaveLength(1);
    // The store itself makes one refund per idempotency key, as Shopify's refundCreate does.
    const store = t.services.dev?.sandboxStoreAdmin as SandboxStoreAdmin;
    const asked = { orderId: order.orderId, quantity: 1, idempotencyKey: 'refund-key-twice', note: 'retry' };
    const first = await store.refundLicences(asked);
    expect(await store.refundLicences(asked)).toEqual(first);
    expect(await refundsOfSandbox(order.orderId)).toHaveLength(2);
    const over = await refund(order.orderId, { reference: 'form-over' });
    expect([over.statusCode, faultOf(over)]).toEqual([409, 'StorefrontOrderRefunded']);
    // The first reference again (a retry after a lost answer) answers the order as it stands.
    expect((await refund(order.orderId, same)).json().Result).toMatchObject({
      RefundedQuantity: 2,
      Status: 'refunded',
    });
    expect(await auditOf(order.orderId)).toHaveLength(1);
  });

  it('two refunds of the last licence at once under different references: the store refunds one, the other is refused (ASVS 2.3.4)', async () => {
    const { email, userId, order } = await bought('burst');
    // Both pass the service's early check (one licence left) before either has reached the store;
    // the store's own ledger, one refund of an order at a time, is the limit.
    const answers = await Promise.all(
      ['burst-a', 'burst-b', 'burst-c'].map((reference) => refund(order.name, { quantity: 1, reference })),
    );
    const outcomes = answers.map((res) => [res.statusCode, res.statusCode === 200 ? 'refunded' : faultOf(res)]);
    expect(outcomes.filter(([status]) => status === 200)).toHaveLength(1);
    for (const refused of outcomes.filter(([status]) => status !== 200)) {
      expect(refused).toEqual([409, expect.stringMatching(/^StorefrontRefundInvalid|StorefrontOrderRefunded$/)]);
    }
    expect(await refundsOfSandbox(order.orderId)).toHaveLength(1);
    expect(await auditOf(order.orderId)).toHaveLength(1);
    expect(await liveKeys(userId)).toEqual([]);
    expect((await orderOf(email))?.refundedQuantity).toBe(1);
  });

  it('an order refunded already or cancelled is a clear Fault, never a 5xx; nothing is refunded again', async () => {
    const { order } = await bought('twice');
    expect((await refund(order.name)).statusCode).toBe(200);
    const again = await refund(order.name);
    expect([again.statusCode, faultOf(again)]).toEqual([409, 'StorefrontOrderRefunded']);

    const cancelled = await bought('cancelled');
    const secret = deriveSandboxShopifyWebhookSecret(TEST_SESSION_SECRET);
    const cancel = shopifyOrder({ id: Number(cancelled.order.orderId), email: cancelled.email });
    const told = await deliverShopifyWebhook(t.app, { body: cancel, secret, topic: 'orders/cancelled' });
    expect(told.json().Result.Outcome).toBe('revoked');
    const afterCancel = await refund(cancelled.order.name);
    expect([afterCancel.statusCode, faultOf(afterCancel)]).toEqual([409, 'StorefrontOrderRefunded']);
    expect(await refundsOfSandbox(cancelled.order.orderId)).toEqual([]);
  });

  it('more licences than are left, an unpaid order and an unknown one are refused; nothing changes', async () => {
    const { userId, order } = await bought('refused', 2);
    const over = await refund(order.name, { quantity: 3 });
    expect([over.statusCode, faultOf(over)]).toEqual([409, 'StorefrontRefundInvalid']);
    expect(over.json().Fault.ExceptionVariables).toEqual([{ Key: 'RefundableQuantity', Value: '2' }]);

    const unknown = await refund('#987654');
    expect([unknown.statusCode, faultOf(unknown)]).toEqual([404, 'StorefrontOrderNotFound']);

    const unpaidEmail = newEmail('unpaid');
    const unpaid = shopifyOrder({ email: unpaidEmail, financialStatus: 'pending' });
    await deliverShopifyWebhook(t.app, {
      body: unpaid,
      secret: deriveSandboxShopifyWebhookSecret(TEST_SESSION_SECRET),
      topic: 'orders/create',
    });
    const notPaid = await refund(String(unpaid.id));
    expect([notPaid.statusCode, faultOf(notPaid)]).toEqual([409, 'StorefrontOrderNotPaid']);

    expect(await liveKeys(userId)).toHaveLength(2);
    expect(await refundsOfSandbox(order.orderId)).toEqual([]);
    expect(await auditOf(order.orderId)).toEqual([]);
  });

  it('needs a reason and a reference (400), and the finance role: support and admin get 403, audited', async () => {
    const { userId, order } = await bought('roles');
    for (const missing of [{ reason: null }, { reason: 'no' }, { reference: null }, { quantity: 0 }]) {
      const res = await refund(order.name, missing);
      expect([res.statusCode, faultOf(res)], JSON.stringify(missing)).toEqual([400, 'RequestInvalid']);
    }
    expect((await refund('not an order')).statusCode).toBe(400);
    for (const role of ['support', 'admin'] as const) {
      const res = await refund(order.name, { roles: [role] });
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OperatorForbidden']);
      const [denied] = await t.database.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1);
      expect(denied).toMatchObject({ action: 'AdminRefundStorefrontOrder', outcome: 'denied', roles: [role] });
    }
    expect(await liveKeys(userId)).toHaveLength(1);
    expect(await refundsOfSandbox(order.orderId)).toEqual([]);
  });
});
