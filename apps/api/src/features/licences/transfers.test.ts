import {
  DEVICE_DEACTIVATION_LIMIT,
  LICENCE_TRANSFER_INTERVAL_DAYS,
  LICENCE_TRANSFER_OFFER_DAYS,
  STEP_UP_WINDOW_MINUTES,
} from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, freshSession, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import {
  activate,
  adminCall,
  DAY_HOURS,
  getAction,
  issueUpgradeCode,
  licenceList,
  ownKey,
  signIn,
} from './test-helpers';

/**
 * Passing a licence on (docs/decisions/0054-licence-transfer.md): the owner's offer, the
 * recipient's acceptance, the limits (ASVS 2.3.2 business logic limits), the recipient's
 * identity (ASVS 8.2.2) and accept against cancel (ASVS 2.3.4). Same file on PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const product = 'SoundIDReference';
const start = (token: string, key: string, email: string) =>
  t.call('/api/licenses/StartLicenceTransfer', { key, email }, token);
const cancel = (token: string, transferId: string) =>
  t.call('/api/licenses/CancelLicenceTransfer', { transferId }, token);
const accept = (token: string, linkToken: string) =>
  t.call('/api/licenses/AcceptLicenceTransfer', { token: linkToken }, token);
const describeOffer = (token: string, linkToken: string) =>
  t.call('/api/licenses/GetLicenceTransfer', { token: linkToken }, token);
const reference = async (token: string) => (await licenceList(t, token)).ReferenceProducts.Products[0];
const allowance = async (token: string) =>
  (await t.call('/api/licenses/GetDeactivationAllowance', { productName: product }, token)).json().Result;

/** A signed-in customer (a password sign-in: a fresh proof of presence) holding `keys` Reference keys. */
async function owner(email: string, keys = 1) {
  await signUpVerified(t, email);
  const token = await signIn(t, email);
  const owned: string[] = [];
  for (let i = 0; i < keys; i++) owned.push(await ownKey(t, token, 'sid-reference'));
  return { token, keys: owned };
}

/** An offer made and its mailed link's token. */
async function offer(token: string, key: string, to: string) {
  const res = await start(token, key, to);
  if (res.statusCode !== 200) throw new Error(res.body);
  return { transferId: res.json().Result.TransferId as string, link: await t.lastLinkToken(to) };
}

const rows = async (query: ReturnType<typeof sql>) =>
  ((await t.database.db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const keyOwner = async (key: string) =>
  (
    await rows(
      sql`select u.email from license_keys k join users u on u.id = k.user_id where k.key = ${key.replaceAll('-', '')}`,
    )
  )[0]?.email;

describe('passing a licence on', () => {
  it('moves the key with its history to the recipient; the owner keeps the seats their other key holds; both are mailed', async () => {
    const from = await owner('pass.from@example.com', 2);
    // Six seats, six machines, then five: one deactivation the customer's own, charged to both keys (ADR 0030).
    // A second apart each (so that the newest are known), within the sign-in's proof of presence.
    for (let i = 1; i <= 6; i++) {
      expect((await activate(t, from.token, product, `pass-m${i}`, `M${i}`)).statusCode).toBe(200);
      t.clock.advanceMinutes(1 / 60);
    }
    const first = (await reference(from.token)).Devices[0].DeviceId;
    expect((await getAction(t, `/api/actions/devices/${first}/deactivate`, from.token)).statusCode).toBe(200);
    expect((await reference(from.token)).InstancesUsed).toBe(5);

    const to = 'pass.to@example.com';
    const res = await start(from.token, from.keys[1] as string, ' Pass.To@Example.com ');
    expect(res.statusCode).toBe(200);
    expect(res.json().Result).toMatchObject({
      Email: to,
      Message: `We emailed ${to} a link to accept this license. The offer is valid for ${LICENCE_TRANSFER_OFFER_DAYS} days; until then you can cancel it.`,
    });
    // The licence card shows the pending offer on its key (an optional field).
    const card = await reference(from.token);
    const offered = card.LicenseKeys.filter((k: { Transfer?: object }) => k.Transfer);
    expect(offered).toHaveLength(1);
    expect(offered[0].FormattedKey).toBe(`******-******-******-${(from.keys[1] as string).slice(-6)}`);
    expect(offered[0].Transfer).toMatchObject({ Email: to, ExpiresAt: expect.stringMatching(/^\/Date\(\d+\)\/$/) });
    const [mail] = await t.mailsTo(to);
    expect(mail?.Subject).toBe('A SoundID Reference for Speakers & Headphones license is offered to you');
    expect(mail?.Text).toContain('p***@e***.com');
    expect(mail?.Links[0]).toMatch(/\/license-transfer\/[A-Za-z0-9_-]{43}$/);
    const link = await t.lastLinkToken(to);
    // The token is kept only as its hash (ASVS 6.4.1 style: a leaked table grants nothing).
    expect(await rows(sql`select id from licence_transfers where token_hash = ${link}`)).toEqual([]);

    // The recipient signs up with the address after the offer, then opens the link.
    const recipient = await signUpVerified(t, to);
    expect((await describeOffer(recipient, link)).json().Result).toMatchObject({
      DisplayName: 'SoundID Reference for Speakers & Headphones',
      FromEmail: 'p***@e***.com',
      ToEmail: 'p***@e***.com',
      State: 'pending',
    });
    const accepted = await accept(recipient, link);
    expect(accepted.json()).toMatchObject({
      Success: true,
      Result: { Message: 'SoundID Reference for Speakers & Headphones is now in your account.', ProductName: product },
    });
    expect(await keyOwner(from.keys[1] as string)).toBe(to);

    // The owner: one key, three seats; the two newest machines ended as 'transferred', not counted.
    const left = await reference(from.token);
    expect([left.LicenseKeys.length, left.InstancesMax, left.InstancesUsed]).toEqual([1, 3, 3]);
    expect(left.Devices.map((d: { Name: string }) => d.Name)).toEqual(['M2', 'M3', 'M4']);
    expect((await allowance(from.token)).DeactivationsLeft).toBe(DEVICE_DEACTIVATION_LIMIT - 1);
    const ended = await rows(
      sql`select name, deactivation_cause from devices where deactivation_cause = 'transferred' order by name`,
    );
    expect(ended).toEqual([
      { name: 'M5', deactivation_cause: 'transferred' },
      { name: 'M6', deactivation_cause: 'transferred' },
    ]);
    // The recipient: the key, and its deactivation history with it (ADR 0030).
    const got = await reference(recipient);
    expect([got.LicenseKeys.length, got.InstancesMax, got.LicenseKeys[0].Transfer]).toEqual([1, 3, undefined]);
    expect((await allowance(recipient)).DeactivationsLeft).toBe(DEVICE_DEACTIVATION_LIMIT - 1);
    // Both are told.
    expect((await t.mailsTo(to))[0]?.Subject).toBe(
      'SoundID Reference for Speakers & Headphones is now in your My SoundID account',
    );
    expect((await t.mailsTo('pass.from@example.com'))[0]?.Subject).toBe(
      'Your SoundID Reference for Speakers & Headphones license was passed on',
    );
    // Both data exports list it (ADR 0038), the key masked.
    const exported = await t.call('/api/accounts/ExportMyData', {}, recipient);
    expect(exported.json().Result.LicenceTransfers).toEqual([
      expect.objectContaining({ Direction: 'received', ToEmail: to, State: 'accepted', Key: offered[0].FormattedKey }),
    ]);
    const sent = await t.call('/api/accounts/ExportMyData', {}, from.token);
    expect(sent.json().Result.LicenceTransfers).toEqual([
      expect.objectContaining({ Direction: 'sent', State: 'accepted' }),
    ]);
    // The link works once.
    expect(faultOf(await accept(recipient, link))).toBe('LicenceTransferNotPending');
  });

  it('needs a step-up: a session past its proof gets StepUpRequired and no offer is made', async () => {
    const from = await owner('pass.stepup@example.com');
    t.clock.advanceMinutes(STEP_UP_WINDOW_MINUTES + 1);
    const refused = await start(from.token, from.keys[0] as string, 'pass.stepup.to@example.com');
    expect(faultOf(refused)).toBe('StepUpRequired');
    expect(await t.mailsTo('pass.stepup.to@example.com')).toEqual([]);
    expect((await reference(from.token)).LicenseKeys[0].Transfer).toBeUndefined();
  });

  it('refuses to oneself, a second offer of the key, a key traded in for an upgrade, a key not held, bad input; nothing changes', async () => {
    const from = await owner('pass.refuse@example.com', 2);
    const self = await start(from.token, from.keys[0] as string, 'PASS.refuse@example.com');
    expect([self.statusCode, faultOf(self)]).toEqual([409, 'LicenceTransferToSelf']);

    await offer(from.token, from.keys[0] as string, 'pass.refuse.a@example.com');
    const twice = await start(from.token, from.keys[0] as string, 'pass.refuse.b@example.com');
    expect([twice.statusCode, faultOf(twice)]).toEqual([409, 'LicenceTransferPending']);
    expect(await t.mailsTo('pass.refuse.b@example.com')).toEqual([]);

    const code = await issueUpgradeCode(t, 'sid-reference-hp', ['sid-reference']);
    expect(
      (await t.call('/api/accounts/UpgradeKey', { key: from.keys[1], upgradeCode: code }, from.token)).statusCode,
    ).toBe(200);
    const upgraded = await start(from.token, from.keys[1] as string, 'pass.refuse.c@example.com');
    expect([upgraded.statusCode, faultOf(upgraded)]).toEqual([409, 'LicenceTransferKeyUpgraded']);

    // A trial has no key to pass on; another customer's key is not found (ASVS 8.2.2).
    const trial = await signUpVerified(t, 'pass.trial@example.com');
    expect((await getAction(t, '/api/actions/trials/sid-reference/starttrial', trial)).statusCode).toBe(200);
    const trialToken = await signIn(t, 'pass.trial@example.com');
    const foreign = await start(trialToken, from.keys[0] as string, 'pass.refuse.d@example.com');
    expect([foreign.statusCode, faultOf(foreign)]).toEqual([404, 'KeyNotFound']);
    const masked = `******-******-******-${(from.keys[0] as string).slice(-6)}`;
    expect(faultOf(await start(trialToken, masked, 'pass.refuse.d@example.com'))).toBe('KeyNotFound');

    for (const body of [
      { key: from.keys[0], email: 'not an address' },
      { key: from.keys[0] },
      { email: 'a@example.com' },
    ]) {
      const bad = await t.call('/api/licenses/StartLicenceTransfer', body, from.token);
      expect([bad.statusCode, faultOf(bad)]).toEqual([400, 'RequestInvalid']);
    }
    expect(
      await rows(
        sql`select t.to_email, t.state from licence_transfers t join users u on u.id = t.from_user_id where u.email = 'pass.refuse@example.com'`,
      ),
    ).toEqual([{ to_email: 'pass.refuse.a@example.com', state: 'pending' }]);
  });

  it('only the addressed, verified account accepts; another cannot, nor cancel it; the owner cancels until then', async () => {
    const from = await owner('pass.who@example.com');
    const to = 'pass.who.to@example.com';
    const { transferId, link } = await offer(from.token, from.keys[0] as string, to);
    // Support sees the open offer on the customer page (ADR 0044).
    const page = (await adminCall(t, '/api/admin/user?email=pass.who@example.com')).json().Result;
    expect(page.Licences[0].PendingTransfers).toEqual([
      expect.objectContaining({ KeyEnding: (from.keys[0] as string).slice(-6), ToEmail: to }),
    ]);
    const stranger = await signUpVerified(t, 'pass.who.stranger@example.com');
    const wrong = await accept(stranger, link);
    expect([wrong.statusCode, faultOf(wrong)]).toEqual([403, 'LicenceTransferWrongAccount']);
    expect(wrong.json().Fault.ExceptionVariables).toEqual([{ Key: 'Email', Value: 'p***@e***.com' }]);
    // The owner cannot take it back by the link either.
    expect(faultOf(await accept(from.token, link))).toBe('LicenceTransferWrongAccount');
    const notTheirs = await cancel(stranger, transferId);
    expect([notTheirs.statusCode, faultOf(notTheirs)]).toEqual([404, 'LicenceTransferNotFound']);
    expect(await keyOwner(from.keys[0] as string)).toBe('pass.who@example.com');
    expect(faultOf(await accept(stranger, 'no-such-link-token'))).toBe('LicenceTransferNotFound');

    // The right address, not (or no longer) verified: refused until it is: the address is the proof of who may accept.
    const recipient = await signUpVerified(t, to);
    await t.database.db.execute(sql`update users set email_verified_at = null where email = ${to}`);
    const unverified = await accept(recipient, link);
    expect([unverified.statusCode, faultOf(unverified)]).toEqual([403, 'TransferFailedUserEmailNotVerified']);
    expect(await keyOwner(from.keys[0] as string)).toBe('pass.who@example.com');
    await t.database.db.execute(sql`update users set email_verified_at = now() where email = ${to}`);

    const cancelled = await cancel(from.token, transferId);
    expect(cancelled.json().Result.Message).toBe('The offer was cancelled: the license stays with you.');
    const late = await accept(recipient, link);
    expect([late.statusCode, faultOf(late)]).toEqual([409, 'LicenceTransferNotPending']);
    expect(faultOf(await cancel(from.token, transferId))).toBe('LicenceTransferNotPending');
    expect(await keyOwner(from.keys[0] as string)).toBe('pass.who@example.com');
    expect((await reference(from.token)).LicenseKeys[0].Transfer).toBeUndefined();
  });

  it(`an offer lapses after ${LICENCE_TRANSFER_OFFER_DAYS} days: not accepted, the key may be offered again`, async () => {
    const email = 'pass.late@example.com';
    const from = await owner(email);
    const to = 'pass.late.to@example.com';
    const recipient = await signUpVerified(t, to);
    const { transferId, link } = await offer(from.token, from.keys[0] as string, to);
    t.clock.advanceHours(LICENCE_TRANSFER_OFFER_DAYS * DAY_HOURS + 1);
    const session = await freshSession(t, to);
    const expired = await accept(session, link);
    expect([expired.statusCode, faultOf(expired)]).toEqual([409, 'LicenceTransferExpired']);
    expect((await describeOffer(session, link)).json().Result.State).toBe('expired');
    expect(await keyOwner(from.keys[0] as string)).toBe(email);
    const again = await signIn(t, email);
    expect((await reference(again)).LicenseKeys[0].Transfer).toBeUndefined();
    expect(faultOf(await cancel(again, transferId))).toBe('LicenceTransferExpired');
    expect((await start(again, from.keys[0] as string, to)).statusCode).toBe(200);
    expect(recipient).toBeTruthy();
  });

  it(`a key is passed on at most once in ${LICENCE_TRANSFER_INTERVAL_DAYS} days`, async () => {
    const from = await owner('pass.often@example.com');
    const to = 'pass.often.to@example.com';
    await signUpVerified(t, to);
    const { link } = await offer(from.token, from.keys[0] as string, to);
    expect((await accept(await signIn(t, to), link)).statusCode).toBe(200);

    const holder = await signIn(t, to);
    const tooSoon = await start(holder, from.keys[0] as string, 'pass.often.next@example.com');
    expect([tooSoon.statusCode, faultOf(tooSoon)]).toEqual([409, 'LicenceTransferTooSoon']);
    expect(tooSoon.json().Fault.ExceptionVariables[0].Key).toBe('NextTransferAt');
    expect(await t.mailsTo('pass.often.next@example.com')).toEqual([]);

    t.clock.advanceHours(LICENCE_TRANSFER_INTERVAL_DAYS * DAY_HOURS + 1);
    expect((await start(await signIn(t, to), from.keys[0] as string, 'pass.often.next@example.com')).statusCode).toBe(
      200,
    );
  });
});

describe('offers are mails to any address (ASVS 2.4.1)', () => {
  it("count toward the recipient's mailbox allowance: over it, no offer is made", async () => {
    const limited = await createTestApp({ MAIL_LIMIT_PER_MAILBOX: '2' });
    try {
      await limited.call('/api/accounts/register', { email: 'pass.box@example.com', password: PASSWORD });
      await limited.call('/api/accounts/VerifyEmail', { token: await limited.lastLinkToken('pass.box@example.com') });
      const token = await signIn(limited, 'pass.box@example.com');
      const key = await ownKey(limited, token, 'sid-reference');
      const to = 'pass.box.to@example.com';
      for (let i = 0; i < 2; i++) {
        const made = await limited.call('/api/licenses/StartLicenceTransfer', { key, email: to }, token);
        const id = made.json().Result.TransferId;
        expect((await limited.call('/api/licenses/CancelLicenceTransfer', { transferId: id }, token)).statusCode).toBe(
          200,
        );
      }
      const over = await limited.call('/api/licenses/StartLicenceTransfer', { key, email: to }, token);
      expect([over.statusCode, faultOf(over)]).toEqual([429, 'AttemptOverLimitMailbox']);
      expect(await limited.mailsTo(to)).toHaveLength(2);
      expect((await licenceList(limited, token)).ReferenceProducts.Products[0].LicenseKeys[0].Transfer).toBeUndefined();
    } finally {
      await limited.close();
    }
  });
});

// PGlite serialises every request; PostgreSQL runs them in parallel transactions (pool of 10).
const rounds = process.env.TEST_DB_KIND === 'postgres' ? 5 : 2;

describe('accept and cancel at once (ASVS 2.3.4)', () => {
  it(`accept against cancel: exactly one wins, ${rounds} rounds`, async () => {
    for (let round = 1; round <= rounds; round++) {
      const email = `pass.race${round}@example.com`;
      const from = await owner(email);
      await activate(t, from.token, product, `race${round}-m1`);
      const to = `pass.race${round}.to@example.com`;
      const recipient = await signUpVerified(t, to);
      const { transferId, link } = await offer(from.token, from.keys[0] as string, to);
      const [accepted, cancelled] = await Promise.all([accept(recipient, link), cancel(from.token, transferId)]);
      const outcomes = [faultOf(accepted) ?? 'accepted', faultOf(cancelled) ?? 'cancelled'].sort();
      expect(
        [
          ['LicenceTransferNotPending', 'accepted'],
          ['LicenceTransferNotPending', 'cancelled'],
        ],
        `round ${round}`,
      ).toContainEqual(outcomes);
      const [state] = await rows(sql`select state from licence_transfers where id = ${transferId}`);
      const holder = await keyOwner(from.keys[0] as string);
      expect([state?.state, holder], `round ${round}`).toEqual(
        outcomes.includes('accepted') ? ['accepted', to] : ['cancelled', email],
      );
    }
  });

  it(`two accepts of one offer: exactly one moves the key, ${rounds} rounds`, async () => {
    for (let round = 1; round <= rounds; round++) {
      const from = await owner(`pass.twice${round}@example.com`);
      const to = `pass.twice${round}.to@example.com`;
      await signUpVerified(t, to);
      const { link } = await offer(from.token, from.keys[0] as string, to);
      const sessions = [await freshSession(t, to), await freshSession(t, to)];
      const answers = await Promise.all(sessions.map((s) => accept(s, link)));
      expect(answers.map((a) => faultOf(a) ?? 'accepted').sort(), `round ${round}`).toEqual([
        'LicenceTransferNotPending',
        'accepted',
      ]);
      expect(await keyOwner(from.keys[0] as string)).toBe(to);
      expect((await reference(sessions[0] as string)).LicenseKeys).toHaveLength(1);
    }
  });

  it('two offers of one key at once: one is made', async () => {
    const from = await owner('pass.burst@example.com');
    const answers = await Promise.all(
      ['a', 'b', 'c'].map((x) => start(from.token, from.keys[0] as string, `pass.burst.${x}@example.com`)),
    );
    expect(answers.map((a) => faultOf(a) ?? 'ok').sort()).toEqual([
      'LicenceTransferPending',
      'LicenceTransferPending',
      'ok',
    ]);
  });
});
