import { maskLicenseKey } from '@soundid/contracts';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { createSandboxCart, openCheckout, payCheckout } from '../../../test/storefront';
import { licenseKeys } from '../../db/licences-schema';
import { sandboxOrders, shopifyWebhookEvents, storefrontOrders } from '../../db/storefront-schema';
import { licenceList } from '../../features/licences/test-helpers';

/**
 * The sandbox checkout page at a cart's checkoutUrl: it looks like a checkout, and paying it
 * places an order whose signed order webhooks grant the perpetual licence exactly once.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const keysOf = (userId: string) => t.database.db.select().from(licenseKeys).where(eq(licenseKeys.userId, userId));

async function signedInBuyer(email: string) {
  const token = await signUpVerified(t, email);
  const me = await t.call('/api/accounts/LoginByToken', {}, token);
  return { token, userId: me.json().Result.User.Id as string };
}

describe('the checkout page', () => {
  it('shows the line, its price and compare-at price, the total and the e-mail, with Pay and Cancel; no script', async () => {
    const { checkoutUrl } = await createSandboxCart(t.app, 'page@example.com');
    const res = await openCheckout(t.app, checkoutUrl);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    const html = res.body;
    expect(html).toContain('<h1>Checkout</h1>');
    expect(html).toContain('SoundID VoiceAI Perpetual');
    expect(html).toContain('$99.00');
    expect(html).toContain('<s aria-label="Regular price">$149.00</s>');
    expect(html).toContain('value="page@example.com"');
    expect(html).toContain('<button type="submit">Pay now</button>');
    expect(html).toContain('href="http://localhost:3000/products/voice-ai">Cancel and return to the store</a>');
    expect(html).not.toMatch(/<script/i);
  });

  it('an unknown checkout link or a wrong key shows "Checkout not found" with a 404', async () => {
    const { checkoutUrl } = await createSandboxCart(t.app, undefined);
    const wrong = await openCheckout(t.app, checkoutUrl.replace(/key=\w+/, 'key=0000'));
    expect(wrong.statusCode).toBe(404);
    expect(wrong.body).toContain('Checkout not found');
    const unknown = await t.app.inject('/sandbox/shopify/cart/c/nope?key=abc');
    expect(unknown.statusCode).toBe(404);
    const malformed = await t.app.inject(`/sandbox/shopify/cart/c/${'x'.repeat(80)}?key=${'k'.repeat(80)}`);
    expect(malformed.statusCode).toBe(404);
    expect(malformed.body).toContain('Checkout not found');
  });

  it('an invalid e-mail shows the form again with the message, and nothing is ordered', async () => {
    const { checkoutUrl } = await createSandboxCart(t.app, undefined);
    const res = await payCheckout(t.app, checkoutUrl, 'nope');
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('Email address is not in a correct format.');
    expect(res.body).toContain('aria-invalid="true"');
    const token = new URL(checkoutUrl).pathname.split('/').pop() as string;
    expect(await t.database.db.select().from(sandboxOrders).where(eq(sandboxOrders.cartToken, token))).toEqual([]);
  });
});

describe('paying', () => {
  it('pay → order webhooks → a perpetual key registered to the buyer, shown in the licence list', async () => {
    const buyer = await signedInBuyer('perpetual@example.com');
    const before = await licenceList(t, buyer.token);
    expect(before.VoiceAIProducts.LicenseStatus.OfflineLicenseKey).toBeNull();

    const { checkoutUrl } = await createSandboxCart(t.app, 'perpetual@example.com');
    const paid = await payCheckout(t.app, checkoutUrl, 'perpetual@example.com');
    expect(paid.statusCode).toBe(303);
    expect(paid.headers.location).toBe(checkoutUrl);

    const thanks = await openCheckout(t.app, checkoutUrl);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Thank you for your purchase!');
    expect(thanks.body).toMatch(/Your order #\d+ is confirmed\./);
    expect(thanks.body).toContain('href="http://localhost:3000/products">Go to Licenses &amp; Devices</a>');

    const keys = await keysOf(buyer.userId);
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatchObject({ productCode: 'voice-ai', source: 'purchase' });
    const after = await licenceList(t, buyer.token);
    expect(after.VoiceAIProducts.LicenseStatus.OfflineLicenseKey).toBe(maskLicenseKey(keys[0]?.key as string));
    expect(after.VoiceAIProducts.Notifications).toContainEqual(
      expect.objectContaining({ Message: 'Perpetual mode is active.' }),
    );

    // Shopify sends orders/create and orders/paid: both arrive, the order grants once.
    const [order] = await t.database.db
      .select()
      .from(storefrontOrders)
      .where(eq(storefrontOrders.email, 'perpetual@example.com'));
    expect(order).toMatchObject({
      status: 'granted',
      userId: buyer.userId,
      quantity: 1,
      source: 'sandbox',
      isTest: true,
    });
    const events = await t.database.db
      .select()
      .from(shopifyWebhookEvents)
      .where(eq(shopifyWebhookEvents.orderId, order?.orderId as string));
    expect(events.map((e) => [e.topic, e.outcome]).sort()).toEqual([
      ['orders/create', 'granted'],
      ['orders/paid', 'ignored'],
    ]);

    // The confirmation mail says where the licence is.
    const [mail] = await t.mailsTo('perpetual@example.com');
    expect(mail?.Subject).toBe('Your SoundID VoiceAI perpetual license');
    expect(mail?.Links).toEqual(['http://localhost:3000/products']);

    // Paying again (a double submit, the back button) changes nothing.
    expect((await payCheckout(t.app, checkoutUrl, 'perpetual@example.com')).statusCode).toBe(303);
    expect(await keysOf(buyer.userId)).toHaveLength(1);
  });

  it('10 payments of one cart at once place one order and grant one key', async () => {
    const buyer = await signedInBuyer('burst-pay@example.com');
    const { checkoutUrl } = await createSandboxCart(t.app, 'burst-pay@example.com');
    const results = await Promise.all(
      Array.from({ length: 10 }, () => payCheckout(t.app, checkoutUrl, 'burst-pay@example.com')),
    );
    for (const res of results) expect(res.statusCode).toBe(303);
    expect(await keysOf(buyer.userId)).toHaveLength(1);
    const token = new URL(checkoutUrl).pathname.split('/').pop() as string;
    expect(await t.database.db.select().from(sandboxOrders).where(eq(sandboxOrders.cartToken, token))).toHaveLength(1);
  });

  it('a quantity of 2 issues two keys: twice the seats', async () => {
    const buyer = await signedInBuyer('two-seats@example.com');
    const { checkoutUrl } = await createSandboxCart(t.app, 'two-seats@example.com', 2);
    await payCheckout(t.app, checkoutUrl, 'two-seats@example.com');
    expect(await keysOf(buyer.userId)).toHaveLength(2);
    const check = await t.call(
      '/api/apps/CheckLicense',
      { productName: 'SoundIDVoiceAI', machineId: 'mac-1' },
      buyer.token,
    );
    expect(check.json().Result).toMatchObject({ LicenseKind: 'Perpetual', InstancesMax: 4 });
  });

  it('the buyer may change the e-mail at checkout: the order goes to that address', async () => {
    const other = await signedInBuyer('changed-at-checkout@example.com');
    const { checkoutUrl } = await createSandboxCart(t.app, 'first-typed@example.com');
    await payCheckout(t.app, checkoutUrl, ' Changed-At-Checkout@Example.com ');
    expect(await keysOf(other.userId)).toHaveLength(1);
  });

  it('an order whose webhooks did not get through is delivered again when its checkout URL is opened', async () => {
    const buyer = await signedInBuyer('redeliver@example.com');
    const { checkoutUrl } = await createSandboxCart(t.app, 'redeliver@example.com');
    // Every new key is refused for a moment: the order is placed, its delivery fails.
    await t.database.db.execute(
      sql`alter table license_keys add constraint refuse_new_keys check (key = 'x') not valid`,
    );
    try {
      const failed = await payCheckout(t.app, checkoutUrl, 'redeliver@example.com');
      expect(failed.statusCode).toBe(503);
      expect(failed.body).toContain('The service is temporarily unavailable.');
    } finally {
      await t.database.db.execute(sql`alter table license_keys drop constraint refuse_new_keys`);
    }
    expect(await keysOf(buyer.userId)).toEqual([]);
    const thanks = await openCheckout(t.app, checkoutUrl);
    expect(thanks.body).toContain('Thank you for your purchase!');
    expect(await keysOf(buyer.userId)).toHaveLength(1);
    const token = new URL(checkoutUrl).pathname.split('/').pop() as string;
    const [order] = await t.database.db.select().from(sandboxOrders).where(eq(sandboxOrders.cartToken, token));
    expect(order?.deliveredAt).toBeInstanceOf(Date);
    expect((await openCheckout(t.app, checkoutUrl)).statusCode).toBe(200);
    expect(await keysOf(buyer.userId)).toHaveLength(1);
  });

  it('a lapsed cart cannot be paid; a paid one still shows its thank-you', async () => {
    const open = await createSandboxCart(t.app, undefined);
    const paid = await createSandboxCart(t.app, undefined);
    await payCheckout(t.app, paid.checkoutUrl, 'lapse@example.com');
    t.clock.advanceHours(11 * 24);
    const late = await payCheckout(t.app, open.checkoutUrl, 'lapse@example.com');
    expect(late.statusCode).toBe(404);
    expect(late.body).toContain('This checkout link is not valid or has expired.');
    const thanks = await openCheckout(t.app, paid.checkoutUrl);
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).toContain('Thank you for your purchase!');
  });

  it('an empty cart shows that it is empty and cannot be paid', async () => {
    const client = await (await import('../../../test/storefront')).sandboxClient(t.app);
    const { data } = await client.request('mutation { cartCreate(input: {}) { cart { checkoutUrl } } }');
    const checkoutUrl = data.cartCreate.cart.checkoutUrl as string;
    const page = await openCheckout(t.app, checkoutUrl);
    expect(page.body).toContain('Your cart is empty.');
    expect(page.body).not.toContain('Pay now');
    const paid = await payCheckout(t.app, checkoutUrl, 'empty@example.com');
    expect(paid.statusCode).toBe(409);
    expect(paid.body).toContain('Your cart is empty.');
  });
});
