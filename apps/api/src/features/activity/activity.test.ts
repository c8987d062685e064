import {
  ACCOUNT_EVENT_KINDS,
  ACCOUNT_FREEZE_HOURS,
  ACTIVITY_PAGE_SIZE,
  type AccountEvent,
  type AccountEventKind,
  IDLE_SEAT_RELEASE_DAYS,
  NOT_ME_REPORTS_PER_HOUR,
  TOTP_PERIOD_SECONDS,
} from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { generateSync } from 'otplib';
import { afterAll, afterEach, beforeAll, describe, expect, it, type RunnerTask, type RunnerTestFile } from 'vitest';
import { faultOf, freshSession, PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { sandboxPurchase } from '../../../test/payment-webhooks';
import { SoftwareAuthenticator } from '../../../test/software-authenticator';
import { RELEASE_IDLE_SEATS_JOB } from '../licences/idle-seats';
import { activate, adminCall, getAction, issueUpgradeCode, ownKey, signIn } from '../licences/test-helpers';

/**
 * My activity (docs/decisions/0055-my-activity.md): each kind of entry appears after the action
 * that makes it, in the customer's words, newest first and paged; another customer's entries are
 * never seen nor reported (ASVS 8.2.2); "This wasn't me" ends every session (ASVS 7.4.1), mails a
 * reset link and freezes e-mail changes and licence transfers for a day (ASVS 2.3.2), once, and
 * only NOT_ME_REPORTS_PER_HOUR times an hour. Same file on PGlite and PostgreSQL.
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Queues only: the idle-seat sweep runs when a test drains it (no schedule fires under the fake clock).
  await t.services.jobs.start({ work: false });
});
afterAll(() => t.close());

let customers = 0;
const newEmail = (name: string) => `${name}-${++customers}@activity.example.com`;
const ORIGIN = 'http://localhost:3000'; // the test app's PUBLIC_URL
const product = 'SoundIDReference';
/** The display name of sid-reference, as the entries name it. */
const REF = 'SoundID Reference for Speakers & Headphones';

/** Every kind any test of this file saw, for the last test: no kind is left unproven. */
const seen = new Set<AccountEventKind>();

async function page(token: string, n = 1) {
  const res = await t.call('/api/accounts/GetMyActivity', { page: n }, token);
  expect(res.statusCode, res.body).toBe(200);
  const result = res.json().Result as { PageItems: AccountEvent[]; PageNumber: number; PageCount: number };
  for (const item of result.PageItems) seen.add(item.Kind);
  return result;
}
/** Every entry, page by page. */
async function everything(token: string): Promise<AccountEvent[]> {
  const first = await page(token);
  const rest = [];
  for (let n = 2; n <= first.PageCount; n++) rest.push(...(await page(token, n)).PageItems);
  return [...first.PageItems, ...rest];
}
const kinds = async (token: string) => (await everything(token)).map((entry) => entry.Kind);
const newest = async (token: string) => (await page(token)).PageItems[0] as AccountEvent;
const report = (token: string, eventId: string) => t.call('/api/accounts/ReportNotMe', { eventId }, token);
const keyId = async (key: string) =>
  (
    (await t.database.db.execute(
      sql`select id from license_keys where key = ${key.replaceAll('-', '')}`,
    )) as unknown as { rows: { id: string }[] }
  ).rows[0]?.id as string;

describe('My activity shows each kind after its action', () => {
  it('sign-ins (with the browser and address), sign-outs, password and e-mail changes', async () => {
    const email = newEmail('ann');
    await signUpVerified(t, email);
    t.clock.advanceMinutes(1);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/accounts/LoginByEmail',
      payload: { email, password: PASSWORD, keepMeSignedIn: true },
      remoteAddress: '198.51.100.7',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:132.0) Gecko/20100101 Firefox/132.0',
      },
    });
    const token = res.json().Token as string;
    expect(await newest(token)).toEqual({
      Id: expect.stringMatching(/^\d+$/),
      Kind: 'signed_in',
      Text: 'Signed in from Firefox on macOS',
      At: t.clock.now().getTime(),
      Device: 'Firefox on macOS',
      Ip: '198.51.100.7',
      CanDispute: true,
    });

    t.clock.advanceMinutes(1);
    const changed = await t.call(
      '/api/accounts/ChangePassword',
      { oldPassword: PASSWORD, newPassword: 'a brand new secret 42' },
      token,
    );
    expect(changed.statusCode, changed.body).toBe(200);
    // The change also signed out the account's other session (the verification link's).
    const [ended, changedEntry] = (await page(token)).PageItems;
    expect(ended).toMatchObject({ Kind: 'session_ended', Text: 'Signed out on lightMyRequest' });
    expect(changedEntry).toMatchObject({ Kind: 'password_changed', Text: 'Password changed', CanDispute: true });

    t.clock.advanceMinutes(1);
    const newAddress = newEmail('ann.moved');
    expect((await t.call('/api/accounts/ChangeEmail', { newEmail: newAddress }, token)).statusCode).toBe(200);
    const verified = await t.call('/api/accounts/VerifyEmailChange', { token: await t.lastLinkToken(newAddress) });
    expect(verified.statusCode, verified.body).toBe(200);
    expect(await newest(token)).toMatchObject({
      Kind: 'email_changed',
      Text: `Email address changed to ${newAddress}`,
    });

    t.clock.advanceMinutes(1);
    const other = await freshSession(t, newAddress);
    expect((await t.call('/api/accounts/Logout', {}, other)).statusCode).toBe(200);
    expect(await newest(token)).toMatchObject({ Kind: 'session_ended', Text: 'Signed out', CanDispute: true });
  });

  it('two-step verification on and off, a passkey added and removed', async () => {
    const token = await signUpVerified(t, newEmail('tess'));
    const begun = await t.call('/api/accounts/BeginTotpSetup', {}, token);
    const secret = begun.json().Result.Secret as string;
    const codeAt = (steps: number) =>
      generateSync({ secret, epoch: Math.floor(t.clock.now().getTime() / 1000) + steps * TOTP_PERIOD_SECONDS });
    expect((await t.call('/api/accounts/ConfirmTotpSetup', { code: codeAt(0) }, token)).statusCode).toBe(200);
    expect(await newest(token)).toMatchObject({ Kind: 'two_step_on', Text: 'Two-step verification turned on' });
    t.clock.advanceMinutes(1);
    const off = await t.call('/api/accounts/DisableTotp', { code: codeAt(0) }, token);
    expect(off.statusCode, off.body).toBe(200);
    expect(await newest(token)).toMatchObject({
      Kind: 'two_step_off',
      Text: 'Two-step verification turned off',
      At: t.clock.now().getTime(),
    });

    t.clock.advanceMinutes(1);
    const authenticator = new SoftwareAuthenticator(ORIGIN);
    const options = (await t.call('/api/accounts/BeginPasskeyRegistration', {}, token)).json().Result.Options;
    const added = await t.call(
      '/api/accounts/FinishPasskeyRegistration',
      { response: authenticator.register(options), name: 'Work laptop' },
      token,
    );
    expect(added.statusCode, added.body).toBe(200);
    expect(await newest(token)).toMatchObject({ Kind: 'passkey_added', Text: 'Passkey “Work laptop” added' });
    t.clock.advanceMinutes(1);
    const id = added.json().Result.Passkey.Id as string;
    expect((await t.call('/api/accounts/RemovePasskey', { id }, token)).statusCode).toBe(200);
    expect(await newest(token)).toMatchObject({
      Kind: 'passkey_removed',
      Text: 'Passkey “Work laptop” removed',
      At: t.clock.now().getTime(),
    });
  });

  it('licences registered, upgraded, removed, passed on and received; devices activated, deactivated and lost', async () => {
    const email = newEmail('leo');
    const token = await signUpVerified(t, email);
    const key = await ownKey(t, token, 'sid-reference');
    expect(await newest(token)).toMatchObject({
      Kind: 'licence_registered',
      Text: `${REF} license registered`,
    });
    t.clock.advanceMinutes(1);
    expect((await activate(t, token, product, 'leo-m1', 'Studio Mac')).statusCode).toBe(200);
    expect(await newest(token)).toMatchObject({
      Kind: 'device_activated',
      Text: `${REF} activated on Studio Mac`,
      Device: 'Studio Mac',
    });
    t.clock.advanceMinutes(1);
    await t.call('/api/apps/DeactivateDevice', { productName: product, machineId: 'leo-m1' }, token);
    expect(await newest(token)).toMatchObject({
      Kind: 'device_deactivated',
      Text: `${REF} deactivated on Studio Mac by the app`,
    });
    t.clock.advanceMinutes(1);
    const deviceId = (await activate(t, token, product, 'leo-m2', 'Tour Laptop')).json().Result.DeviceId;
    const lost = await t.call('/api/licenses/ReportDeviceLost', { deviceId, reason: 'stolen' }, token);
    expect(lost.statusCode, lost.body).toBe(200);
    expect(await newest(token)).toMatchObject({
      Kind: 'device_lost',
      Text: `Tour Laptop reported lost or stolen (${REF})`,
    });

    t.clock.advanceMinutes(1);
    const studio = await ownKey(t, token, 'ref4-studio');
    const code = await issueUpgradeCode(t, 'sid-reference', ['ref4-studio']);
    expect((await t.call('/api/accounts/UpgradeKey', { key: studio, upgradeCode: code }, token)).statusCode).toBe(200);
    expect((await kinds(token)).slice(0, 2).sort()).toEqual(['licence_registered', 'licence_upgraded']);

    t.clock.advanceMinutes(1);
    const spare = await ownKey(t, token, 'sid-reference');
    expect((await getAction(t, `/api/actions/licenses/${await keyId(spare)}/remove`, token)).statusCode).toBe(200);
    expect(await newest(token)).toMatchObject({
      Kind: 'licence_removed',
      Text: `${REF} license removed`,
      At: t.clock.now().getTime(),
    });

    t.clock.advanceMinutes(1);
    const toEmail = newEmail('mia');
    const recipient = await signUpVerified(t, toEmail);
    const started = await t.call('/api/licenses/StartLicenceTransfer', { key, email: toEmail }, token);
    expect(started.statusCode, started.body).toBe(200);
    const link = await t.lastLinkToken(toEmail);
    expect((await t.call('/api/licenses/AcceptLicenceTransfer', { token: link }, recipient)).statusCode).toBe(200);
    expect(await newest(token)).toMatchObject({
      Kind: 'licence_passed_on',
      Text: `${REF} license passed on to another account`,
    });
    expect(await newest(recipient)).toMatchObject({
      Kind: 'licence_received',
      Text: `${REF} license received from another account`,
      CanDispute: false,
    });
  });

  it('a seat released idle', async () => {
    const email = newEmail('ida');
    const token = await signUpVerified(t, email);
    await ownKey(t, token, 'sid-reference');
    await activate(t, token, product, 'ida-m1', 'Old PC');
    t.clock.advanceHours((IDLE_SEAT_RELEASE_DAYS + 1) * 24);
    await t.services.jobs.enqueue(RELEASE_IDLE_SEATS_JOB);
    await t.services.jobs.drain(RELEASE_IDLE_SEATS_JOB);
    expect(await newest(await signIn(t, email))).toMatchObject({ Kind: 'signed_in' });
    const entries = await everything(await freshSession(t, email));
    expect(entries.find((entry) => entry.Kind === 'device_idle_released')).toMatchObject({
      Text: `${REF} released on Old PC: the device was not used for a long time`,
      CanDispute: false,
    });
  });

  it("tokens bought, refunded, granted and taken back; support's actions from the audit trail", async () => {
    const email = newEmail('tom');
    const token = await signUpVerified(t, email);
    const { invoiceTag } = await sandboxPurchase(t, token);
    expect(await newest(token)).toMatchObject({ Kind: 'tokens_purchased', Text: '1000 voice AI tokens bought' });
    t.clock.advanceMinutes(1);
    const finance = await t.operatorToken(['finance']);
    const asFinance = (url: string, payload: object) =>
      t.app.inject({ method: 'POST', url, payload, headers: { authorization: `Bearer ${finance}` } });
    const refunded = await asFinance('/api/admin/refund-payment', { invoiceTag, reference: 'R-1', reason: 'asked' });
    expect(refunded.statusCode, refunded.body).toBe(200);
    const afterRefund = (await page(token)).PageItems.slice(0, 2);
    expect(afterRefund.map((entry) => entry.Text).sort()).toEqual([
      'SoundID support refunded a payment',
      'Voice AI token purchase refunded (1000 voice AI tokens taken back)',
    ]);
    expect(afterRefund.every((entry) => !entry.CanDispute)).toBe(true);

    t.clock.advanceMinutes(1);
    await asFinance('/api/admin/grant-tokens', { email, amount: 250, reason: 'goodwill' });
    t.clock.advanceMinutes(1);
    await asFinance('/api/admin/withdraw-tokens', { email, amount: 50, reference: 'W-1', reason: 'chargeback' });
    const texts = (await page(token)).PageItems.slice(0, 4).map((entry) => entry.Text);
    expect(texts.sort()).toEqual([
      '250 voice AI tokens added',
      '50 voice AI tokens taken back by SoundID',
      'SoundID support added voice AI tokens',
      'SoundID support took voice AI tokens back',
    ]);
    const support = await adminCall(t, '/api/admin/unlock-sign-in', { email });
    expect(support.statusCode, support.body).toBe(200);
    expect(await newest(token)).toMatchObject({ Kind: 'support_action', Text: 'SoundID support unlocked sign-in' });
  });
});

describe('the timeline', () => {
  it(`is newest first, ${ACTIVITY_PAGE_SIZE} a page, every entry once across the pages; page 0 and past the last are refused or empty`, async () => {
    const email = newEmail('pat');
    const token = await signUpVerified(t, email);
    // Sign-ins at one instant and a minute apart: ties are broken by the entry's sequence.
    for (let i = 0; i < ACTIVITY_PAGE_SIZE + 5; i++) {
      if (i % 2 === 0) t.clock.advanceMinutes(1);
      await freshSession(t, email);
    }
    const first = await page(token);
    expect(first).toMatchObject({ PageNumber: 1, PageCount: 2 });
    expect(first.PageItems).toHaveLength(ACTIVITY_PAGE_SIZE);
    const all = await everything(token);
    expect(all).toHaveLength(ACTIVITY_PAGE_SIZE + 6);
    expect(new Set(all.map((entry) => entry.Id)).size).toBe(all.length);
    const order = all.map((entry) => [entry.At, Number(entry.Id)] as const);
    const sorted = [...order].sort((a, b) => b[0] - a[0] || b[1] - a[1]);
    expect(order).toEqual(sorted);
    expect((await page(token, 3)).PageItems).toEqual([]);
    for (const bad of [0, -1, 1.5, '1', 1001]) {
      const res = await t.call('/api/accounts/GetMyActivity', { page: bad }, token);
      expect([res.statusCode, faultOf(res)]).toEqual([400, 'RequestInvalid']);
    }
    expect((await t.call('/api/accounts/GetMyActivity', { page: 1 })).statusCode).toBe(401);
  });

  it("never shows another customer's entries, and their entry cannot be reported (ASVS 8.2.2)", async () => {
    const ann = await signUpVerified(t, newEmail('own'));
    const bob = await signUpVerified(t, newEmail('other'));
    await ownKey(t, bob, 'sid-reference');
    const annIds = (await everything(ann)).map((entry) => entry.Id);
    const bobEntries = await everything(bob);
    expect(bobEntries.some((entry) => annIds.includes(entry.Id))).toBe(false);
    const bobEntry = bobEntries[0] as AccountEvent;
    const res = await report(ann, bobEntry.Id);
    expect([res.statusCode, faultOf(res)]).toEqual([404, 'ActivityEntryNotFound']);
    // Nothing happened to either: both still signed in, Bob's entry still reportable.
    expect((await t.call('/api/accounts/LoginByToken', {}, ann)).statusCode).toBe(200);
    expect((await everything(bob)).find((entry) => entry.Id === bobEntry.Id)?.CanDispute).toBe(true);
  });

  it('entries are never changed in the database (append-only)', async () => {
    await expect(t.database.db.execute(sql`update account_events set kind = 'signed_in'`)).rejects.toThrow();
  });
});

describe("This wasn't me", () => {
  async function victim(name: string) {
    const email = newEmail(name);
    const first = await signUpVerified(t, email);
    const key = await ownKey(t, first, 'sid-reference');
    t.clock.advanceMinutes(1);
    const other = await signIn(t, email);
    const entry = await newest(other);
    expect(entry).toMatchObject({ Kind: 'signed_in', CanDispute: true });
    return { email, first, other, key, entry };
  }

  it('ends every session (this one too), mails a reset link, stops the password and freezes e-mail changes and transfers for a day', async () => {
    const { email, first, other, key, entry } = await victim('vic');
    const res = await report(other, entry.Id);
    expect(res.statusCode, res.body).toBe(200);
    const until = t.clock.now().getTime() + ACCOUNT_FREEZE_HOURS * 3_600_000;
    expect(res.json().Result).toEqual({ FrozenUntil: until });
    for (const token of [first, other]) {
      expect((await t.call('/api/accounts/LoginByToken', {}, token)).statusCode).toBe(401);
    }
    const [mail] = await t.mailsTo(email);
    expect(mail?.Subject).toMatch(/reset/i);
    const login = await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD, keepMeSignedIn: true });
    expect(login.statusCode).not.toBe(200);

    // The reset link works; the new session sees the report on top and the entry no longer reportable.
    const reset = await t.call('/api/accounts/PasswordReset', {
      token: await t.lastLinkToken(email),
      password: 'taken back 12345',
    });
    expect(reset.statusCode, reset.body).toBe(200);
    const token = await freshSession(t, email);
    const entries = await everything(token);
    const reported = entries.find((e) => e.Kind === 'not_me_reported') as AccountEvent;
    expect(reported).toMatchObject({ CanDispute: false });
    expect(entries.indexOf(reported)).toBeLessThan(entries.findIndex((e) => e.Id === entry.Id));
    expect(entries.find((e) => e.Id === entry.Id)?.CanDispute).toBe(false);
    expect(entries.filter((e) => e.Kind === 'session_ended')).toHaveLength(2);

    // Frozen: passing a licence on and changing the address, with the time it ends.
    const recipient = newEmail('fence');
    const start = await t.call('/api/licenses/StartLicenceTransfer', { key, email: recipient }, token);
    expect([start.statusCode, faultOf(start)]).toEqual([403, 'AccountFrozen']);
    expect(start.json().Fault.ExceptionVariables).toEqual([{ Key: 'FrozenUntil', Value: `/Date(${until})/` }]);
    expect(start.json().Fault.ExceptionUserText).toContain('until');
    const change = await t.call('/api/accounts/ChangeEmail', { newEmail: newEmail('elsewhere') }, token);
    expect([change.statusCode, faultOf(change)]).toEqual([403, 'EmailChangeFrozen']);

    // A day later both are open again.
    t.clock.advanceHours(ACCOUNT_FREEZE_HOURS);
    t.clock.advanceMinutes(1);
    const later = await freshSession(t, email);
    const again = await t.call('/api/licenses/StartLicenceTransfer', { key, email: recipient }, later);
    expect(again.statusCode, again.body).toBe(200);
    expect((await t.call('/api/accounts/ChangeEmail', { newEmail: newEmail('elsewhere') }, later)).statusCode).toBe(
      200,
    );
  });

  it('cancels the offers waiting, and the frozen account cannot accept one either', async () => {
    const { email, other, key, entry } = await victim('offer');
    const to = newEmail('thief');
    const thief = await signUpVerified(t, to);
    expect((await t.call('/api/licenses/StartLicenceTransfer', { key, email: to }, other)).statusCode).toBe(200);
    const link = await t.lastLinkToken(to);
    expect((await report(other, entry.Id)).statusCode).toBe(200);
    const taken = await t.call('/api/licenses/AcceptLicenceTransfer', { token: link }, thief);
    expect([taken.statusCode, faultOf(taken)]).toEqual([409, 'LicenceTransferNotPending']);

    // The other way round: an offer to the frozen account waits until the freeze ends.
    const giver = await signUpVerified(t, newEmail('giver'));
    const gift = await ownKey(t, giver, 'sid-reference');
    expect((await t.call('/api/licenses/StartLicenceTransfer', { key: gift, email }, giver)).statusCode).toBe(200);
    const accept = await t.call(
      '/api/licenses/AcceptLicenceTransfer',
      { token: await t.lastLinkToken(email) },
      await freshSession(t, email),
    );
    expect([accept.statusCode, faultOf(accept)]).toEqual([403, 'AccountFrozen']);
  });

  it('is idempotent: the same entry reported twice, or twice at once, does it once (one report, one mail)', async () => {
    const { email, entry } = await victim('twice');
    const sessions = await Promise.all([1, 2, 3].map(() => freshSession(t, email)));
    const answers = await Promise.all(sessions.map((token) => report(token, entry.Id)));
    // A call that reads its session after the first report committed finds it ended (401).
    const done = answers.filter((res) => res.statusCode === 200);
    expect(done.length).toBeGreaterThan(0);
    expect(answers.every((res) => res.statusCode === 200 || res.statusCode === 401)).toBe(true);
    expect(new Set(done.map((res) => res.json().Result.FrozenUntil)).size).toBe(1);
    const later = await freshSession(t, email);
    t.clock.advanceMinutes(5);
    const again = await report(later, entry.Id);
    expect(again.statusCode).toBe(200);
    expect((await t.call('/api/accounts/LoginByToken', {}, later)).statusCode).toBe(200);
    const entries = await everything(await freshSession(t, email));
    expect(entries.filter((e) => e.Kind === 'not_me_reported')).toHaveLength(1);
    expect((await t.mailsTo(email)).filter((mail) => /reset/i.test(mail.Subject))).toHaveLength(1);
  });

  it("refuses what the customer did not do (the service's, support's, a report) and bad ids, changing nothing", async () => {
    const email = newEmail('bad');
    const token = await signUpVerified(t, email);
    await adminCall(t, '/api/admin/unlock-sign-in', { email });
    const supportEntry = await newest(token);
    expect(supportEntry).toMatchObject({ Kind: 'support_action', CanDispute: false });
    const refused = await report(token, supportEntry.Id);
    expect([refused.statusCode, faultOf(refused)]).toEqual([409, 'ActivityEntryNotDisputable']);
    for (const eventId of ['', '0', '-1', 'abc', '1e3', '1234567890123456', ' 1']) {
      const res = await report(token, eventId);
      expect([res.statusCode, faultOf(res)], eventId).toEqual([400, 'RequestInvalid']);
    }
    const missing = await report(token, '9999999999');
    expect([missing.statusCode, faultOf(missing)]).toEqual([404, 'ActivityEntryNotFound']);
    expect((await t.call('/api/accounts/ReportNotMe', { eventId: supportEntry.Id })).statusCode).toBe(401);
    expect((await t.call('/api/accounts/LoginByToken', {}, token)).statusCode).toBe(200);
  });

  it(`is refused past ${NOT_ME_REPORTS_PER_HOUR} reports an hour, and allowed again an hour later (ASVS 2.4.1)`, async () => {
    const email = newEmail('limit');
    const token = await signUpVerified(t, email);
    const entry = await newest(token);
    // Refused reports count too: the allowance is of asking, not of succeeding.
    for (let i = 0; i < NOT_ME_REPORTS_PER_HOUR; i++) {
      expect(faultOf(await report(token, '9999999999'))).toBe('ActivityEntryNotFound');
    }
    const over = await report(token, entry.Id);
    expect([over.statusCode, faultOf(over)]).toEqual([429, 'AttemptOverLimitNotMe']);
    expect((await t.call('/api/accounts/LoginByToken', {}, token)).statusCode).toBe(200);
    t.clock.advanceMinutes(61);
    const fresh = await freshSession(t, email);
    expect((await report(fresh, entry.Id)).statusCode).toBe(200);
  });
});

/**
 * Coverage: every kind of entry was seen after its action in this file. Checked once every test
 * of the file has run and passed, whatever their order; a run of some tests only (`-t`, `.only`)
 * cannot see every kind and checks nothing here.
 */
let file: RunnerTestFile | undefined;
afterEach(({ task }) => {
  file = task.file;
});
afterAll(() => {
  const tests: RunnerTask[] = [];
  const collect = (tasks: RunnerTask[]) => {
    for (const task of tasks) {
      if (task.type === 'suite') collect(task.tasks);
      else tests.push(task);
    }
  };
  collect(file?.tasks ?? []);
  if (tests.length > 0 && tests.every((task) => task.mode === 'run' && task.result?.state === 'pass'))
    expect(ACCOUNT_EVENT_KINDS.filter((kind) => !seen.has(kind))).toEqual([]);
});
