import { type DataExport, PURGE_MAIL_LOG_JOB } from '@soundid/contracts';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { freshSession, PASSWORD } from '../../../test/accounts-flow';
import { type SmtpRecorder, startSmtpRecorder, unfolded } from '../../../test/kit/smtp-recorder';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { mailLog, mailOutbox } from '../../db/schema';
import { addDays } from '../../lib/clock';
import { stepUpCodeMail } from '../accounts/mails';
import { failureReason, PURGE_MAIL_LOG_SCHEDULE } from './mail-log';

/**
 * The record of the mails the service sends (docs/decisions/0038-customer-data-export.md,
 * revision "a record of every mail"), through the production path: a real SMTP server.
 */
const VERIFY_SUBJECT = 'Verify your email address for My SoundID';
const DAY_HOURS = 24;

let smtp: SmtpRecorder;
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpRecorder({ refuse: (address) => address.startsWith('bounce') });
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'SoundID <accounts@soundid.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
});

async function exportOf(email: string, app = t): Promise<DataExport> {
  const res = await app.call('/api/accounts/ExportMyData', {}, await freshSession(app, email));
  expect(res.statusCode).toBe(200);
  return res.json().Result as DataExport;
}

async function signUp(email: string, app = t): Promise<void> {
  const res = await app.call('/api/accounts/register', { email, password: PASSWORD });
  expect(res.statusCode).toBe(201);
  await app.services.accounts.settled();
}

async function recordsTo(email: string, app = t) {
  return app.database.db.select().from(mailLog).where(eq(mailLog.to, email)).orderBy(mailLog.id);
}

describe('with SMTP: a record of each mail, never its body or links', () => {
  // ASVS 5.0 14.2.4 and 16.2.5: what is kept of a mail is classified (no link, no body); the
  // customer's export (ASVS 5.0 14.2.6's minimum: subject and times) still lists it.
  it('lists the verification mail of a sign-up in the export, with its subject and times', async () => {
    const sentAt = t.clock.now().toISOString();
    await signUp('logged@example.com');
    const delivered = smtp.received.find((mail) => mail.to.includes('logged@example.com'));
    expect(delivered).toBeDefined();

    const data = await exportOf('logged@example.com');
    expect(data.Mails).toEqual([{ Subject: VERIFY_SUBJECT, CreatedAt: sentAt, SentAt: sentAt }]);
  });

  it('keeps no link, token, body or dev outbox copy of it', async () => {
    await signUp('kept@example.com');
    const [delivered] = smtp.received.filter((mail) => mail.to.includes('kept@example.com'));
    const link = /https?:\/\/\S*verify-email\/([A-Za-z0-9_-]{16,})/.exec(unfolded(delivered?.raw ?? ''));
    expect(link?.[1]).toBeDefined();
    const token = link?.[1] ?? 'no token';

    const rows = await recordsTo('kept@example.com');
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ subject: VERIFY_SUBJECT, outcome: 'sent', failure: null });
    expect(rows[0]?.userId).toEqual(expect.any(String));
    const stored = JSON.stringify(rows);
    for (const secret of [token, 'verify-email', 'http://', 'https://', t.services.config.publicUrl]) {
      expect(stored).not.toContain(secret);
    }
    // The columns are the record's own: nothing that could hold a body or a link.
    expect(Object.keys(rows[0] ?? {}).sort()).toEqual([
      'createdAt',
      'failure',
      'id',
      'outcome',
      'sentAt',
      'subject',
      'to',
      'userId',
    ]);
    expect(await t.database.db.$count(mailOutbox)).toBe(0);
  });

  it('keeps a confirmation code out of the record and the log, while the customer gets it in the subject (ASVS 16.2.5)', async () => {
    const logged: string[] = [];
    const spy = vi.spyOn(t.app.log, 'info').mockImplementation((...args: unknown[]) => {
      logged.push(JSON.stringify(args));
    });
    try {
      await t.services.mailer.send(stepUpCodeMail({ to: 'coded@example.com', code: '482913', minutes: 10 }));
    } finally {
      spy.mockRestore();
    }
    const delivered = smtp.received.find((mail) => mail.to.includes('coded@example.com'));
    expect(unfolded(delivered?.raw ?? '')).toContain('Subject: 482913 is your My SoundID confirmation code');
    const rows = await recordsTo('coded@example.com');
    expect(rows.map((row) => row.subject)).toEqual(['Your My SoundID confirmation code']);
    expect(JSON.stringify(rows)).not.toContain('482913');
    expect(logged.join('\n')).toContain('Your My SoundID confirmation code');
    expect(logged.join('\n')).not.toContain('482913');
  });

  it('records a refused delivery as failed, with a short reason, and lists it unsent', async () => {
    const at = t.clock.now().toISOString();
    await signUp('bounce@example.com');
    expect(smtp.received.some((mail) => mail.to.includes('bounce@example.com'))).toBe(false);

    const data = await exportOf('bounce@example.com');
    expect(data.Mails).toEqual([{ Subject: VERIFY_SUBJECT, CreatedAt: at, SentAt: null }]);
    const [row] = await recordsTo('bounce@example.com');
    expect(row).toMatchObject({ outcome: 'failed', sentAt: null });
    expect(row?.failure).toMatch(/550/);
    expect(row?.failure?.length).toBeLessThanOrEqual(200);
  });
});

describe('retention (MAIL_LOG_RETENTION_DAYS, 400 days unless set)', () => {
  // ASVS 5.0 14.2.7: the record is deleted once past its retention, on a schedule.
  it('leaves a record older than the retention out of the export, and the cleanup deletes it', async () => {
    await signUp('old@example.com');
    expect((await exportOf('old@example.com')).Mails).toHaveLength(1);

    t.clock.advanceHours(399 * DAY_HOURS);
    await signUp('bounce.newer@example.com');
    t.clock.advanceHours(2 * DAY_HOURS);
    // 401 days on: the first is past the retention, a mail of two days ago is not.
    expect((await exportOf('old@example.com')).Mails).toEqual([]);
    expect((await exportOf('bounce.newer@example.com')).Mails).toHaveLength(1);
    expect(await recordsTo('old@example.com')).toHaveLength(1);

    const deleted = await t.services.mailLog.purgeExpired();
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await recordsTo('old@example.com')).toEqual([]);
    expect(await recordsTo('bounce.newer@example.com')).toHaveLength(1);
  });
});

describe('without SMTP (development)', () => {
  it('keeps the mail in full in the dev outbox, as before, and its record like with SMTP', async () => {
    const dev = await createTestApp();
    try {
      const at = dev.clock.now().toISOString();
      await signUp('dev@example.com', dev);
      const [mail] = await dev.mailsTo('dev@example.com');
      expect(mail).toMatchObject({ Subject: VERIFY_SUBJECT, Links: [expect.stringMatching(/verify-email\//)] });
      expect(mail?.Text).toContain(mail?.Links[0]);

      const [row] = await recordsTo('dev@example.com', dev);
      expect(row).toMatchObject({ subject: VERIFY_SUBJECT, outcome: 'sent', failure: null });
      expect(JSON.stringify(row)).not.toContain('verify-email');
      expect((await exportOf('dev@example.com', dev)).Mails).toEqual([
        { Subject: VERIFY_SUBJECT, CreatedAt: at, SentAt: at },
      ]);
    } finally {
      await dev.close();
    }
  });
});

describe('the cleanup: a daily job on the queue', () => {
  // ASVS 5.0 14.2.7: deletion on a defined schedule, the retention a setting.
  it('is scheduled daily and deletes the records older than MAIL_LOG_RETENTION_DAYS when it runs', async () => {
    const days = 30;
    const base = await createTestApp({ MAIL_LOG_RETENTION_DAYS: String(days) });
    try {
      const { db } = base.database;
      const record = (to: string, ageDays: number) => {
        const at = addDays(base.clock.now(), -ageDays);
        return db.insert(mailLog).values({ to, subject: 'Old news', outcome: 'sent', createdAt: at, sentAt: at });
      };
      const kept = async () => (await db.select({ to: mailLog.to }).from(mailLog).orderBy(mailLog.id)).map((r) => r.to);
      await record('expired@example.com', days + 1);
      await record('fresh@example.com', days - 1);
      await db.insert(mailOutbox).values({
        to: 'expired@example.com',
        subject: 'Old news',
        text: 'body',
        html: '<p>body</p>',
        createdAt: addDays(base.clock.now(), -(days + 1)),
      });
      const { jobs } = base.services;
      await jobs.start({ work: false });
      expect(await jobs.summary()).toContainEqual(
        expect.objectContaining({ name: PURGE_MAIL_LOG_JOB, schedule: PURGE_MAIL_LOG_SCHEDULE }),
      );

      // The schedule's run, as a replica working the queue takes it.
      await jobs.enqueue(PURGE_MAIL_LOG_JOB);
      expect(await jobs.drain(PURGE_MAIL_LOG_JOB)).toEqual([{ deleted: 1 }]);
      expect(await kept()).toEqual(['fresh@example.com']);
      expect(await db.$count(mailOutbox)).toBe(0);

      // Two days on, the other record is past 30 days too; the next day's run takes it.
      base.clock.advanceHours(2 * DAY_HOURS);
      await jobs.enqueue(PURGE_MAIL_LOG_JOB);
      expect(await jobs.drain(PURGE_MAIL_LOG_JOB)).toEqual([{ deleted: 1 }]);
      expect(await kept()).toEqual([]);
    } finally {
      await base.close();
    }
  });
});

describe('failureReason', () => {
  it('keeps the SMTP reply, one line, no link, at most 200 characters', () => {
    expect(failureReason(Object.assign(new Error('x'), { response: '550 5.1.1 Mailbox\r\n unavailable' }))).toBe(
      '550 5.1.1 Mailbox unavailable',
    );
    expect(failureReason(Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:1'), { code: 'ESOCKET' }))).toBe(
      'ESOCKET: connect ECONNREFUSED 127.0.0.1:1',
    );
    expect(failureReason(new Error('see https://my.soundid.test/verify-email/SECRET-TOKEN now'))).toBe(
      'see [link] now',
    );
    const long = failureReason(new Error('y'.repeat(500)));
    expect(long).toHaveLength(200);
    expect(failureReason(undefined)).toBe('undefined');
  });
});
