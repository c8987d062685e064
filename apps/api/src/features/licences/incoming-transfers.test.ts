import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, freshSession, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { licenceList, ownKey, signIn } from './test-helpers';

/**
 * Offers waiting for an address that signed up after the mail (docs/decisions/0054-licence-transfer.md,
 * addendum): listed on Licenses & Devices for the verified address and accepted by their id, with
 * the link's rules; another customer's offer is not found by its id (ASVS 8.2.2).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const incoming = (token: string) => t.call('/api/licenses/GetIncomingLicenceTransfers', {}, token);
const acceptById = (token: string, transferId: string) =>
  t.call('/api/licenses/AcceptIncomingLicenceTransfer', { transferId }, token);

/** An owner (a fresh password sign-in: the offer's step-up) with one Reference key offered to `to`. */
async function offered(from: string, to: string) {
  await signUpVerified(t, from);
  const token = await signIn(t, from);
  const key = await ownKey(t, token, 'sid-reference');
  const res = await t.call('/api/licenses/StartLicenceTransfer', { key, email: to }, token);
  if (res.statusCode !== 200) throw new Error(res.body);
  return { token, key, transferId: res.json().Result.TransferId as string };
}

describe('offers to an address that signs up after the mail', () => {
  it('lists the open offer once the address is verified and takes the key by its id', async () => {
    const { token: ownerToken, transferId } = await offered('inc.from@example.com', 'Inc.To@Example.com');
    const [mail] = await t.mailsTo('inc.to@example.com');
    expect(mail?.Text).toContain('Once you have signed up, the offer also waits for you on Licenses & Devices.');
    // Signed up, not yet verified: nothing is listed, nothing taken (the address is not proven yet).
    // Such an account cannot sign in; a session is issued directly to prove the service's own check.
    const registered = await t.call('/api/accounts/register', { email: 'inc.to@example.com', password: PASSWORD });
    expect(registered.statusCode).toBe(201);
    const unverified = await freshSession(t, 'inc.to@example.com');
    expect((await incoming(unverified)).json().Result).toEqual({ Offers: [] });
    expect(faultOf(await acceptById(unverified, transferId))).toBe('TransferFailedUserEmailNotVerified');

    const verified = await t.call('/api/accounts/VerifyEmail', { token: await t.lastLinkToken('inc.to@example.com') });
    const token = verified.json().Token as string;
    const listed = (await incoming(token)).json().Result.Offers;
    expect(listed).toEqual([
      {
        TransferId: transferId,
        DisplayName: 'SoundID Reference for Speakers & Headphones',
        ProductName: 'SoundIDReference',
        FormattedKey: expect.stringMatching(/^\*{6}-\*{6}-\*{6}-[0-9A-Z]{6}$/),
        FromEmail: expect.stringMatching(/^i\*+@/),
        ExpiresAt: expect.stringMatching(/^\/Date\(\d+\)\/$/),
      },
    ]);

    const accepted = await acceptById(token, transferId);
    expect(accepted.statusCode).toBe(200);
    expect(accepted.json().Result.FormattedKey).toBe(listed[0].FormattedKey);
    expect((await licenceList(t, token)).ReferenceProducts.Products[0].LicenseKeys).toHaveLength(1);
    expect((await licenceList(t, ownerToken)).ReferenceProducts.Products).toHaveLength(0);
    // Accepted: no longer listed, and a second accept is refused.
    expect((await incoming(token)).json().Result).toEqual({ Offers: [] });
    expect(faultOf(await acceptById(token, transferId))).toBe('LicenceTransferNotPending');
  });

  it("does not show or take another address's offer, a cancelled one or an expired one (ASVS 8.2.2)", async () => {
    const a = await offered('inc.a@example.com', 'inc.b@example.com');
    const stranger = await signUpVerified(t, 'inc.stranger@example.com');
    expect((await incoming(stranger)).json().Result).toEqual({ Offers: [] });
    const foreign = await acceptById(stranger, a.transferId);
    expect(foreign.statusCode).toBe(404);
    expect(faultOf(foreign)).toBe('LicenceTransferNotFound');

    const b = await signUpVerified(t, 'inc.b@example.com');
    expect((await incoming(b)).json().Result.Offers).toHaveLength(1);
    await t.call('/api/licenses/CancelLicenceTransfer', { transferId: a.transferId }, a.token);
    expect((await incoming(b)).json().Result).toEqual({ Offers: [] });
    expect(faultOf(await acceptById(b, a.transferId))).toBe('LicenceTransferNotPending');

    const c = await offered('inc.c@example.com', 'inc.d@example.com');
    const d = await signUpVerified(t, 'inc.d@example.com');
    t.clock.advanceHours(7 * 24 + 1);
    expect((await incoming(d)).json().Result).toEqual({ Offers: [] });
    expect(faultOf(await acceptById(d, c.transferId))).toBe('LicenceTransferExpired');
  });

  it('refuses a malformed id with a clear Fault and changes nothing', async () => {
    const token = await signUpVerified(t, 'inc.bad@example.com');
    const res = await acceptById(token, 'not-an-id');
    expect(res.statusCode).toBe(400);
    expect(faultOf(res)).toBe('RequestInvalid');
  });
});
