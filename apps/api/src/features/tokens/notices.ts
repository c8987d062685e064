import {
  expiryNoticeWindow,
  formatExpiryDay,
  LOW_BALANCE_DEFAULT_THRESHOLD,
  type NotificationPreferences,
  TOKEN_EXPIRY_NOTICE_KINDS,
  TOKEN_EXPIRY_NOTICES_JOB,
  TOKEN_NOTICES_ANCHOR,
  type TokenExpiryNoticeKind,
  tokenNoticeMailText as text,
} from '@soundid/contracts';
import { and, asc, eq, gt, inArray, lte, notExists, type SQL, sql } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../../db/client';
import { users } from '../../db/schema';
import { notificationPreferences, tokenNotices } from '../../db/token-notices-schema';
import { tokenLots } from '../../db/voice-ai-schema';
import type { JobDefinition } from '../../integrations/job-queue';
import { renderMail } from '../../integrations/mail/layout';
import type { OutgoingMail } from '../../integrations/mail/types';
import { addDays, type Clock } from '../../lib/clock';
import type { Mailer } from '../mail/mailer';
import type { SpendWatcher } from './ledger';

/**
 * Voice AI token notices by mail (docs/decisions/0057-token-notices.md): each lot with tokens
 * left is announced 30, 7 and 1 day before it expires, and a spend that takes the balance below
 * the customer's threshold is announced, once per crossing. A row of token_notices per notice
 * makes each happen once across the replicas; its mail is queued in the transaction that wrote it.
 */
export { TOKEN_EXPIRY_NOTICES_JOB };
export const TOKEN_NOTICE_MAIL_JOB = 'token-notice-mail';
/** Minute 23 of every hour, UTC: off the hour, and off the idle-seat sweep's minute 17. */
export const TOKEN_EXPIRY_NOTICES_SCHEDULE = '23 * * * *';
/** Lots read per query; each page's notices are written in one transaction. */
const SWEEP_BATCH = 200;

export interface TokenNoticesDeps {
  db: Database;
  clock: Clock;
  /** Before a transaction that queues: makes the job queue ready (the root wires it). */
  prepare(): Promise<void>;
  /**
   * Called in the notices' transaction: queues their mail, one for a customer's notices written
   * together (a low-balance notice; the expiry notices of one sweep page: ADR 0057, addendum).
   */
  onNotice(tx: Transaction, notice: { noticeIds: string[]; userId: string }): Promise<void>;
}

export interface PreferencesInput {
  expiryNotices: boolean;
  lowBalanceNotices: boolean;
  lowBalanceThreshold: number;
}

const DEFAULTS = { expiryNotices: true, lowBalanceNotices: true, lowBalanceThreshold: LOW_BALANCE_DEFAULT_THRESHOLD };

export class TokenNotices implements SpendWatcher {
  constructor(private readonly deps: TokenNoticesDeps) {}

  /** The customer's choice (the defaults when they never chose). */
  async preferences(userId: string, db: Queryable = this.deps.db): Promise<NotificationPreferences> {
    const [row] = await db.select().from(notificationPreferences).where(eq(notificationPreferences.userId, userId));
    return resultOf(row ?? DEFAULTS);
  }

  /** Saves all three at once (an upsert: the same again changes nothing but the time). */
  async setPreferences(userId: string, input: PreferencesInput): Promise<NotificationPreferences> {
    const values = { ...input, updatedAt: this.deps.clock.now() };
    const [row] = await this.deps.db
      .insert(notificationPreferences)
      .values({ userId, ...values })
      .onConflictDoUpdate({ target: notificationPreferences.userId, set: values })
      .returning();
    return resultOf(row ?? DEFAULTS);
  }

  /** Before the spend's transaction (SpendWatcher). */
  prepare(): Promise<void> {
    return this.deps.prepare();
  }

  /**
   * In the spend's transaction, after it (SpendWatcher): a spend that takes the balance from at
   * least the threshold to below it records a low-balance notice and queues its mail. Spends are
   * serialised on the customer's row, so two spends never both see the crossing; the balance
   * goes back to at least the threshold only through a credit, which arms the next notice.
   */
  async onSpent(
    tx: Transaction,
    spend: { userId: string; spendId: string; balanceBefore: number; balanceAfter: number },
  ): Promise<void> {
    const prefs = await this.preferences(spend.userId, tx);
    if (!prefs.LowBalanceNotices) return;
    const threshold = prefs.LowBalanceThreshold;
    if (!(spend.balanceBefore >= threshold && spend.balanceAfter < threshold)) return;
    const [notice] = await tx
      .insert(tokenNotices)
      .values({
        userId: spend.userId,
        kind: 'low-balance',
        spendId: spend.spendId,
        tokens: spend.balanceAfter,
        threshold,
        mailed: true,
        createdAt: this.deps.clock.now(),
      })
      .onConflictDoNothing()
      .returning({ id: tokenNotices.id });
    if (notice) await this.deps.onNotice(tx, { noticeIds: [notice.id], userId: spend.userId });
  }

  /**
   * Writes every expiry notice due now, kind by kind, page by page (keyset on the partial index
   * token_lots_expiry_idx). A page's notices go in one statement with ON CONFLICT DO NOTHING:
   * whichever replica's sweep inserts a (lot, kind) queues its mail, in the same transaction;
   * the other inserts nothing. A customer who turned expiry notices off gets the row, unmailed.
   */
  async sweep(): Promise<{ noticed: number; mailed: number; byKind: Record<string, number> }> {
    await this.deps.prepare();
    const now = this.deps.clock.now();
    const byKind: Record<string, number> = {};
    let noticed = 0;
    let mailed = 0;
    for (const kind of TOKEN_EXPIRY_NOTICE_KINDS) {
      let after: DueLotsCursor | undefined;
      for (;;) {
        const page = await dueLotsPage(this.deps.db, kind, now, after);
        if (page.length > 0) {
          const written = await this.notify(
            kind,
            now,
            page.map((lot) => lot.id),
          );
          noticed += written.length;
          mailed += written.filter((n) => n.mailed).length;
          if (written.length) byKind[kind] = (byKind[kind] ?? 0) + written.length;
        }
        const last = page.at(-1);
        if (page.length < SWEEP_BATCH || !last) break;
        after = { expiresAt: last.expiresAt, id: last.id };
      }
    }
    return { noticed, mailed, byKind };
  }

  private notify(kind: TokenExpiryNoticeKind, now: Date, lotIds: string[]) {
    return this.deps.db.transaction(async (tx) => {
      // Checked again as the rows are written: a lot spent to nothing since the page was read is left out.
      const due = tx
        .select({
          // Every column, in the table's order (drizzle's insert from a select).
          id: sql<string>`gen_random_uuid()`.as('id'),
          userId: tokenLots.userId,
          kind: sql<TokenExpiryNoticeKind>`${kind}`.as('kind'),
          lotId: tokenLots.id,
          spendId: sql<string | null>`null::uuid`.as('spend_id'),
          tokens: tokenLots.remaining,
          expiresAt: tokenLots.expiresAt,
          threshold: sql<number | null>`null::integer`.as('threshold'),
          mailed: sql<boolean>`coalesce(${notificationPreferences.expiryNotices}, true)`.as('mailed'),
          createdAt: sql<Date>`${now.toISOString()}::timestamptz`.as('created_at'),
        })
        .from(tokenLots)
        .leftJoin(notificationPreferences, eq(notificationPreferences.userId, tokenLots.userId))
        .where(and(inArray(tokenLots.id, lotIds), dueLots(kind, now)))
        // Every replica writes a page's rows in one order: two sweeps at once wait on each other's
        // first row instead of locking rows crosswise (a deadlock), and one of them writes them all.
        .orderBy(asc(tokenLots.id));
      const written = await tx
        .insert(tokenNotices)
        .select(due)
        .onConflictDoNothing()
        .returning({ id: tokenNotices.id, userId: tokenNotices.userId, mailed: tokenNotices.mailed });
      // One mail per customer for what this page found due: a customer holding several lots in
      // the window (the first sweep after the notices were introduced, or after an outage) gets
      // one mail listing them, not one each.
      const byCustomer = new Map<string, string[]>();
      for (const notice of written) {
        if (notice.mailed) byCustomer.set(notice.userId, [...(byCustomer.get(notice.userId) ?? []), notice.id]);
      }
      for (const [userId, noticeIds] of byCustomer) await this.deps.onNotice(tx, { noticeIds, userId });
      return written;
    });
  }

  /**
   * The mail of notices written together, as they stand now; undefined when there is no longer
   * anything to tell. Expiry notices whose lot was spent to nothing, has expired, or whose
   * customer turned them off since are left out; one left is told as before, several in one list.
   */
  async mailOf(noticeIds: string[], publicUrl: string): Promise<{ mail: OutgoingMail; userId: string } | undefined> {
    const now = this.deps.clock.now();
    const rows = await this.deps.db
      .select({ notice: tokenNotices, to: users.email, lotRemaining: tokenLots.remaining })
      .from(tokenNotices)
      .innerJoin(users, eq(users.id, tokenNotices.userId))
      .leftJoin(tokenLots, eq(tokenLots.id, tokenNotices.lotId))
      .where(inArray(tokenNotices.id, noticeIds))
      .orderBy(asc(tokenNotices.expiresAt), asc(tokenNotices.id));
    // The account (or the lot) was deleted since.
    const [first] = rows;
    if (!first) return undefined;
    const { userId } = first.notice;
    const to = first.to;
    const prefs = await this.preferences(userId);
    const links = { publicUrl };
    if (first.notice.kind === 'low-balance') {
      if (!prefs.LowBalanceNotices) return undefined;
      const { tokens, threshold } = first.notice;
      return { userId, mail: lowBalanceMail({ to, balance: tokens, threshold: threshold ?? 0, ...links }) };
    }
    if (!prefs.ExpiryNotices) return undefined;
    // Spent to nothing since, or expired already: nothing to warn of.
    const lots = rows.flatMap(({ notice, lotRemaining }) => {
      const tokens = lotRemaining ?? 0;
      const { expiresAt } = notice;
      if (tokens <= 0 || !expiresAt || expiresAt <= now) return [];
      // The days actually left when it goes (a 7-day notice may go with 6 and a bit left).
      return [{ tokens, expiresAt, days: Math.max(1, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS)) }];
    });
    const [only] = lots;
    if (!only) return undefined;
    return {
      userId,
      mail: lots.length === 1 ? expiryMail({ to, ...only, ...links }) : expiryDigestMail(to, lots, publicUrl),
    };
  }
}

function resultOf(row: PreferencesInput): NotificationPreferences {
  return {
    ExpiryNotices: row.expiryNotices,
    LowBalanceNotices: row.lowBalanceNotices,
    LowBalanceThreshold: row.lowBalanceThreshold,
    DefaultLowBalanceThreshold: LOW_BALANCE_DEFAULT_THRESHOLD,
  };
}

/** Lots with tokens left whose expiry is in the kind's window at `now` (expiryNoticeWindow). */
function dueLots(kind: TokenExpiryNoticeKind, now: Date): SQL | undefined {
  const { fromDays, toDays } = expiryNoticeWindow(kind);
  return and(
    gt(tokenLots.remaining, 0),
    gt(tokenLots.expiresAt, addDays(now, fromDays)),
    lte(tokenLots.expiresAt, addDays(now, toDays)),
  );
}

/** Where the next page of due lots starts: the last lot's expiry (as the database wrote it) and id. */
export interface DueLotsCursor {
  expiresAt: string;
  id: string;
}

/**
 * One page of the lots an expiry notice of `kind` is due for and not yet written, by expiry,
 * after `after` (keyset): a range scan of token_lots_expiry_idx, each lot's notice looked up in
 * token_notices_lot_kind_key (plan in docs/benchmarks.md, Scale).
 */
export function dueLotsPage(db: Queryable, kind: TokenExpiryNoticeKind, now: Date, after?: DueLotsCursor) {
  const page = after
    ? sql`(${tokenLots.expiresAt}, ${tokenLots.id}) > (${after.expiresAt}::timestamptz, ${after.id}::uuid)`
    : undefined;
  const written = db
    .select({ one: sql`1` })
    .from(tokenNotices)
    .where(and(eq(tokenNotices.lotId, tokenLots.id), eq(tokenNotices.kind, kind)));
  return (
    db
      // The expiry as the database holds it (microseconds), not as a Date (milliseconds): the next
      // page starts exactly after this one.
      .select({ id: tokenLots.id, expiresAt: sql<string>`${tokenLots.expiresAt}::text` })
      .from(tokenLots)
      .where(and(dueLots(kind, now), page, notExists(written)))
      .orderBy(asc(tokenLots.expiresAt), asc(tokenLots.id))
      .limit(SWEEP_BATCH)
  );
}

/** A notice's mail: its words, a "Buy tokens" button and the link to the preferences. */
function noticeMail(to: string, publicUrl: string, words: { subject: string; heading: string; intro: string[] }) {
  return renderMail({
    to,
    ...words,
    action: { label: text.buyAction, link: `${publicUrl}/products/voice-ai` },
    outro: [text.preferencesOutro],
    settings: { label: text.preferencesLink, link: `${publicUrl}/profile#${TOKEN_NOTICES_ANCHOR}` },
  });
}

const DAY_MS = 24 * 60 * 60 * 1000;

/** A lot's expiry notice. */
export function expiryMail(input: {
  to: string;
  tokens: number;
  expiresAt: Date;
  days: number;
  publicUrl: string;
}): OutgoingMail {
  return noticeMail(input.to, input.publicUrl, {
    subject: text.expirySubject(input.tokens, input.days),
    heading: text.expiryHeading,
    intro: text.expiryIntro(input.tokens, formatExpiryDay(input.expiresAt.getTime()), input.days),
  });
}

/** Several lots' expiry notices in one mail, nearest first. */
export function expiryDigestMail(
  to: string,
  lots: readonly { tokens: number; expiresAt: Date; days: number }[],
  publicUrl: string,
): OutgoingMail {
  const total = lots.reduce((sum, lot) => sum + lot.tokens, 0);
  const furthest = Math.max(...lots.map((lot) => lot.days));
  return noticeMail(to, publicUrl, {
    subject: text.expiryDigestSubject(total, furthest),
    heading: text.expiryHeading,
    intro: text.expiryDigestIntro(
      total,
      lots.map((lot) => ({ tokens: lot.tokens, expiresOn: formatExpiryDay(lot.expiresAt.getTime()), days: lot.days })),
    ),
  });
}

/** The low-balance notice. */
export function lowBalanceMail(input: {
  to: string;
  balance: number;
  threshold: number;
  publicUrl: string;
}): OutgoingMail {
  return noticeMail(input.to, input.publicUrl, {
    subject: text.lowBalanceSubject,
    heading: text.lowBalanceHeading,
    intro: text.lowBalanceIntro(input.balance, input.threshold),
  });
}

/**
 * The jobs: the hourly sweep (one at a time across the replicas) and one mail per notice group (the
 * mailer records a delivery that failed, as for every mail: ADR 0038).
 */
export function tokenNoticeJobs(deps: {
  notices: TokenNotices;
  mailer: Mailer;
  publicUrl: string;
}): JobDefinition<object>[] {
  const sweep: JobDefinition<object> = {
    name: TOKEN_EXPIRY_NOTICES_JOB,
    schedule: TOKEN_EXPIRY_NOTICES_SCHEDULE,
    policy: 'exclusive',
    retryLimit: 2,
    expireInSeconds: 15 * 60,
    run: async () => deps.notices.sweep(),
  };
  // `noticeId`: a job queued before mails were grouped (ADR 0057, addendum), still in the queue.
  const mail: JobDefinition<{ noticeIds?: string[]; noticeId?: string }> = {
    name: TOKEN_NOTICE_MAIL_JOB,
    retryLimit: 5,
    run: async ({ noticeIds, noticeId }) => {
      const due = await deps.notices.mailOf(noticeIds ?? (noticeId ? [noticeId] : []), deps.publicUrl);
      if (!due) return { sent: false };
      // A refused delivery fails the job: the queue tries again (docs/decisions/0051-job-queue.md, addendum).
      await deps.mailer.send(due.mail, { userId: due.userId }, { onFailure: 'throw' });
      return { sent: true };
    },
  };
  return [sweep, mail as unknown as JobDefinition<object>];
}
