import { DATA_EXPORT_FORMAT, DATA_EXPORT_MAX_PER_HOUR, type DataExport, dataExportResults } from '@soundid/contracts';
import { and, eq, isNull } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, freshSession, signUpVerified } from '../../../test/accounts-flow';
import { addGrantedOrder, addPasskey, addRefundedPayment, turnOnTotp } from '../../../test/customer-fixture';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import {
  campaignSerials,
  devices,
  keyDeactivations,
  licences,
  licenseKeys,
  upgradeCodes,
} from '../../db/licences-schema';
import { paymentMismatches } from '../../db/payments-schema';
import { mailLog, mailOutbox, sessions as sessionsTable, socialAccounts, users } from '../../db/schema';
import { recoveryCodes, totpFactors } from '../../db/second-factor-schema';
import { storefrontOrderRefunds } from '../../db/storefront-schema';
import { tokenLots, tokenSpendAllocations, tokenSpends } from '../../db/voice-ai-schema';
import { DEMO_EMAIL, seedDemoData } from '../../dev/demo-seed';
import { addDays } from '../../lib/clock';
import { seenDeviceHash } from './device-sighting';
import { findUserByEmail } from './users-repo';

/**
 * The customer's data export and the pre-deletion summary (ADR 0038): the demo customer, given
 * a row in every table the export reads, finds each in its section, no secret anywhere, and
 * nothing of another customer.
 */
let t: TestApp;
let demo: { id: string; token: string; totpSecret: string; recoveryCodes: string[] };
let other: { id: string; email: string; token: string };
const CLIENT_SECRET_HASH = 'c'.repeat(64);
const PASSKEY_SECRET = 'passkey-not-exported';
/** A browser's device cookie (ADR 0041): neither it nor its hash is exported. */
const BROWSER_SIGHTING = {
  kind: 'browser' as const,
  identity: 'device-cookie-not-exported-0123456789abcdef',
  label: 'Chrome on macOS',
};

beforeAll(async () => {
  t = await createTestApp();
  const { db } = t.database;
  const lines = await seedDemoData({ db, clock: t.clock, random: t.services.random, licences: t.services.licences });
  expect(lines).toBeDefined();
  const user = await findUserByEmail(db, DEMO_EMAIL);
  if (!user) throw new Error('no demo customer');
  const token = await freshSession(t, DEMO_EMAIL);
  const now = t.clock.now();

  // Two-step verification on, one recovery code used.
  const totp = await turnOnTotp(t, token, user.id);

  // The VoiceAI machine reported stolen (ADR 0050): its report is the customer's data too.
  const [voiceMachine] = await db
    .select({ id: devices.id })
    .from(devices)
    .innerJoin(licences, eq(licences.id, devices.licenceId))
    .where(and(eq(devices.userId, user.id), eq(licences.productCode, 'voice-ai'), isNull(devices.deactivatedAt)));
  await t.services.lostMachines.report(user.id, {
    deviceId: voiceMachine?.id as string,
    reason: 'stolen',
    note: 'police report 7',
  });

  // A passkey: its name and times are the customer's; its credential and key are not exported.
  await addPasskey(db, user.id, PASSKEY_SECRET, now);

  // A second session, ended.
  const ended = await t.services.sessions.issue(db, user.id, false, {
    userAgent: 'SoundID Reference/5.2',
    ip: '203.0.113.9',
    device: BROWSER_SIGHTING,
  });
  await db.update(sessionsTable).set({ revokedAt: now }).where(eq(sessionsTable.id, ended.sessionId));
  await db.insert(socialAccounts).values({ userId: user.id, provider: 'google', subject: 'g-123', email: DEMO_EMAIL });

  // A deactivation charged to the Reference key, an upgrade code used, a campaign serial claimed.
  const [refKey] = await db
    .select()
    .from(licenseKeys)
    .where(and(eq(licenseKeys.userId, user.id), eq(licenseKeys.productCode, 'sid-reference')));
  const [device] = await db.select().from(devices).where(eq(devices.userId, user.id)).limit(1);
  await db
    .update(devices)
    .set({ deactivatedAt: now, deactivationCause: 'customer' })
    .where(eq(devices.id, device?.id ?? ''));
  await db
    .insert(keyDeactivations)
    .values({ keyId: refKey?.id ?? '', deviceId: device?.id ?? '', deactivatedAt: now, cause: 'customer' });
  await db
    .update(upgradeCodes)
    .set({ usedAt: now, usedByUserId: user.id, usedOnKeyId: refKey?.id ?? null })
    .where(eq(upgradeCodes.targetProductCode, 'sid-reference-hp'));
  await db
    .update(campaignSerials)
    .set({ claimedAt: now, claimedByUserId: user.id })
    .where(eq(campaignSerials.serial, 'ADAM-DEMO-000001'));
  await db
    .update(licences)
    .set({ trialStartedAt: now, trialEndsAt: addDays(now, 60), trialSource: 'campaign' })
    .where(and(eq(licences.userId, user.id), eq(licences.productCode, 'sid-reference')));

  // Tokens: a live lot, an expired one, a spend paid from the live one.
  const [live] = await db
    .insert(tokenLots)
    .values({
      userId: user.id,
      amount: 1000,
      remaining: 900,
      cause: 'purchase',
      sourceRef: 'pi_demo_1',
      purchasedAt: addDays(now, -3),
      expiresAt: addDays(now, 362),
    })
    .returning();
  await db.insert(tokenLots).values({
    userId: user.id,
    amount: 50,
    remaining: 50,
    cause: 'trial',
    sourceRef: 'trial-demo',
    purchasedAt: addDays(now, -400),
    expiresAt: addDays(now, -35),
  });
  const [spend] = await db
    .insert(tokenSpends)
    .values({ userId: user.id, requestId: 'req-demo-1', millis: 12_000, tokens: 100, balanceAfter: 900, spentAt: now })
    .returning();
  await db
    .insert(tokenSpendAllocations)
    .values({ spendId: spend?.id ?? '', lotId: live?.id ?? '', userId: user.id, tokens: 100, spentAt: now });

  // A paid checkout partly refunded, and a mismatched payment.
  await addRefundedPayment(db, {
    userId: user.id,
    invoiceTag: 'inv-demo-1',
    paymentIntentId: 'pi_demo_1',
    clientSecretHash: CLIENT_SECRET_HASH,
    now,
  });
  await db.insert(paymentMismatches).values({
    provider: 'sandbox',
    eventId: 'evt_demo_2',
    invoiceTag: 'inv-demo-2',
    userId: user.id,
    expectedAmountInCents: 1999,
    expectedCurrency: 'EUR',
    receivedAmountInCents: 999,
    receivedCurrency: 'EUR',
    recordedAt: now,
  });

  // A storefront order with its key and a refund.
  await addGrantedOrder(db, { orderId: '820982911946154508', email: DEMO_EMAIL, userId: user.id, now });
  await db
    .insert(storefrontOrderRefunds)
    .values({ orderId: '820982911946154508', refundId: '5001', quantity: 0, receivedAt: now });

  // A mail as the dev outbox keeps it (bodies and all) and its record, which the export reads.
  await db
    .insert(mailOutbox)
    .values({ to: DEMO_EMAIL, subject: 'Welcome to My SoundID', text: 'secret body', html: '<p>secret body</p>' });
  await db.insert(mailLog).values({
    to: DEMO_EMAIL,
    subject: 'Welcome to My SoundID',
    outcome: 'sent',
    createdAt: now,
    sentAt: now,
  });

  demo = { id: user.id, token, totpSecret: totp.secret, recoveryCodes: totp.recoveryCodes };

  // Another customer with rows of their own in the same tables.
  const otherEmail = 'other-customer@example.com';
  const otherToken = await signUpVerified(t, otherEmail);
  const otherUser = await findUserByEmail(db, otherEmail);
  if (!otherUser) throw new Error('no other customer');
  await db.insert(tokenLots).values({
    userId: otherUser.id,
    amount: 777,
    remaining: 777,
    cause: 'grant',
    sourceRef: 'grant-other',
    purchasedAt: now,
    expiresAt: addDays(now, 30),
  });
  await db.insert(socialAccounts).values({ userId: otherUser.id, provider: 'apple', subject: 'apple-other-999' });
  other = { id: otherUser.id, email: otherEmail, token: otherToken };
});
afterAll(() => t.close());

const exportOf = async (token: string) => {
  const res = await t.call('/api/accounts/ExportMyData', {}, token);
  expect(res.statusCode).toBe(200);
  return { raw: res.body, data: res.json().Result as DataExport };
};

describe('ExportMyData', () => {
  it('gives every section of the demo customer with its rows, in the contract’s shape', async () => {
    const { data } = await exportOf(demo.token);
    expect(dataExportResults.ExportMyData.parse(data)).toBeTruthy();
    expect(data.Format).toBe(DATA_EXPORT_FORMAT);
    expect(data.Profile).toMatchObject({ Id: demo.id, Email: DEMO_EMAIL });
    expect(data.SignInMethods).toEqual({
      HasPassword: true,
      LinkedIdentities: [expect.objectContaining({ Provider: 'google', Subject: 'g-123', Email: DEMO_EMAIL })],
      Passkeys: [{ Name: 'Studio laptop', CreatedAt: expect.any(String), LastUsedAt: null, BackedUp: true }],
      TwoStepVerification: expect.objectContaining({ Enabled: true, RecoveryCodesLeft: 9 }),
    });
    expect(data.Sessions).toHaveLength(2);
    expect(data.Sessions.filter((s) => s.EndedAt === null)).toHaveLength(1);
    expect(data.Sessions.find((s) => s.EndedAt !== null)).toMatchObject({
      UserAgent: 'SoundID Reference/5.2',
      IpAddress: '203.0.113.9',
      KeepMeSignedIn: false,
    });
    expect(data.SeenDevices).toEqual([
      {
        Device: 'Chrome on macOS',
        Kind: 'browser',
        FirstSeenAt: expect.any(String),
        LastSeenAt: expect.any(String),
        LastIpAddress: '203.0.113.9',
        SignIns: 1,
      },
    ]);
    expect(data.Licences.map((l) => l.Product).sort()).toEqual(['ref4-hp', 'sid-reference', 'voice-ai']);
    expect(data.Licences.find((l) => l.Product === 'sid-reference')?.TrialSource).toBe('campaign');
    expect(data.Keys.map((k) => k.Product).sort()).toEqual(['ref4-hp', 'sid-reference', 'voice-ai', 'voice-pack-pop']);
    for (const key of data.Keys) expect(key.Key).toMatch(/^[A-Z0-9]{6}(-[A-Z0-9]{6}){3}$/);
    expect(data.Keys.find((k) => k.Product === 'sid-reference')?.Deactivations).toEqual([
      expect.objectContaining({ Cause: 'customer' }),
    ]);
    expect(data.Devices).toHaveLength(3);
    expect(data.Devices.filter((d) => d.DeactivatedAt !== null)).toHaveLength(2);
    expect(data.Devices.find((d) => d.DeactivationCause === 'lost')?.LostReport).toEqual({
      Reason: 'stolen',
      Note: 'police report 7',
      ReportedAt: expect.any(String),
      UndoneAt: null,
    });
    expect(data.Devices.map((d) => d.Name)).toContain('Studio iMac');
    expect(data.Upgrades).toEqual([
      expect.objectContaining({ TargetProduct: 'sid-reference-hp', FromProducts: ['ref4-hp'] }),
    ]);
    expect(data.CampaignClaims).toEqual([expect.objectContaining({ Serial: 'ADAM-DEMO-000001' })]);
    expect(data.TokenLots.map((l) => [l.Amount, l.Remaining])).toEqual([
      [50, 50],
      [1000, 900],
    ]);
    const liveLot = data.TokenLots.find((l) => l.Amount === 1000);
    expect(data.TokenSpends).toEqual([
      expect.objectContaining({
        RequestId: 'req-demo-1',
        Tokens: 100,
        PaidFrom: [{ LotId: liveLot?.Id, Tokens: 100 }],
      }),
    ]);
    expect(data.Checkouts).toEqual([
      expect.objectContaining({
        Bundle: '1000 tokens',
        PaymentId: 'pi_demo_1',
        Status: 'succeeded',
        AnalyticsMetadata: { gclid: 'abc' },
        Refund: expect.objectContaining({ RefundedInCents: 500, Currency: 'EUR' }),
      }),
    ]);
    expect(data.PaymentMismatches).toEqual([expect.objectContaining({ ReceivedAmountInCents: 999 })]);
    expect(data.StorefrontOrders).toEqual([
      expect.objectContaining({
        Name: '#1001',
        Keys: [expect.objectContaining({ Position: 1, RevokedAt: null })],
        Refunds: [expect.objectContaining({ Quantity: 0 })],
      }),
    ]);
    expect(data.Mails.map((m) => m.Subject)).toContain('Welcome to My SoundID');
    expect(Object.keys(data.Mails[0] ?? {}).sort()).toEqual(['CreatedAt', 'SentAt', 'Subject']);
    expect(data.DeletionSummary.UnspentTokens).toEqual([{ Tokens: 900, ExpiresAt: expect.any(String) }]);
  });

  it('holds no secret: no session token, TOTP secret, recovery code, password or other hash, mail body', async () => {
    const { raw } = await exportOf(demo.token);
    const { db } = t.database;
    const [user] = await db.select().from(users).where(eq(users.id, demo.id));
    const [factor] = await db.select().from(totpFactors).where(eq(totpFactors.userId, demo.id));
    const hashes = await db.select().from(recoveryCodes).where(eq(recoveryCodes.userId, demo.id));
    const forbidden = [
      demo.token,
      ...demo.token.split('.'),
      demo.totpSecret,
      factor?.sealedSecret ?? 'no factor',
      user?.passwordHash ?? 'no hash',
      '$argon2',
      CLIENT_SECRET_HASH,
      'secret body',
      ...demo.recoveryCodes,
      ...demo.recoveryCodes.map((code) => code.replace(/-/g, '')),
      ...hashes.map((row) => row.codeHash),
      PASSKEY_SECRET,
      BROWSER_SIGHTING.identity,
      seenDeviceHash(demo.id, BROWSER_SIGHTING),
    ];
    for (const secret of forbidden) expect(raw).not.toContain(secret);
    expect(raw).not.toMatch(/password_?hash|sealed|codeHash|tokenHash|deviceHash/i);
  });

  it('holds nothing of another customer, and theirs nothing of the demo customer', async () => {
    const { raw } = await exportOf(demo.token);
    for (const theirs of [other.id, other.email, 'apple-other-999', 'grant-other']) expect(raw).not.toContain(theirs);
    const { raw: otherRaw, data } = await exportOf(other.token);
    expect(data.Profile.Email).toBe(other.email);
    expect(data.TokenLots.map((l) => l.Amount)).toEqual([777]);
    expect(data.SignInMethods.LinkedIdentities.map((i) => i.Subject)).toEqual(['apple-other-999']);
    for (const ours of [demo.id, DEMO_EMAIL, 'g-123', 'pi_demo_1', '#1001', 'Studio iMac', 'ADAM-DEMO']) {
      expect(otherRaw).not.toContain(ours);
    }
  });

  it('lists the mails sent before an e-mail change to the earlier address; a later holder of that address gets none of them (ASVS 8.2.2)', async () => {
    const first = 'mover@example.com';
    const token = await signUpVerified(t, first);
    await t.call('/api/accounts/InitiatePasswordReset', { email: first });
    expect((await t.mailsTo(first)).map((m) => m.Subject)).toHaveLength(2); // the reset goes out after the answer
    const changed = await t.call('/api/accounts/ChangeEmail', { newEmail: 'mover.new@example.com' }, token);
    expect(changed.json().Success).toBe(true);
    const link = await t.lastLinkToken('mover.new@example.com');
    expect((await t.call('/api/accounts/VerifyEmailChange', { token: link })).statusCode).toBe(200);

    const { data } = await exportOf(await freshSession(t, 'mover.new@example.com'));
    expect(data.Mails.map((m) => m.Subject)).toEqual([
      'Verify your email address for My SoundID',
      'Reset your My SoundID password',
      'Confirm your new email address for My SoundID',
    ]);
    // The freed address signed up again is another account: its export has its own mail only.
    const { data: theirs } = await exportOf(await signUpVerified(t, first));
    expect(theirs.Mails.map((m) => m.Subject)).toEqual(['Verify your email address for My SoundID']);
  });

  it('needs a session', async () => {
    const res = await t.call('/api/accounts/ExportMyData', {});
    expect(faultOf(res)).toBe('SecurityAuthTokenNotPassed');
  });

  it(`allows ${DATA_EXPORT_MAX_PER_HOUR} exports an hour per account, then AttemptOverLimitDataExport until the hour is over`, async () => {
    const email = 'limited@example.com';
    const token = await signUpVerified(t, email);
    for (let i = 0; i < DATA_EXPORT_MAX_PER_HOUR; i++) {
      expect((await t.call('/api/accounts/ExportMyData', {}, token)).statusCode).toBe(200);
    }
    const refused = await t.call('/api/accounts/ExportMyData', {}, token);
    expect(refused.statusCode).toBe(429);
    expect(faultOf(refused)).toBe('AttemptOverLimitDataExport');
    expect(refused.json().Fault.ExceptionType).toBe(40);
    // Another account is not held back by this one's count.
    expect((await t.call('/api/accounts/ExportMyData', {}, await freshSession(t, other.email))).statusCode).toBe(200);
    t.clock.advanceMinutes(61);
    expect((await t.call('/api/accounts/ExportMyData', {}, await freshSession(t, email))).statusCode).toBe(200);
  });
});

describe('GetDeletionSummary', () => {
  it('lists the products held (keys, a running trial) and the unspent tokens with their expiry', async () => {
    const res = await t.call('/api/accounts/GetDeletionSummary', {}, demo.token);
    expect(res.statusCode).toBe(200);
    const summary = res.json().Result;
    expect(dataExportResults.GetDeletionSummary.parse(summary)).toBeTruthy();
    expect(summary.Licences.map((l: { Product: string }) => l.Product).sort()).toEqual([
      'ref4-hp',
      'sid-reference',
      'voice-ai',
      'voice-pack-pop',
    ]);
    const reference = summary.Licences.find((l: { Product: string }) => l.Product === 'sid-reference');
    expect(reference).toEqual(expect.objectContaining({ Keys: 1, TrialEndsAt: expect.any(String) }));
    // The expired lot is not lost by a deletion: it is already gone.
    expect(summary.UnspentTokens).toEqual([{ Tokens: 900, ExpiresAt: expect.any(String) }]);
  });

  it('is empty for a new customer', async () => {
    const token = await signUpVerified(t, 'newcomer@example.com');
    const res = await t.call('/api/accounts/GetDeletionSummary', {}, token);
    expect(res.json().Result).toEqual({ Licences: [], UnspentTokens: [] });
  });
});
