import { DEVICE_DEACTIVATION_LIMIT, LOGIN_MAX_FAILED_ATTEMPTS } from '@soundid/contracts';
import { desc } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { auditEntries } from '../../db/operators-schema';
import { activate, issueKey, licenceList } from '../licences/test-helpers';

/**
 * The everyday support tickets (ADR 0044), each done by a support operator with a reason and
 * leaving an audit entry about its customer (ADR 0045): a locked account, a lost verification
 * mail, a session to end, a deactivation past the allowance, a licence on the wrong account.
 * Finance and admin roles are refused them (deny by default). Every test makes its customers.
 */
let t: TestApp;
let support: string;
beforeAll(async () => {
  t = await createTestApp();
  support = await t.operatorToken(['support']);
});
afterAll(() => t.close());

let made = 0;
const newEmail = (name: string) => `${name}-${++made}@example.com`;
const PRODUCT = 'SoundIDReference';

const ticket = (path: string, body: object, token = support) =>
  t.app.inject({
    method: 'POST',
    url: `/api/admin/${path}`,
    payload: body,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
  });
const lastAudit = async () =>
  (await t.database.db.select().from(auditEntries).orderBy(desc(auditEntries.seq)).limit(1))[0];
const login = (email: string, password = PASSWORD) =>
  t.call('/api/accounts/LoginByEmail', { email, password, keepMeSignedIn: true });
const customerView = async (email: string) =>
  (
    await t.app.inject({
      url: `/api/admin/user?email=${encodeURIComponent(email)}`,
      headers: { authorization: `Bearer ${support}` },
    })
  ).json().Result;

describe('support tickets (ASVS 8.2.1, 16.2.1)', () => {
  it('a locked account: support sees the lock and lifts it', async () => {
    const email = newEmail('locked');
    await signUpVerified(t, email);
    for (let i = 0; i < LOGIN_MAX_FAILED_ATTEMPTS; i++) await login(email, 'wrong password here');
    expect(faultOf(await login(email))).toBe('AttemptOverLimitLogin');
    expect((await customerView(email)).SignInLocked).toBe(true);

    const missingReason = await ticket('unlock-sign-in', { email });
    expect(missingReason.statusCode).toBe(400);
    expect(faultOf(await login(email))).toBe('AttemptOverLimitLogin');

    const unlocked = await ticket('unlock-sign-in', { email, reason: 'ticket S-1: customer locked out' });
    expect(unlocked.json().Result).toEqual({ WasLocked: true });
    expect((await login(email)).statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({
      action: 'AdminUnlockSignIn',
      customerEmail: email,
      before: { locked: true },
      after: { locked: false },
      reason: 'ticket S-1: customer locked out',
      roles: ['support'],
    });
  });

  it('a lost verification mail: support sends a new link that verifies', async () => {
    const email = newEmail('unverified');
    await t.call('/api/accounts/register', { email, password: PASSWORD });
    const before = (await t.mailsTo(email)).length;
    const sent = await ticket('resend-verification', { email, reason: 'ticket S-2: mail never arrived' });
    expect(sent.json().Result).toEqual({ Sent: true });
    expect((await t.mailsTo(email)).length).toBe(before + 1);
    const verified = await t.call('/api/accounts/VerifyEmail', { token: await t.lastLinkToken(email) });
    expect(verified.statusCode).toBe(200);
    const again = await ticket('resend-verification', { email, reason: 'ticket S-2 again' });
    expect(again.json().Result).toEqual({ Sent: false });
    expect(await lastAudit()).toMatchObject({ action: 'AdminResendVerification', after: { alreadyVerified: true } });
  });

  it('ends every session of a customer', async () => {
    const email = newEmail('sessions');
    const token = await signUpVerified(t, email);
    await login(email);
    const ended = await ticket('end-customer-sessions', { email, reason: 'ticket S-3: laptop stolen' });
    expect(ended.json().Result).toEqual({ SessionsEnded: 2 });
    expect((await t.call('/api/accounts/LoginByToken', {}, token)).statusCode).toBe(401);
    expect(await lastAudit()).toMatchObject({ action: 'AdminEndCustomerSessions', before: { liveSessions: 2 } });
  });

  it('a deactivation past the allowance: support ends it without spending the allowance', async () => {
    const email = newEmail('over-limit');
    const token = await signUpVerified(t, email);
    const key = await issueKey(t, 'sid-reference');
    await t.call('/api/accounts/RegisterKey', { key }, token);
    const deactivateApp = (machineId: string) =>
      t.call('/api/apps/DeactivateDevice', { productName: PRODUCT, machineId }, token);
    // One deactivation short of the allowance.
    for (let i = 0; i < DEVICE_DEACTIVATION_LIMIT - 1; i++) {
      t.clock.advanceMinutes(1);
      await activate(t, token, PRODUCT, `spent-${i}`);
      expect((await deactivateApp(`spent-${i}`)).statusCode).toBe(200);
    }
    await activate(t, token, PRODUCT, 'lost-laptop', 'Lost laptop');
    await activate(t, token, PRODUCT, 'old-laptop', 'Old laptop');

    const device = (await customerView(email)).Devices.find((d: { Name: string }) => d.Name === 'Lost laptop');
    const done = await ticket('deactivate-device', { deviceId: device.Id, reason: 'ticket S-4: laptop lost' });
    expect(done.json().Result).toEqual({ Device: 'Lost laptop', Product: 'sid-reference', Customer: email });
    expect((await customerView(email)).Devices.map((d: { Name: string }) => d.Name)).toEqual(['Old laptop']);
    // Not counted: the customer still has the last deactivation of the allowance, and no more.
    expect((await deactivateApp('old-laptop')).statusCode).toBe(200);
    await activate(t, token, PRODUCT, 'new-laptop');
    expect(faultOf(await deactivateApp('new-laptop'))).toBe('KeyRevokeOverLimit');
    // Past the allowance, support still can.
    const next = (await customerView(email)).Devices.find((d: { Name: string }) => d.Name === 'Studio Mac');
    expect((await ticket('deactivate-device', { deviceId: next.Id, reason: 'ticket S-4b' })).statusCode).toBe(200);
    expect(await lastAudit()).toMatchObject({
      action: 'AdminDeactivateDevice',
      customerEmail: email,
      before: { active: true },
      after: { active: false, counted: false },
    });
    expect(faultOf(await ticket('deactivate-device', { deviceId: device.Id, reason: 'again' }))).toBe('DeviceNotFound');
  });

  it('a licence on the wrong account: support moves the key, even with that account past its allowance', async () => {
    const wrong = newEmail('bought-under-work-address');
    const right = newEmail('personal-address');
    const wrongToken = await signUpVerified(t, wrong);
    const rightToken = await signUpVerified(t, right);
    const key = await issueKey(t, 'sid-reference');
    await t.call('/api/accounts/RegisterKey', { key }, wrongToken);
    // The wrong account spent the whole allowance: the customer could not remove the key now.
    for (let i = 0; i < DEVICE_DEACTIVATION_LIMIT; i++) {
      t.clock.advanceMinutes(1);
      await activate(t, wrongToken, PRODUCT, `used-${i}`);
      await t.call('/api/apps/DeactivateDevice', { productName: PRODUCT, machineId: `used-${i}` }, wrongToken);
    }
    await activate(t, wrongToken, PRODUCT, 'work-mac');

    const moved = await ticket('move-licence', { key, toEmail: right, reason: 'ticket S-5: bought with work address' });
    expect(moved.json().Result).toEqual({ Product: 'sid-reference', From: wrong, To: right });
    expect((await licenceList(t, wrongToken)).ReferenceProducts.Products).toEqual([]);
    expect((await licenceList(t, rightToken)).ReferenceProducts.Products).toHaveLength(1);
    expect((await customerView(wrong)).Devices).toEqual([]);
    expect(await lastAudit()).toMatchObject({
      action: 'AdminMoveLicence',
      customerEmail: right,
      before: { owner: wrong, product: 'sid-reference' },
      after: { owner: right },
    });
    const twice = await ticket('move-licence', { key, toEmail: right, reason: 'again' });
    expect(faultOf(twice)).toBe('KeyAlreadyExisting');
    expect(faultOf(await ticket('move-licence', { key, toEmail: 'nobody@example.com', reason: 'x y z' }))).toBe(
      'UserNotFound',
    );
  });

  it('refuses the tickets to finance and admin, and audits the refusal', async () => {
    for (const role of ['finance', 'admin'] as const) {
      const other = await t.operatorToken([role]);
      const res = await ticket('unlock-sign-in', { email: 'anyone@example.com', reason: 'not my job' }, other);
      expect([res.statusCode, faultOf(res)]).toEqual([403, 'OperatorForbidden']);
      expect(await lastAudit()).toMatchObject({ action: 'AdminUnlockSignIn', outcome: 'denied', roles: [role] });
    }
  });
});
