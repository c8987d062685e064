import { and, eq, type SQL, type SQLWrapper, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { attemptCounters } from '../../db/schema';
import type { Clock } from '../../lib/clock';

export interface LimitRule {
  scope: string;
  /** Attempts allowed within the window. */
  max: number;
  windowMinutes: number;
  /** When set, reaching max locks the key for this long. */
  lockMinutes?: number;
}

/** A rule whose limit locks the key: the ones `reserve` serves. */
export type LockingRule = LimitRule & { lockMinutes: number };

/** An attempt counted before its check: whether it may be checked, and its place in the count. */
export interface Reservation {
  admitted: boolean;
  count: number;
}

const counterQuery = (db: Database) =>
  db
    .select()
    .from(attemptCounters)
    .where(and(eq(attemptCounters.scope, sql.placeholder('scope')), eq(attemptCounters.key, sql.placeholder('key'))))
    .limit(1)
    .prepare('attempt_counter');

/**
 * What a reserved attempt does to its counter (see `reserve`), for an insert of the attempt's
 * row (scope, key, count 1, window from now, no lock): a lock in force stays (and counts), a
 * fresh window restarts at 1, a lock run out restarts at the limit, otherwise one more.
 * Placeholders: now, windowStart, max. Shared by the limiter's own reservation and by
 * statements that reserve as they read (the sign-in's, so that a sign-in costs fewer round
 * trips: docs/benchmarks.md, sign-in with TOTP).
 */
export const reserveOnConflict = () => {
  const now = sql.placeholder('now');
  const freshWindow = sql`${attemptCounters.windowStartedAt} <= ${sql.placeholder('windowStart')}::timestamptz`;
  // A lock in force outlasts the window it was set in: a new window does not lift it early.
  const lockOn = sql`${attemptCounters.lockedUntil} > ${now}::timestamptz`;
  const lockOver = sql`${attemptCounters.lockedUntil} <= ${now}::timestamptz`;
  return {
    target: [attemptCounters.scope, attemptCounters.key],
    set: {
      count: sql`case when ${lockOn} then ${attemptCounters.count} + 1 when ${freshWindow} then 1 when ${lockOver} then ${sql.placeholder('max')}::integer else ${attemptCounters.count} + 1 end`,
      windowStartedAt: sql`case when ${lockOn} then ${attemptCounters.windowStartedAt} when ${freshWindow} then ${now}::timestamptz else ${attemptCounters.windowStartedAt} end`,
      lockedUntil: sql`case when ${lockOn} then ${attemptCounters.lockedUntil} when ${freshWindow} or ${lockOver} then null else ${attemptCounters.lockedUntil} end`,
    },
  };
};

/** The columns a reservation answers with: read by `reservationOf`. */
export const reservationColumns = { count: attemptCounters.count, lockedUntil: attemptCounters.lockedUntil };

/** The placeholder values of a reservation's statement for a rule at a moment. */
export function reservationParams(rule: LockingRule, now: Date) {
  return { now, windowStart: new Date(now.getTime() - rule.windowMinutes * 60_000), max: rule.max };
}

/** Whether a reserved attempt may be checked: not locked, and within the allowance. */
export function reservationOf(
  rule: LockingRule,
  row: { count: number | null; lockedUntil: Date | null } | undefined,
  now: Date,
): Reservation {
  const count = row?.count ?? Number.POSITIVE_INFINITY;
  const locked = row?.lockedUntil ? row.lockedUntil > now : false;
  return { admitted: !locked && count <= rule.max, count };
}

/**
 * A counter a success may clear: one not locked now (see `release`). Shared by the limiter's
 * release and by statements that release as they accept (the sign-in's second factor).
 */
const releasableCounter = (scope: SQLWrapper | string, key: SQLWrapper | string, now: SQLWrapper | Date) =>
  sql`${attemptCounters.scope} = ${scope} and ${attemptCounters.key} = ${key}
    and (${attemptCounters.lockedUntil} is null or ${attemptCounters.lockedUntil} <= ${now}::timestamptz)`;

/**
 * A success's release (see `release`) as a data-modifying CTE named `released`, for statements
 * that clear the counter as they accept; with `onlyIf`, only where that holds too. A statement
 * reads `exists (select 1 from released)` to learn whether it cleared the counter.
 */
export const releasedCte = (db: Queryable, rule: LimitRule, key: string, now: Date, onlyIf?: SQL) =>
  db.$with('released').as(
    db
      .delete(attemptCounters)
      .where(
        onlyIf
          ? sql`${releasableCounter(rule.scope, key, now)} and ${onlyIf}`
          : releasableCounter(rule.scope, key, now),
      )
      .returning({ key: attemptCounters.key }),
  );

/**
 * An attempt's reservation (see `reserve`) as an insert of its row, for the limiter's own
 * statement and statements that reserve as they read. Placeholders: scope, key, now,
 * windowStart, max.
 */
export const reserveInsert = (db: Queryable) =>
  db
    .insert(attemptCounters)
    .values({
      scope: sql.placeholder('scope'),
      key: sql.placeholder('key'),
      count: 1,
      windowStartedAt: sql`${sql.placeholder('now')}::timestamptz`,
      lockedUntil: null,
    })
    .onConflictDoUpdate(reserveOnConflict());

/** The sign-in's reservation, prepared once. */
const reserveQuery = (db: Database) => reserveInsert(db).returning(reservationColumns).prepare('attempt_reserve');

/** A successful attempt's release (see `release`), prepared once. Placeholders: scope, key, now. */
const releaseQuery = (db: Database) =>
  db
    .delete(attemptCounters)
    .where(releasableCounter(sql.placeholder('scope'), sql.placeholder('key'), sql.placeholder('now')))
    .returning({ key: attemptCounters.key })
    .prepare('attempt_release');

/**
 * Attempt counters kept in the database, so that every replica counts the same attempts.
 * Each change is one atomic upsert: concurrent failures cannot slip past the limit.
 */
export class AttemptLimiter {
  /** The counter of a key, prepared once: sign-in reads it on every attempt. */
  private readonly counter: ReturnType<typeof counterQuery>;
  private readonly reservation: ReturnType<typeof reserveQuery>;
  private readonly releasing: ReturnType<typeof releaseQuery>;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.counter = counterQuery(db);
    this.reservation = reserveQuery(db);
    this.releasing = releaseQuery(db);
  }

  async isLocked(rule: LimitRule, key: string): Promise<boolean> {
    return (await this.standing(rule, key)) === 'locked';
  }

  /**
   * 'locked', 'counting' (attempts on record, not over the limit) or 'clear' (none on record):
   * a caller that saw 'clear' has no counter to reset after a success.
   */
  async standing(rule: LimitRule, key: string): Promise<'locked' | 'counting' | 'clear'> {
    const [row] = await this.counter.execute({ scope: rule.scope, key });
    return standingOf(rule, row, this.clock.now());
  }

  /** Counts one attempt; returns true when the key is now over its limit. */
  async record(rule: LimitRule, key: string): Promise<boolean> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - rule.windowMinutes * 60_000);
    const lockUntil = rule.lockMinutes ? new Date(now.getTime() + rule.lockMinutes * 60_000) : null;
    const fresh = sql`${attemptCounters.windowStartedAt} <= ${windowStart}`;
    const [row] = await this.db
      .insert(attemptCounters)
      .values({ scope: rule.scope, key, count: 1, windowStartedAt: now, lockedUntil: rule.max <= 1 ? lockUntil : null })
      .onConflictDoUpdate({
        target: [attemptCounters.scope, attemptCounters.key],
        set: {
          count: sql`case when ${fresh} then 1 else ${attemptCounters.count} + 1 end`,
          windowStartedAt: sql`case when ${fresh} then ${now} else ${attemptCounters.windowStartedAt} end`,
          lockedUntil: sql`case when (case when ${fresh} then 1 else ${attemptCounters.count} + 1 end) >= ${rule.max} then ${lockUntil}::timestamptz else ${attemptCounters.lockedUntil} end`,
        },
      })
      .returning();
    return (row?.count ?? 0) >= rule.max;
  }

  /**
   * Counts one use of an allowance and says whether it was within it (count <= max). The count
   * and the answer come from one atomic upsert, so that concurrent uses on any replica cannot
   * all pass (ASVS 2.4.1): of n parallel uses with m left, exactly m get true. For allowances
   * (sign-ups, mails), not lockouts: a rule's lockMinutes plays no part here.
   */
  async take(rule: LimitRule, key: string): Promise<boolean> {
    const now = this.clock.now();
    const windowStart = new Date(now.getTime() - rule.windowMinutes * 60_000);
    const fresh = sql`${attemptCounters.windowStartedAt} <= ${windowStart}`;
    const [row] = await this.db
      .insert(attemptCounters)
      .values({ scope: rule.scope, key, count: 1, windowStartedAt: now, lockedUntil: null })
      .onConflictDoUpdate({
        target: [attemptCounters.scope, attemptCounters.key],
        set: {
          count: sql`case when ${fresh} then 1 else ${attemptCounters.count} + 1 end`,
          windowStartedAt: sql`case when ${fresh} then ${now} else ${attemptCounters.windowStartedAt} end`,
        },
      })
      .returning({ count: attemptCounters.count });
    return row !== undefined && row.count <= rule.max;
  }

  /**
   * Counts an attempt before it is checked (ADR 0028): one atomic upsert, so that of any number
   * of concurrent attempts at most `max` are admitted to the (costly) check, and none while the
   * key is locked. Once a lock has run out the count restarts at `max`: one attempt is checked,
   * and its failure locks again, until the window starts afresh. Rules with a lock only.
   */
  async reserve(rule: LockingRule, key: string): Promise<Reservation> {
    const now = this.clock.now();
    const [row] = await this.reservation.execute({ scope: rule.scope, key, ...reservationParams(rule, now) });
    return reservationOf(rule, row, now);
  }

  /**
   * The reserved attempt failed: it stays counted, and the one that reached the limit locks
   * the key. Returns whether the key is now locked, as the database has it: a success checked
   * in parallel may have cleared the count this attempt reached (the count starts afresh, as
   * after any success), and then there is no lock to answer with.
   */
  async fail(rule: LockingRule, key: string, reservation: Reservation): Promise<boolean> {
    if (reservation.count < rule.max) return false;
    const now = this.clock.now();
    const lockUntil = new Date(now.getTime() + rule.lockMinutes * 60_000);
    const locked = await this.db
      .update(attemptCounters)
      .set({ lockedUntil: lockUntil })
      .where(
        sql`${attemptCounters.scope} = ${rule.scope} and ${attemptCounters.key} = ${key} and ${attemptCounters.count} >= ${rule.max}
          and (${attemptCounters.lockedUntil} is null or ${attemptCounters.lockedUntil} <= ${now}::timestamptz)`,
      )
      .returning({ key: attemptCounters.key });
    if (locked.length > 0) return true;
    // Nothing locked by this statement: locked already by a parallel failure, or the counter
    // cleared (or restarted) by a parallel success. A fresh read tells which.
    return this.isLocked(rule, key);
  }

  /**
   * The reserved attempt succeeded: the count starts afresh, unless a concurrent failure locked
   * the key meanwhile, in which case the success is refused (returns false) and the lock stays.
   */
  async release(rule: LockingRule, key: string): Promise<boolean> {
    const now = this.clock.now();
    const released = await this.releasing.execute({ scope: rule.scope, key, now });
    if (released.length > 0) return true;
    // Nothing deleted: no counter (fine), or a locked one. A lock is only ever set, never lifted
    // early but by a password reset, so a fresh read tells which.
    return !(await this.isLocked(rule, key));
  }

  /** Clears a key's counter; answers whether it was locked, as the one statement found it. */
  async reset(rule: LimitRule, key: string, db: Queryable = this.db): Promise<boolean> {
    const [row] = await db
      .delete(attemptCounters)
      .where(sql`${attemptCounters.scope} = ${rule.scope} and ${attemptCounters.key} = ${key}`)
      .returning({
        count: attemptCounters.count,
        windowStartedAt: attemptCounters.windowStartedAt,
        lockedUntil: attemptCounters.lockedUntil,
      });
    return standingOf(rule, row, this.clock.now()) === 'locked';
  }
}

function standingOf(
  rule: LimitRule,
  row: { count: number; windowStartedAt: Date; lockedUntil: Date | null } | undefined,
  now: Date,
): 'locked' | 'counting' | 'clear' {
  if (!row) return 'clear';
  if (row.lockedUntil && row.lockedUntil > now) return 'locked';
  if (rule.lockMinutes) return 'counting';
  const windowOpen = row.windowStartedAt.getTime() + rule.windowMinutes * 60_000 > now.getTime();
  return windowOpen && row.count >= rule.max ? 'locked' : 'counting';
}
