import { and, eq } from 'drizzle-orm';
import { generateSync } from 'otplib';
import type { Database } from '../src/db/client';
import { licenseKeys } from '../src/db/licences-schema';
import { checkoutSessions, paymentRefunds } from '../src/db/payments-schema';
import { passkeys, recoveryCodes } from '../src/db/second-factor-schema';
import { storefrontOrderKeys, storefrontOrders } from '../src/db/storefront-schema';
import { addDays } from '../src/lib/clock';
import type { TestApp } from './kit/test-app';

/**
 * A customer's rows in the tables that suites reading a whole customer fill alike (the data
 * export, the customer page): two-step verification, a passkey, a card payment partly refunded,
 * a storefront order with its key. The secrets among them are named so a test can look for them.
 */

/** Two-step verification turned on as the customer does it, one recovery code used since. */
export async function turnOnTotp(
  t: TestApp,
  token: string,
  userId: string,
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const now = t.clock.now();
  const begun = (await t.call('/api/accounts/BeginTotpSetup', {}, token)).json().Result as { Secret: string };
  const code = generateSync({ secret: begun.Secret, epoch: Math.floor(now.getTime() / 1000) });
  const confirmed = await t.call('/api/accounts/ConfirmTotpSetup', { code }, token);
  const codes = (confirmed.json().Result as { RecoveryCodes: string[] }).RecoveryCodes;
  const { db } = t.database;
  const [first] = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, userId)).limit(1);
  await db
    .update(recoveryCodes)
    .set({ usedAt: now })
    .where(eq(recoveryCodes.id, first?.id ?? ''));
  return { secret: begun.Secret, recoveryCodes: codes };
}

/** A synced passkey named "Studio laptop"; its credential id and public key are `secret`-prefixed. */
export async function addPasskey(db: Database, userId: string, secret: string, createdAt: Date): Promise<void> {
  await db.insert(passkeys).values({
    userId,
    credentialId: `${secret}-credential-id`,
    publicKey: `${secret}-public-key`,
    counter: 3,
    transports: ['internal'],
    aaguid: '00000000-0000-0000-0000-000000000000',
    deviceType: 'multiDevice',
    backedUp: true,
    name: 'Studio laptop',
    createdAt,
  });
}

/**
 * A sandbox card payment of 1000 tokens for 19.99 EUR, three days old, of which 5.00 was refunded;
 * its client secret is stored as `clientSecretHash`.
 */
export async function addRefundedPayment(
  db: Database,
  payment: { userId: string; invoiceTag: string; paymentIntentId: string; clientSecretHash: string; now: Date },
): Promise<void> {
  const { userId, invoiceTag, paymentIntentId, clientSecretHash, now } = payment;
  await db.insert(checkoutSessions).values({
    invoiceTag,
    userId,
    priceId: 'price_1000',
    bundleTitle: '1000 tokens',
    tokenAmount: 1000,
    amountInCents: 1999,
    currency: 'EUR',
    provider: 'sandbox',
    providerSessionId: `cs_${invoiceTag}`,
    clientSecretHash,
    paymentIntentId,
    status: 'succeeded',
    analyticsMetadata: { gclid: 'abc' },
    returnUrl: 'http://localhost:3000/voice-ai',
    createdAt: addDays(now, -3),
    expiresAt: addDays(now, -2),
    completedAt: addDays(now, -3),
  });
  await db.insert(paymentRefunds).values({
    paymentIntentId,
    provider: 'sandbox',
    invoiceTag,
    refundedInCents: 500,
    chargedInCents: 1999,
    currency: 'EUR',
    tokensWithdrawn: 0,
    lastEventId: `evt_${invoiceTag}`,
    receivedAt: now,
  });
}

/** Storefront order #1001 (45 days old) of one voice AI licence, granted with the customer's voice AI key. */
export async function addGrantedOrder(
  db: Database,
  order: { orderId: string; email: string; userId: string; now: Date },
): Promise<void> {
  const [key] = await db
    .select({ id: licenseKeys.id })
    .from(licenseKeys)
    .where(and(eq(licenseKeys.userId, order.userId), eq(licenseKeys.productCode, 'voice-ai')));
  if (!key) throw new Error('the customer holds no voice AI key');
  const at = addDays(order.now, -45);
  await db.insert(storefrontOrders).values({
    orderId: order.orderId,
    source: 'sandbox',
    name: '#1001',
    email: order.email,
    userId: order.userId,
    status: 'granted',
    quantity: 1,
    financialStatus: 'paid',
    currency: 'EUR',
    totalPrice: '99.00',
    orderedAt: at,
    receivedAt: at,
    fulfilledAt: at,
  });
  await db.insert(storefrontOrderKeys).values({ orderId: order.orderId, position: 1, licenseKeyId: key.id });
}
