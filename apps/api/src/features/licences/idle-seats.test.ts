import { IDLE_SEAT_RELEASE_DAYS } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { IDLE_SEAT_MAIL_JOB, RELEASE_IDLE_SEATS_JOB } from './idle-seats';
import { activate, customerWithMachines, DAY_HOURS, licenceList, signIn } from './test-helpers';

/**
 * Idle seats (docs/decisions/0052-idle-seats.md): released after the product's idle days unseen,
 * outside the allowance, the owner mailed once; the machine gets its seat back when it calls again.
 * The sweep runs here as the job queue would run it, at a time the test chooses (JobQueue.drain).
 */
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  // Queues only: this file runs each job itself (no schedule fires under the fake clock).
  await t.services.jobs.start({ work: false });
});
afterAll(() => t.close());

const product = 'SoundIDReference';
const check = (token: string, machineId: string, extra: object = {}) =>
  t.call('/api/apps/CheckLicense', { productName: product, machineId, ...extra }, token);
const sweep = async () => {
  await t.services.jobs.enqueue(RELEASE_IDLE_SEATS_JOB);
  const [output] = await t.services.jobs.drain(RELEASE_IDLE_SEATS_JOB);
  return output as { released: number };
};
const advanceDays = (days: number) => t.clock.advanceHours(days * DAY_HOURS);
const queuedMails = async () =>
  (
    (await t.database.db.execute(
      sql`select data from pgboss.job where name = ${IDLE_SEAT_MAIL_JOB} and state = 'created'`,
    )) as unknown as { rows: { data: { deviceId: string } }[] }
  ).rows.map((r) => r.data.deviceId);

/** A customer with one Reference key (3 seats) and `machines` activated; `fresh` signs in anew (the clock jumps). */
async function customerWith(email: string, machines: number) {
  const { ids, machine } = await customerWithMachines(t, email, machines);
  return { ids, machine, fresh: () => signIn(t, email) };
}

const deviceNames = async (token: string) =>
  (await licenceList(t, token)).ReferenceProducts.Products[0].Devices.map((d: { Name: string }) => d.Name);
/** Which of these activations are still active (other tests' seats fall due too: the clock is the file's). */
const stillActive = async (ids: string[]) =>
  (
    (await t.database.db.execute(
      sql`select id from devices where id in ${sql.raw(`('${ids.join("','")}')`)} and deactivated_at is null`,
    )) as unknown as { rows: { id: string }[] }
  ).rows.map((r) => r.id);

describe('idle seats', () => {
  it('releases a seat unseen for the idle days outside the allowance, keeps the one seen since, and queues one mail', async () => {
    const { ids, machine, fresh } = await customerWith('idle.one@example.com', 2);
    advanceDays(30);
    expect((await check(await fresh(), machine(2))).json().Result.Licensed).toBe(true);
    advanceDays(IDLE_SEAT_RELEASE_DAYS - 30);
    // Exactly the idle days unseen: not yet.
    await sweep();
    expect(await stillActive(ids)).toEqual(ids);
    t.clock.advanceMinutes(1);
    await sweep();
    expect(await stillActive(ids)).toEqual([ids[1]]);
    const token = await fresh();
    expect(await deviceNames(token)).toEqual(['Machine 2']);
    const allowance = await t.call('/api/licenses/GetDeactivationAllowance', { productName: product }, token);
    expect(allowance.json().Result.DeactivationsLeft).toBe(allowance.json().Result.DeactivationsAllowed);
    const cause = (await t.database.db.execute(
      sql`select deactivation_cause from devices where id = ${ids[0] as string}`,
    )) as unknown as { rows: { deactivation_cause: string }[] };
    expect(cause.rows[0]?.deactivation_cause).toBe('idle');
    // Other tests' seats fall due on the file's clock too: this customer's mails only.
    const mine = async () => (await queuedMails()).filter((id) => ids.includes(id));
    expect(await mine()).toEqual([ids[0]]);
    // A second sweep finds nothing more of this customer's and queues no second mail.
    await sweep();
    expect(await mine()).toEqual([ids[0]]);

    expect(await t.services.jobs.drain(IDLE_SEAT_MAIL_JOB)).toContainEqual({ sent: true });
    const signedOut = (await t.mailsTo('idle.one@example.com')).filter((m) => m.Subject.includes('was signed out'));
    expect(signedOut).toHaveLength(1);
    const [mail] = signedOut;
    expect(mail?.Subject).toBe('Machine 1 was signed out of SoundID Reference for Speakers & Headphones');
    expect(mail?.Text).toContain(
      `had not checked in with SoundID Reference for Speakers & Headphones for ${IDLE_SEAT_RELEASE_DAYS} days`,
    );
    expect(mail?.Text).toContain('This did not use one of your deactivations.');
  });

  it('leaves offline activations and machines never seen alone', async () => {
    const { ids } = await customerWith('idle.offline@example.com', 2);
    await t.database.db.execute(sql`update devices set method = 'offline' where id = ${ids[0] as string}`);
    await t.database.db.execute(sql`update devices set last_seen_at = null where id = ${ids[1] as string}`);
    advanceDays(IDLE_SEAT_RELEASE_DAYS * 3);
    await sweep();
    expect(await stillActive(ids)).toEqual(ids);
  });

  it('gives the machine its seat back when it calls again and one is free, under its old name', async () => {
    const { ids, machine, fresh } = await customerWith('idle.back@example.com', 1);
    advanceDays(IDLE_SEAT_RELEASE_DAYS + 1);
    await sweep();
    const res = await check(await fresh(), machine(1), { appVersion: '5.13.0' });
    expect(res.statusCode).toBe(200);
    const result = res.json().Result;
    expect(result).toMatchObject({ Licensed: true, Reactivated: true, InstancesUsed: 1, InstancesMax: 3 });
    expect(result.DeviceId).not.toBe(ids[0]);
    expect(await deviceNames(await fresh())).toEqual(['Machine 1']);
    // The next check is an ordinary one.
    expect((await check(await fresh(), machine(1))).json().Result.Reactivated).toBeUndefined();
  });

  it('tells the machine clearly when every seat was taken while it was away (IdleSeatTaken), and changes nothing', async () => {
    const { machine, fresh } = await customerWith('idle.full@example.com', 1);
    advanceDays(IDLE_SEAT_RELEASE_DAYS + 1);
    await sweep();
    const token = await fresh();
    for (const i of [2, 3, 4])
      expect((await activate(t, token, product, machine(i), `Machine ${i}`)).statusCode).toBe(200);
    const res = await check(token, machine(1));
    expect(res.statusCode).toBe(409);
    expect(faultOf(res)).toBe('IdleSeatTaken');
    expect(res.json().Fault.ExceptionVariables).toEqual([
      { Key: 'IdleDays', Value: String(IDLE_SEAT_RELEASE_DAYS) },
      { Key: 'InstancesMax', Value: '3' },
    ]);
    expect((await deviceNames(token)).sort()).toEqual(['Machine 2', 'Machine 3', 'Machine 4']);
    // A machine that never had a seat is told as before: not licensed.
    expect((await check(token, 'never-here')).json().Result).toMatchObject({ Licensed: false, DeviceId: null });
  });

  it('two sweeps at once release each seat once and queue one mail per seat', async () => {
    const { ids } = await customerWith('idle.race@example.com', 3);
    advanceDays(IDLE_SEAT_RELEASE_DAYS + 1);
    // Other tests' seats fall due as well: this one's are released first, alone.
    await t.services.jobs.drain(IDLE_SEAT_MAIL_JOB);
    await t.services.idleSeats.sweep();
    await t.services.jobs.drain(IDLE_SEAT_MAIL_JOB);
    const more = await customerWith('idle.race2@example.com', 3);
    advanceDays(IDLE_SEAT_RELEASE_DAYS + 1);
    const [a, b] = await Promise.all([t.services.idleSeats.sweep(), t.services.idleSeats.sweep()]);
    expect((a?.released ?? 0) + (b?.released ?? 0)).toBe(3);
    expect(await stillActive([...ids, ...more.ids])).toEqual([]);
    expect((await queuedMails()).sort()).toEqual([...more.ids].sort());
  });
});
