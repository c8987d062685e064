import { and, eq, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
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

const counterQuery = (db: Database) =>
  db
    .select()
    .from(attemptCounters)
    .where(and(eq(attemptCounters.scope, sql.placeholder('scope')), eq(attemptCounters.key, sql.placeholder('key'))))
    .limit(1)
    .prepare('attempt_counter');

/**
 * Attempt counters kept in the database, so that every replica counts the same attempts.
 * Each change is one atomic upsert: concurrent failures cannot slip past the limit.
 */
export class AttemptLimiter {
  /** The counter of a key, prepared once: sign-in reads it on every attempt. */
  private readonly counter: ReturnType<typeof counterQuery>;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
  ) {
    this.counter = counterQuery(db);
  }

  async isLocked(rule: LimitRule, key: string): Promise<boolean> {
    return (await this.standing(rule, key)) === 'locked';
  }

  /**
   * 'locked', 'counting' (attempts on record, not over the limit) or 'clear' (none on record):
   * a caller that saw 'clear' has no counter to reset after a success.
   */
  async standing(rule: LimitRule, key: string): Promise<'locked' | 'counting' | 'clear'> {
    const now = this.clock.now();
    const [row] = await this.counter.execute({ scope: rule.scope, key });
    if (!row) return 'clear';
    if (row.lockedUntil && row.lockedUntil > now) return 'locked';
    if (rule.lockMinutes) return 'counting';
    const windowOpen = row.windowStartedAt.getTime() + rule.windowMinutes * 60_000 > now.getTime();
    return windowOpen && row.count >= rule.max ? 'locked' : 'counting';
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

  async reset(rule: LimitRule, key: string): Promise<void> {
    await this.db
      .delete(attemptCounters)
      .where(sql`${attemptCounters.scope} = ${rule.scope} and ${attemptCounters.key} = ${key}`);
  }
}
