import { LOST_REPORT_WINDOW_DAYS, LOST_REPORTS_PER_LICENCE, STEP_UP_WINDOW_MINUTES } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { activate, customerWithMachines, DAY_HOURS, licenceList, signIn } from './test-helpers';

/** Lost or stolen machines (docs/decisions/0050-lost-or-stolen.md). */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const product = 'SoundIDReference';
const report = (token: string, deviceId: string, reason = 'stolen', note?: string) =>
  t.call('/api/licenses/ReportDeviceLost', { deviceId, reason, ...(note === undefined ? {} : { note }) }, token);
const check = (token: string, machineId: string) =>
  t.call('/api/apps/CheckLicense', { productName: product, machineId }, token);
const undo = async (deviceId: string, roles: ('support' | 'finance' | 'admin')[] = ['support']) =>
  t.app.inject({
    method: 'POST',
    url: '/api/admin/undo-lost-report',
    headers: { authorization: `Bearer ${await t.operatorToken(roles)}` },
    payload: { deviceId, reason: 'found again, ticket 42' },
  });

/** A customer with two Reference keys (6 seats) and `machines` activated. */
const customerWith = (email: string, machines: number) => customerWithMachines(t, email, machines, 2);

const countedDeactivations = async (email: string) =>
  (
    (await t.database.db.execute(
      sql`select count(*)::int as n from key_deactivations k join license_keys l on l.id = k.key_id join users u on u.id = l.user_id where u.email = ${email}`,
    )) as unknown as { rows: { n: number }[] }
  ).rows[0]?.n;

describe('lost or stolen machines', () => {
  it('frees the seat outside the allowance and refuses that machine on ActivateDevice, CheckLicense and the offline activation', async () => {
    const email = 'lost.one@example.com';
    const { token, ids, machine } = await customerWith(email, 2);
    const res = await report(token, ids[0] as string, 'stolen', '  taken from the studio  ');
    expect(res.json()).toEqual({
      Success: true,
      Result: {
        Message: 'Machine 1 was reported lost or stolen: its seat is free, and it can no longer use this license.',
      },
    });
    const listed = (await licenceList(t, token)).ReferenceProducts.Products[0];
    expect(listed.InstancesUsed).toBe(1);
    expect(listed.Devices.map((d: { Name: string }) => d.Name)).toEqual(['Machine 2']);
    // Not a deactivation of the customer's: nothing charged to the keys (ADR 0030).
    expect(await countedDeactivations(email)).toBe(0);

    // The offline activation too: a licence file is an activation (docs/offline-activation.md).
    const offline = await t.call(
      '/api/licenses/OfflineActivate',
      {
        swinfo: JSON.stringify({
          format: 'soundid-swinfo',
          version: 1,
          productName: product,
          machineId: machine(1),
          deviceName: 'Machine 1',
          nonce: 'n0nce-n0nce-n0nce-lost',
        }),
      },
      token,
    );
    for (const refused of [await activate(t, token, product, machine(1)), await check(token, machine(1)), offline]) {
      expect([refused.statusCode, faultOf(refused)]).toEqual([403, 'DeviceReportedLost']);
      expect(refused.json().Fault.ExceptionUserText).toBe(
        'This computer was reported lost or stolen, so it can no longer use this license. If you found it, please contact support.',
      );
    }
    // The other machine is untouched, and a new one takes the seat.
    expect((await check(token, machine(2))).json().Result.Licensed).toBe(true);
    expect((await activate(t, token, product, 'lost.one-new')).json().Result.InstancesUsed).toBe(2);
    const [kept] = (
      (await t.database.db.execute(
        sql`select reason, note, machine_id from lost_machines where device_id = ${ids[0]}`,
      )) as unknown as { rows: { reason: string; note: string; machine_id: string }[] }
    ).rows;
    expect(kept).toEqual({ reason: 'stolen', note: 'taken from the studio', machine_id: machine(1) });
  });

  it('needs a step-up: a session past its proof gets StepUpRequired and nothing changes', async () => {
    const email = 'lost.stepup@example.com';
    const { ids } = await customerWith(email, 1);
    // A sign-in with the password is a proof for STEP_UP_WINDOW_MINUTES (ADR 0040); past it, none.
    const token = await signIn(t, email);
    t.clock.advanceMinutes(STEP_UP_WINDOW_MINUTES + 1);
    const refused = await report(token, ids[0] as string);
    expect(faultOf(refused)).toBe('StepUpRequired');
    expect((await licenceList(t, token)).ReferenceProducts.Products[0].InstancesUsed).toBe(1);
  });

  it(`allows ${LOST_REPORTS_PER_LICENCE} reports per licence in ${LOST_REPORT_WINDOW_DAYS} days; the next is refused and changes nothing`, async () => {
    const email = 'lost.limit@example.com';
    const { token, ids } = await customerWith(email, 4);
    expect((await report(token, ids[0] as string, 'lost')).statusCode).toBe(200);
    expect((await report(token, ids[1] as string, 'lost')).statusCode).toBe(200);
    const third = await report(token, ids[2] as string, 'lost');
    expect([third.statusCode, faultOf(third)]).toEqual([409, 'LostReportLimitReached']);
    expect((await licenceList(t, token)).ReferenceProducts.Products[0].InstancesUsed).toBe(2);

    t.clock.advanceHours(LOST_REPORT_WINDOW_DAYS * DAY_HOURS + 1);
    const later = await signIn(t, email);
    expect((await report(later, ids[2] as string, 'lost')).statusCode).toBe(200);
  });

  it('two reports at once with one left: exactly one frees its seat (the licence row is locked)', async () => {
    const email = 'lost.race@example.com';
    const { token, ids } = await customerWith(email, 3);
    expect((await report(token, ids[0] as string)).statusCode).toBe(200);
    const answers = await Promise.all([report(token, ids[1] as string), report(token, ids[2] as string)]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 409]);
    expect(answers.map((a) => faultOf(a) ?? 'ok').sort()).toEqual(['LostReportLimitReached', 'ok']);
    expect((await licenceList(t, token)).ReferenceProducts.Products[0].InstancesUsed).toBe(1);
    // The same device twice at once: one report, the other finds it gone.
    const again = await customerWith('lost.race2@example.com', 1);
    const twice = await Promise.all([
      report(again.token, again.ids[0] as string),
      report(again.token, again.ids[0] as string),
    ]);
    expect(twice.map((a) => faultOf(a) ?? 'ok').sort()).toEqual(['DeviceNotFound', 'ok']);
  });

  it("refuses another customer's device, a device already ended, a bad reason or note; nothing changes", async () => {
    const owner = await customerWith('lost.owner@example.com', 1);
    const other = await customerWith('lost.other@example.com', 0);
    const foreign = await report(other.token, owner.ids[0] as string);
    expect([foreign.statusCode, faultOf(foreign)]).toEqual([404, 'DeviceNotFound']);
    for (const body of [
      { deviceId: owner.ids[0], reason: 'broken' },
      { deviceId: owner.ids[0], reason: 'lost', note: 'x'.repeat(501) },
      { deviceId: 'not-a-uuid', reason: 'lost' },
      { reason: 'lost' },
    ]) {
      const bad = await t.call('/api/licenses/ReportDeviceLost', body, owner.token);
      expect([bad.statusCode, faultOf(bad)]).toEqual([400, 'RequestInvalid']);
    }
    expect((await licenceList(t, owner.token)).ReferenceProducts.Products[0].InstancesUsed).toBe(1);
  });

  it('support undoes a report (audited): the machine may activate again; finance may not; twice finds nothing', async () => {
    const email = 'lost.found@example.com';
    const { token, ids, machine } = await customerWith(email, 1);
    await report(token, ids[0] as string, 'lost');
    const refusedRole = await undo(ids[0] as string, ['finance']);
    expect(refusedRole.statusCode).toBe(403);

    const undone = await undo(ids[0] as string);
    expect(undone.json()).toEqual({
      Success: true,
      Result: { Device: 'Machine 1', Product: 'sid-reference', Customer: email },
    });
    expect(faultOf(await undo(ids[0] as string))).toBe('DeviceNotFound');
    expect((await check(token, machine(1))).json().Result).toMatchObject({ Licensed: false, DeviceId: null });
    expect((await activate(t, token, product, machine(1))).json().Result.InstancesUsed).toBe(1);

    const audit = await t.app.inject({
      method: 'POST',
      url: '/api/admin/SearchAudit',
      headers: { authorization: `Bearer ${await t.operatorToken(['admin'])}` },
      payload: { action: 'AdminUndoLostReport', customer: email },
    });
    expect(JSON.stringify(audit.json())).toContain('found again, ticket 42');
  });
});
