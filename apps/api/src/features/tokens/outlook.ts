import { TOKEN_EXPIRY_WARNING_DAYS, TOKEN_RUNWAY_WINDOW_DAYS } from '@soundid/contracts';
import { and, eq, gt, type SQL, sql } from 'drizzle-orm';
import { tokenSpends } from '../../db/voice-ai-schema';
import { addDays } from '../../lib/clock';
import type { LiveLot } from './ledger';

const DAY_MS = 86_400_000;

/**
 * What a customer's tokens look like ahead (docs/decisions/0056-token-histories-and-outlook.md):
 * the live lots that expire within TOKEN_EXPIRY_WARNING_DAYS and how many days the balance lasts
 * at the pace of the last TOKEN_RUNWAY_WINDOW_DAYS.
 */
export interface TokenOutlook {
  balance: number;
  /** Live lots that expire within TOKEN_EXPIRY_WARNING_DAYS, earliest first. */
  expiring: { tokens: number; expiresAt: Date }[];
  /** Days the balance lasts at the customer's pace; null with no balance or nothing spent in the window. */
  runwayDays: number | null;
}

/** Where the runway's window starts: the spends after this moment set the pace. */
export const runwayWindowStart = (now: Date) => addDays(now, -TOKEN_RUNWAY_WINDOW_DAYS);

/**
 * The tokens the customer (placeholder `userId`) spent after `since` (placeholder), as a
 * subquery of another select (token_spends_user_idx: user_id, spent_at).
 */
export function recentSpendingField(): SQL<number> {
  const inWindow = and(
    eq(tokenSpends.userId, sql.placeholder('userId')),
    gt(tokenSpends.spentAt, sql.placeholder('since')),
  );
  return sql<number>`(select coalesce(sum(${tokenSpends.tokens}), 0) from ${tokenSpends} where ${inWindow})`.mapWith(
    Number,
  );
}

/**
 * The outlook from the live lots in the order spends take them (liveLotsQuery: earliest
 * purchased first) and the tokens spent in the window. The runway spends the
 * lots at the window's daily pace, earliest first; what a lot still holds when it expires is lost
 * and does not make the balance last longer.
 */
export function tokenOutlook(lots: readonly LiveLot[], spentInWindow: number, now: Date): TokenOutlook {
  const balance = lots.reduce((total, lot) => total + lot.remaining, 0);
  const noticeUntil = addDays(now, TOKEN_EXPIRY_WARNING_DAYS);
  const expiring = lots
    .filter((lot) => lot.remaining > 0 && lot.expiresAt <= noticeUntil)
    .map((lot) => ({ tokens: lot.remaining, expiresAt: lot.expiresAt }))
    .sort((a, b) => a.expiresAt.getTime() - b.expiresAt.getTime());
  const pace = spentInWindow / TOKEN_RUNWAY_WINDOW_DAYS;
  if (balance === 0 || pace <= 0) return { balance, expiring, runwayDays: null };
  let days = 0;
  for (const lot of lots) {
    const expiresIn = (lot.expiresAt.getTime() - now.getTime()) / DAY_MS;
    if (days >= expiresIn) continue;
    const used = Math.min(lot.remaining, pace * (expiresIn - days));
    days += used / pace;
  }
  return { balance, expiring, runwayDays: days };
}
