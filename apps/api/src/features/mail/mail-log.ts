import { PURGE_MAIL_LOG_JOB } from '@soundid/contracts';
import { lt } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type MailOutcome, mailLog, mailOutbox } from '../../db/schema';
import type { JobDefinition } from '../../integrations/job-queue';
import { addDays, type Clock } from '../../lib/clock';

/** The longest failure reason kept (the column's check): an SMTP reply line, an error code. */
export const MAIL_FAILURE_MAX = 200;

/** When the cleanup runs: daily, on the job queue (ADR 0038's revision, docs/decisions/0051-job-queue.md). */
export const PURGE_MAIL_LOG_SCHEDULE = '41 3 * * *';

export interface MailRecord {
  to: string;
  userId: string | null;
  subject: string;
  outcome: MailOutcome;
  failure: string | null;
  createdAt: Date;
  sentAt: Date | null;
}

/**
 * The record of the mails the service sends (`mail_log`, ADR 0038's revision "a record of every
 * mail"): subject, recipient, account, times and outcome, whatever the transport, never a body
 * or a link. Rows older than `retentionDays` are out of the export and deleted by `purgeExpired`,
 * which the job queue runs daily (`mailLogJobs`). The dev outbox's full mails are deleted at the
 * same age.
 */
export class MailLog {
  constructor(private readonly deps: { db: Database; clock: Clock; retentionDays: number }) {}

  /** The oldest time a record is kept and exported at, seen from `now`. */
  keptSince(now: Date): Date {
    return addDays(now, -this.deps.retentionDays);
  }

  async record(entry: MailRecord): Promise<void> {
    await this.deps.db.insert(mailLog).values(entry);
  }

  /** Deletes the records (and dev outbox mails) past the retention; answers how many records. */
  async purgeExpired(): Promise<number> {
    const cutoff = this.keptSince(this.deps.clock.now());
    const deleted = await this.deps.db
      .delete(mailLog)
      .where(lt(mailLog.createdAt, cutoff))
      .returning({ id: mailLog.id });
    await this.deps.db.delete(mailOutbox).where(lt(mailOutbox.createdAt, cutoff));
    return deleted.length;
  }
}

/**
 * A short reason for a failed delivery, fit to keep: the SMTP reply when there is one (`550 5.1.1
 * …`), else the error's code or message; one line, no link, at most MAIL_FAILURE_MAX characters.
 */
export function failureReason(error: unknown): string {
  const fields = (error ?? {}) as { response?: unknown; code?: unknown; message?: unknown };
  const text =
    typeof fields.response === 'string' && fields.response
      ? fields.response
      : [fields.code, fields.message].filter((part) => typeof part === 'string' && part).join(': ') || String(error);
  // No link is kept, even one a server quoted back (a link carries a live token).
  const line =
    text
      .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S+/gi, '[link]')
      .replace(/\s+/g, ' ')
      .trim() || 'unknown error';
  return line.length > MAIL_FAILURE_MAX ? `${line.slice(0, MAIL_FAILURE_MAX - 1)}…` : line;
}

/**
 * Mail records past their retention are deleted daily by one replica at a time (the queue's
 * exclusive policy); `npm run admin -- run-job purge-mail-log` runs it at once. A record past the
 * retention is out of the export already, whether or not the job has run (ADR 0038).
 */
export function mailLogJobs(mailLog: MailLog): JobDefinition<object>[] {
  return [
    {
      name: PURGE_MAIL_LOG_JOB,
      schedule: PURGE_MAIL_LOG_SCHEDULE,
      policy: 'exclusive',
      retryLimit: 2,
      run: async () => ({ deleted: await mailLog.purgeExpired() }),
    },
  ];
}
