import { IDLE_SEAT_RELEASE_DAYS } from '@soundid/contracts';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../../../test/accounts-flow';
import { type SmtpRecorder, startSmtpRecorder, unfolded } from '../../../test/kit/smtp-recorder';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { IDLE_SEAT_MAIL_JOB } from './idle-seats';
import { activate, DAY_HOURS, ownKey } from './test-helpers';

/**
 * A queued mail whose SMTP delivery fails is tried again by the job queue
 * (docs/decisions/0052-idle-seats.md, docs/decisions/0051-job-queue.md): the failure is recorded
 * in the mail log (ADR 0038) and the job fails, so the owner is still told once the server is back.
 */
let smtp: SmtpRecorder;
let refusing = false;
let t: TestApp;
beforeAll(async () => {
  smtp = await startSmtpRecorder({ refuse: () => refusing });
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'SoundID <accounts@soundid.test>' });
  await t.services.jobs.start({ work: false });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

const jobStates = async () =>
  (
    (await t.database.db.execute(
      sql`select state, retry_count from pgboss.job where name = ${IDLE_SEAT_MAIL_JOB} order by created_on`,
    )) as unknown as { rows: { state: string; retry_count: number }[] }
  ).rows;

describe('idle-seat mail delivery', () => {
  it('a refused delivery is recorded as failed and the job is retried until the mail goes', async () => {
    const email = 'idle.retry@example.com';
    // Signed up through the SMTP path (there is no dev mailbox with SMTP_URL set).
    expect((await t.call('/api/accounts/register', { email, password: PASSWORD })).statusCode).toBe(201);
    const welcome = smtp.received.find((m) => m.to.includes(email));
    const verifyToken = /verify-email\/([\w-]+)/.exec(unfolded(welcome?.raw ?? ''))?.[1];
    const token = (await t.call('/api/accounts/VerifyEmail', { token: verifyToken })).json().Token;
    await ownKey(t, token, 'sid-reference');
    expect((await activate(t, token, 'SoundIDReference', 'retry-m1', 'Machine 1')).statusCode).toBe(200);
    refusing = true;
    const before = smtp.received.filter((m) => m.to.includes(email)).length;
    t.clock.advanceHours((IDLE_SEAT_RELEASE_DAYS + 1) * DAY_HOURS);
    expect(await t.services.idleSeats.sweep()).toMatchObject({ released: 1 });

    await expect(t.services.jobs.drain(IDLE_SEAT_MAIL_JOB)).rejects.toThrow(/Mail delivery failed/);
    expect(await jobStates()).toEqual([{ state: 'retry', retry_count: 0 }]);
    const failed = (await t.database.db.execute(
      sql`select outcome from mail_log where to_address = ${email} and subject like 'Machine 1 was signed out%'`,
    )) as unknown as { rows: { outcome: string }[] };
    expect(failed.rows.map((r) => r.outcome)).toEqual(['failed']);
    expect(smtp.received.filter((m) => m.to.includes(email))).toHaveLength(before);

    // The server takes mail again; the retry is due (its backoff is passed over here).
    refusing = false;
    await t.database.db.execute(sql`update pgboss.job set start_after = now() where name = ${IDLE_SEAT_MAIL_JOB}`);
    expect(await t.services.jobs.drain(IDLE_SEAT_MAIL_JOB)).toEqual([{ sent: true }]);
    const delivered = smtp.received.filter((m) => m.to.includes(email)).slice(before);
    expect(delivered).toHaveLength(1);
    expect(delivered[0]?.raw).toMatch(/^Subject: Machine 1 was signed out of SoundID Reference/m);
    expect((await jobStates()).map((j) => j.state)).toEqual(['completed']);
  });
});
