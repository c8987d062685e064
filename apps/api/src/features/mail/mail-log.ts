import { lt } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../../db/client';
import { type MailOutcome, mailLog, mailOutbox } from '../../db/schema';
import { addDays, type Clock } from '../../lib/clock';

/** The longest failure reason kept (the column's check): an SMTP reply line, an error code. */
export const MAIL_FAILURE_MAX = 200;

/** How often the cleanup runs in the process (ADR 0038's revision: daily, no job queue yet). */
export const MAIL_LOG_CLEANUP_EVERY_MS = 24 * 60 * 60 * 1000;

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
 * which runs at start-up and daily (`startCleanup`). The dev outbox's full mails are deleted at
 * the same age.
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

  /**
   * Runs `purgeExpired` now and then every `everyMs` in this process, until `stop`. A failed run
   * is logged and the next one tries again; the timer does not keep the process alive.
   */
  startCleanup(log: FastifyBaseLogger, everyMs = MAIL_LOG_CLEANUP_EVERY_MS): MailLogCleanup {
    let running: Promise<void> = Promise.resolve();
    const run = () => {
      running = running.then(async () => {
        try {
          const deleted = await this.purgeExpired();
          if (deleted > 0)
            log.info({ deleted, retentionDays: this.deps.retentionDays }, 'mail records past retention deleted');
        } catch (error) {
          log.error({ err: error }, 'mail record cleanup failed');
        }
      });
      return running;
    };
    const first = run();
    const timer = setInterval(() => void run(), everyMs);
    timer.unref();
    return {
      started: first,
      async stop() {
        clearInterval(timer);
        await running;
      },
    };
  }
}

export interface MailLogCleanup {
  /** The start-up run, settled (a failure is logged, never thrown). */
  started: Promise<void>;
  /** Stops the timer and waits for a run under way. */
  stop(): Promise<void>;
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
 * Mail records past their retention are deleted when the app is ready and then daily in the
 * process (ADR 0038's revision; a job queue comes later). Every replica runs it: the deletion is
 * the same whoever runs it.
 */
export function registerMailLogCleanup(app: FastifyInstance, mailLog: MailLog): void {
  let cleanup: MailLogCleanup | undefined;
  app.addHook('onReady', async () => {
    cleanup = mailLog.startCleanup(app.log);
    await cleanup.started;
  });
  app.addHook('onClose', async () => {
    await cleanup?.stop();
  });
}
