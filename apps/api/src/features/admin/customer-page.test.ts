import { type CallResult, DEVICE_DEACTIVATION_LIMIT, operationResults } from '@soundid/contracts';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshSession, signUpVerified } from '../../../test/accounts-flow';
import { addGrantedOrder, addPasskey, addRefundedPayment, turnOnTotp } from '../../../test/customer-fixture';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { devices, licences, licenseKeys } from '../../db/licences-schema';
import { sessions as sessionsTable, users } from '../../db/schema';
import { recoveryCodes, totpFactors } from '../../db/second-factor-schema';
import { DEMO_EMAIL, seedDemoData } from '../../dev/demo-seed';
import { addDays } from '../../lib/clock';
import { findUserByEmail } from '../accounts/users-repo';
import { productByCode } from '../licences/catalogue';
import { formatLicenseKey } from '../licences/codes';
import { ownKey } from '../licences/test-helpers';

/**
 * The customer page (AdminUser, docs/api.md, Operators): the demo customer, given two-step
 * verification, sessions, devices ended by the customer and by support, tokens granted and spent,
 * a card payment partly refunded, a storefront order, mails and audit entries, finds each in its
 * section, nothing of another customer, and none of their secrets.
 */
let t: TestApp;
let support: string;
let demo: { id: string; token: string; totpSecret: string; recoveryCodes: string[]; sessionTokens: string[] };
const OTHER = 'other.page@example.com';
const CLIENT_SECRET_HASH = 'c'.repeat(64);
const PASSKEY_SECRET = 'passkey-not-shown';
const PRODUCT = 'SoundIDReference';

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.database;
  await seedDemoData({ db, clock: t.clock, random: t.services.random, licences: t.services.licences });
  support = await t.operatorToken(['support']);
  const finance = await t.operatorToken(['finance']);
  const user = await findUserByEmail(db, DEMO_EMAIL);
  if (!user) throw new Error('no demo customer');
  const token = await freshSession(t, DEMO_EMAIL);
  const now = t.clock.now();
  const operator = (path: string, body: object, as: string) =>
    t.app.inject({
      method: 'POST',
      url: `/api/admin/${path}`,
      payload: body,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${as}` },
    });

  // Two-step verification on, one recovery code used, a passkey.
  const totp = await turnOnTotp(t, token, user.id);
  await addPasskey(db, user.id, PASSKEY_SECRET, now);

  // A second live session from a browser, and a third one ended.
  const chrome = await t.services.sessions.issue(db, user.id, false, {
    userAgent: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14_5) AppleWebKit/537.36 Chrome/126.0 Safari/537.36',
    ip: '203.0.113.9',
  });
  const ended = await t.services.sessions.issue(db, user.id, false, { userAgent: 'SoundID Reference/5.2' });
  await db.update(sessionsTable).set({ revokedAt: now }).where(eq(sessionsTable.id, ended.sessionId));

  // The app ends the MacBook's activation (counted); support ends the iMac's (not counted).
  t.clock.advanceMinutes(1);
  const deactivated = await t.call(
    '/api/apps/DeactivateDevice',
    { productName: PRODUCT, machineId: 'demo-mbp-20d4e611' },
    token,
  );
  expect(deactivated.statusCode, deactivated.body).toBe(200);
  const [referenceLicence] = await db
    .select()
    .from(licences)
    .where(and(eq(licences.userId, user.id), eq(licences.productCode, 'sid-reference')));
  const [imac] = await db
    .select()
    .from(devices)
    .where(and(eq(devices.licenceId, referenceLicence?.id ?? ''), eq(devices.machineId, 'demo-imac-7f3a9c21')));
  const ticket = await operator('deactivate-device', { deviceId: imac?.id, reason: 'ticket P-1: iMac sold' }, support);
  expect(ticket.statusCode, ticket.body).toBe(200);
  // A trial of the campaign on the Reference licence.
  await db
    .update(licences)
    .set({ trialStartedAt: now, trialEndsAt: addDays(now, 60), trialSource: 'campaign' })
    .where(eq(licences.id, referenceLicence?.id ?? ''));

  // Tokens: finance grants 500 with a reference; the app spends some of them.
  const grant = { email: DEMO_EMAIL, amount: 500, reference: 'T-9', reason: 'goodwill for ticket T-9' };
  expect((await operator('grant-tokens', grant, finance)).statusCode).toBe(200);
  t.clock.advanceMinutes(1);
  const spent = await t.call('/api/apps/ConsumeTokens', { seconds: 30, requestId: 'req-page-1' }, token);
  expect(spent.statusCode, spent.body).toBe(200);

  // A card payment partly refunded.
  await addRefundedPayment(db, {
    userId: user.id,
    invoiceTag: 'inv_DemoPaid_1',
    paymentIntentId: 'pi_demo_1',
    clientSecretHash: CLIENT_SECRET_HASH,
    now,
  });

  // A storefront order of the voice AI licence, granted with the demo's key.
  await addGrantedOrder(db, { orderId: '820982911946154508', email: DEMO_EMAIL, userId: user.id, now });

  // A mail: the customer asks for a password reset.
  await t.call('/api/accounts/InitiatePasswordReset', { email: DEMO_EMAIL });
  await t.services.accounts.settled();

  demo = {
    id: user.id,
    token,
    totpSecret: totp.secret,
    recoveryCodes: totp.recoveryCodes,
    sessionTokens: [token, chrome.token, ended.token],
  };

  // Another customer with rows of their own in the same tables.
  const other = await signUpVerified(t, OTHER);
  await ownKey(t, other, 'sid-reference');
  await t.call(
    '/api/apps/ActivateDevice',
    { productName: PRODUCT, machineId: 'other-pc', deviceName: 'Other PC' },
    other,
  );
  await operator('grant-tokens', { email: OTHER, amount: 777, reason: 'other goodwill' }, finance);
});
afterAll(() => t.close());

const pageOf = async (email: string, token = support) => {
  const res = await t.app.inject({
    url: `/api/admin/user?email=${encodeURIComponent(email)}`,
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { raw: res.body, page: res.json().Result as CallResult<'AdminUser'> };
};

describe('AdminUser, the customer page', () => {
  it('fills every section from the customer’s rows, in the contract’s shape', async () => {
    const { page } = await pageOf(DEMO_EMAIL);
    expect(operationResults.AdminUser.parse(page)).toBeTruthy();
    // The fields the page had before it grew.
    expect(page).toMatchObject({ Id: demo.id, Email: DEMO_EMAIL, EmailVerified: true, ActiveSessions: 2 });
    expect(page.Keys.map((k) => k.Product).sort()).toEqual(['ref4-hp', 'sid-reference', 'voice-ai', 'voice-pack-pop']);
    expect(page.Devices.map((d) => [d.Product, d.Name])).toEqual([['voice-ai', 'Studio iMac']]);

    expect(page.SecondFactor).toEqual({ Totp: true, RecoveryCodesLeft: demo.recoveryCodes.length - 1, Passkeys: 1 });
    expect(page.Sessions.map((s) => s.Device).sort()).toEqual(['Chrome on macOS', 'Unknown device']);

    const reference = page.Licences.find((l) => l.Product === 'sid-reference');
    const referenceKey = page.Keys.find((k) => k.Product === 'sid-reference');
    expect(reference).toMatchObject({
      KeyEnding: referenceKey?.KeyEnding,
      RegisteredAt: referenceKey?.RegisteredAt,
      // One key: the product's seats.
      Seats: productByCode('sid-reference')?.instancesMax,
      DeactivationsUsed: 1,
      DeactivationsAllowed: DEVICE_DEACTIVATION_LIMIT,
    });
    expect(reference?.Devices.map((d) => [d.Name, d.DeactivationCause])).toEqual([
      ['Studio iMac', 'support'],
      ['MacBook Pro', 'app'],
    ]);
    expect(reference?.Devices.every((d) => d.DeactivatedAt !== null)).toBe(true);
    expect(page.Licences.find((l) => l.Product === 'voice-ai')).toMatchObject({
      DeactivationsUsed: 0,
      Devices: [expect.objectContaining({ Name: 'Studio iMac', DeactivatedAt: null, DeactivationCause: null })],
    });
    expect(page.Licences.map((l) => l.Product).sort()).toEqual(['ref4-hp', 'sid-reference', 'voice-ai']);
    expect(page.Trials).toEqual([
      { Product: 'sid-reference', StartedAt: expect.any(String), EndsAt: expect.any(String) },
    ]);

    const spentTokens = page.TokenUsage[0]?.Tokens ?? 0;
    expect(page.TokenUsage).toEqual([{ At: expect.any(String), Tokens: spentTokens, Seconds: 30, Type: 'grant' }]);
    expect(spentTokens).toBeGreaterThan(0);
    expect(page.TokenBalance).toBe(500 - spentTokens);
    expect(page.TokenLots).toEqual([
      expect.objectContaining({ Source: 'grant', Amount: 500, Remaining: 500 - spentTokens, Reference: 'grant:T-9' }),
    ]);
    expect(page.CardPayments).toEqual([
      {
        InvoiceTag: 'inv_DemoPaid_1',
        Item: '1000 tokens',
        AmountInCents: 1999,
        RefundedInCents: 500,
        Currency: 'EUR',
        Status: 'succeeded',
        CreatedAt: expect.any(String),
      },
    ]);
    expect(page.StorefrontOrders).toEqual([
      expect.objectContaining({ Name: '#1001', Status: 'granted', Account: DEMO_EMAIL, Keys: [expect.any(Object)] }),
    ]);
    expect(page.Mails).toEqual([{ Subject: 'Reset your My SoundID password', At: expect.any(String), Status: 'sent' }]);
    expect(page.Audit.map((e) => [e.Action, e.Reason])).toEqual([
      ['AdminGrantTokens', 'goodwill for ticket T-9'],
      ['AdminDeactivateDevice', 'ticket P-1: iMac sold'],
    ]);
  });

  it('holds no secret of the customer: password hash, TOTP secret, session token, recovery code, passkey, whole key (ASVS 8.3.1, 14.2.6)', async () => {
    const { raw } = await pageOf(DEMO_EMAIL);
    const { db } = t.database;
    const [user] = await db.select().from(users).where(eq(users.id, demo.id));
    const [factor] = await db.select().from(totpFactors).where(eq(totpFactors.userId, demo.id));
    const hashes = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, demo.id));
    const keys = await db.select({ key: licenseKeys.key }).from(licenseKeys).where(eq(licenseKeys.userId, demo.id));
    expect(keys.length).toBeGreaterThan(2);
    const forbidden = [
      // Keys whole: the page names them by their last group (the storefront order's included).
      ...keys.flatMap((row) => [row.key, formatLicenseKey(row.key)]),
      user?.passwordHash ?? 'no hash',
      '$argon2',
      demo.totpSecret,
      factor?.sealedSecret ?? 'no factor',
      ...demo.sessionTokens.flatMap((token) => [token, ...token.split('.')]),
      ...demo.recoveryCodes,
      ...demo.recoveryCodes.map((code) => code.replace(/-/g, '')),
      ...hashes.map((row) => row.codeHash),
      PASSKEY_SECRET,
      CLIENT_SECRET_HASH,
    ];
    expect(forbidden.length).toBeGreaterThan(15);
    for (const secret of forbidden) expect(raw).not.toContain(secret);
    expect(raw).not.toMatch(/password_?hash|sealed|codeHash|tokenHash|secret/i);
  });

  it('holds nothing of another customer, and theirs nothing of the demo customer (ASVS 8.2.2)', async () => {
    const { raw, page } = await pageOf(OTHER);
    expect(page.TokenBalance).toBe(777);
    expect(page.Licences.map((l) => [l.Product, l.Devices.map((d) => d.Name)])).toEqual([
      ['sid-reference', ['Other PC']],
    ]);
    expect(page.Audit.map((e) => e.Action)).toEqual(['AdminGrantTokens']);
    expect(page.Mails.map((m) => m.Subject)).toEqual(['Verify your email address for My SoundID']);
    for (const ours of [demo.id, DEMO_EMAIL, 'inv_DemoPaid_1', '#1001', 'Studio iMac', 'T-9', 'Studio laptop']) {
      expect(raw).not.toContain(ours);
    }
    const { raw: demoRaw } = await pageOf(DEMO_EMAIL);
    for (const theirs of [OTHER, 'Other PC', 'other goodwill']) expect(demoRaw).not.toContain(theirs);
  });

  it('is refused to admin (403, audited) and unknown addresses are UserNotFound', async () => {
    const admin = await t.operatorToken(['admin']);
    const refused = await t.app.inject({
      url: `/api/admin/user?email=${encodeURIComponent(DEMO_EMAIL)}`,
      headers: { authorization: `Bearer ${admin}` },
    });
    expect([refused.statusCode, refused.json().Fault.ExceptionName]).toEqual([403, 'OperatorForbidden']);
    const missing = await t.app.inject({
      url: '/api/admin/user?email=nobody@example.com',
      headers: { authorization: `Bearer ${support}` },
    });
    expect(missing.json().Fault.ExceptionName).toBe('UserNotFound');
  });
});
