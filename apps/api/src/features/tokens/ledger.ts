import {
  type ConsumeTokensResult,
  type PagedResult,
  type PurchaseHistoryEntry,
  refundedLotType,
  TOKEN_EXPIRY_WARNING_DAYS,
  type TokenLotCause,
  tokenCostForSeconds,
  tokenExpiry,
  type UsageHistoryEntry,
  type UsagePayer,
  usageTypeOf,
  withdrawnLotType,
} from '@soundid/contracts';
import { and, asc, count, desc, eq, gt, inArray, type Placeholder, sql, sum } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../../db/client';
import { users } from '../../db/schema';
import { tokenLots, tokenSpendAllocations, tokenSpends, tokenWithdrawals } from '../../db/voice-ai-schema';
import { addDays, type Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';

export const HISTORY_PAGE_SIZE = 10;

const CAUSE_LABELS: Record<TokenLotCause, string> = { purchase: 'Purchased', grant: 'Granted', trial: 'Trial' };

export interface TokenHoldings {
  /** Tokens in live lots: what the customer can spend now. */
  balance: number;
  /** The earliest-expiring live lot, when it expires within TOKEN_EXPIRY_WARNING_DAYS. */
  expiringSoon: { tokens: number; expiresAt: Date } | null;
}

export interface Credit {
  userId: string;
  amount: number;
  cause: TokenLotCause;
  /** Identifies what pays for the lot (payment, grant): the same source credits once. */
  sourceRef: string;
  /** A grant made to expire sooner (days from now); never later than a purchase's expiry. */
  validDays?: number;
}

/** What a refund did to the lot its payment credited. */
export interface Withdrawal {
  /** Tokens taken back by this call. */
  withdrawn: number;
  /** Tokens taken back by every refund of the lot so far. */
  withdrawnTotal: number;
  /** Tokens of the lot already spent (not recoverable: recorded, never taken below zero). */
  spent: number;
  /** Tokens left in the lot. */
  remaining: number;
}

/** What finance's withdrawal did (AdminWithdrawTokens). */
export interface FinanceWithdrawal {
  /** False when the reference had withdrawn before: nothing changed. */
  withdrawn: boolean;
  balanceBefore: number;
  balanceAfter: number;
  /** The lots taken from, earliest purchased first. */
  takenFrom: { lotId: string; tokens: number }[];
}

/**
 * Told of each spend inside its transaction (the low-balance notice: ADR 0057). `prepare` runs
 * before the transaction (what onSpent needs made ready: the job queue).
 */
export interface SpendWatcher {
  prepare(): Promise<void>;
  onSpent(
    tx: Transaction,
    spend: { userId: string; spendId: string; balanceBefore: number; balanceAfter: number },
  ): Promise<void>;
}

/**
 * The token ledger: lots credited by purchases, grants and trials, spent by the apps.
 * Every change is one transaction; a customer's spends are serialised on their user row,
 * so concurrent spends can never take the balance below zero.
 */
export class TokenLedger {
  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    private readonly options: {
      /** Told of each spend in its transaction: the low-balance notice (ADR 0057). */
      watcher?: SpendWatcher;
      /** Where the receipt of the purchase that credited a lot is (ADR 0058), by the lot's source; none: no link. */
      receiptUrlOf?: (sourceRef: string) => string | undefined;
    } = {},
  ) {}

  /** Credits a lot once per source; returns false when the source was already credited. */
  async credit(tx: Queryable, credit: Credit): Promise<boolean> {
    if (!Number.isInteger(credit.amount) || credit.amount <= 0) throw new Fault('RequestInvalid');
    const purchasedAt = this.clock.now();
    const rows = await tx
      .insert(tokenLots)
      .values({
        userId: credit.userId,
        amount: credit.amount,
        remaining: credit.amount,
        cause: credit.cause,
        sourceRef: credit.sourceRef,
        purchasedAt,
        expiresAt: expiryOf(purchasedAt, credit.validDays),
      })
      .onConflictDoNothing({ target: tokenLots.sourceRef })
      .returning({ id: tokenLots.id });
    return rows.length === 1;
  }

  /**
   * Takes back what a refund of the payment behind `sourceRef` calls for (ADR 0032): `target` is
   * the total the refunds so far entitle to take (a count that only grows); what was taken before
   * counts towards it, and no more than the lot still holds is taken, so the balance never goes
   * below zero and the tokens already spent stay spent. Serialised with spends on the customer's
   * row (the lock spend takes), so a spend racing a refund never overdraws. Undefined when the
   * source credited no lot.
   */
  async withdraw(tx: Queryable, userId: string, sourceRef: string, target: number): Promise<Withdrawal | undefined> {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
    const [lot] = await tx
      .select()
      .from(tokenLots)
      .where(and(eq(tokenLots.sourceRef, sourceRef), eq(tokenLots.userId, userId)))
      .for('update');
    if (!lot) return undefined;
    const due = Math.max(0, Math.min(target, lot.amount) - lot.withdrawn);
    const take = Math.min(due, lot.remaining);
    // What finance took back is neither spent nor the refund's.
    const spent = lot.amount - lot.remaining - lot.withdrawn - lot.financeWithdrawn;
    await tx
      .update(tokenLots)
      .set({
        remaining: sql`${tokenLots.remaining} - ${take}`,
        withdrawn: sql`${tokenLots.withdrawn} + ${take}`,
        refundedAt: lot.refundedAt ?? this.clock.now(),
      })
      .where(eq(tokenLots.id, lot.id));
    return { withdrawn: take, withdrawnTotal: lot.withdrawn + take, spent, remaining: lot.remaining - take };
  }

  /**
   * Finance takes tokens back (AdminWithdrawTokens): from the live lots, earliest purchased first
   * as a spend takes them, never more than the balance (TokenWithdrawalExceedsBalance, nothing
   * taken), once per reference. Not a spend: no processing request is recorded and the usage
   * history does not show it; the lots keep it in `finance_withdrawn`, which the purchase history
   * shows. Serialised with spends and refunds on the customer's row (ASVS 2.3.4).
   */
  async withdrawByFinance(
    tx: Queryable,
    request: { userId: string; amount: number; reference: string },
  ): Promise<FinanceWithdrawal> {
    const { userId, amount, reference } = request;
    if (!Number.isInteger(amount) || amount <= 0) throw new Fault('RequestInvalid');
    const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
    if (!owner) throw new Fault('UserNotFound');
    const now = this.clock.now();
    const lots = await liveLotsOldestFirst(tx, userId, now);
    const balance = lots.reduce((total, lot) => total + lot.remaining, 0);
    const unchanged = { withdrawn: false, balanceBefore: balance, balanceAfter: balance, takenFrom: [] };
    // A reference names one withdrawal: again for it, nothing more; for another customer or
    // amount, refused (as a spend's request id is: TokenRequestIdReused).
    const sameAsBefore = async () => {
      const [prior] = await tx
        .select({ userId: tokenWithdrawals.userId, amount: tokenWithdrawals.amount })
        .from(tokenWithdrawals)
        .where(eq(tokenWithdrawals.reference, reference));
      if (prior && (prior.userId !== userId || prior.amount !== amount)) {
        throw new Fault('TokenWithdrawalReferenceReused');
      }
      return Boolean(prior);
    };
    if (await sameAsBefore()) return unchanged;
    if (amount > balance) {
      throw new Fault('TokenWithdrawalExceedsBalance', { TokenBalance: String(balance), Amount: String(amount) });
    }
    const takenFrom = allocate(lots, amount).map(({ lot, take }) => ({ lotId: lot.id, tokens: take }));
    // Another withdrawal under the same reference may commit first: then it is that one.
    const [written] = await tx
      .insert(tokenWithdrawals)
      .values({ userId, reference, amount, balanceAfter: balance - amount, takenFrom, withdrawnAt: now })
      .onConflictDoNothing({ target: tokenWithdrawals.reference })
      .returning({ id: tokenWithdrawals.id });
    if (!written) {
      await sameAsBefore();
      return unchanged;
    }
    for (const { lotId, tokens } of takenFrom) {
      await tx
        .update(tokenLots)
        .set({
          remaining: sql`${tokenLots.remaining} - ${tokens}`,
          financeWithdrawn: sql`${tokenLots.financeWithdrawn} + ${tokens}`,
        })
        .where(eq(tokenLots.id, lotId));
    }
    return { withdrawn: true, balanceBefore: balance, balanceAfter: balance - amount, takenFrom };
  }

  /** Tokens that can still be spent: live lots only. */
  async balance(userId: string, tx: Queryable = this.db): Promise<number> {
    const [row] = await tx
      .select({ total: sum(tokenLots.remaining) })
      .from(tokenLots)
      .where(spendableLotsOf(userId, this.clock.now()));
    return Number(row?.total ?? 0);
  }

  /**
   * Spends the cost of `seconds` of processing, earliest purchased lots first. A repeated
   * request id spends nothing more and answers the first result.
   */
  async spend(userId: string, seconds: number, requestId: string): Promise<ConsumeTokensResult> {
    const tokens = tokenCostForSeconds(seconds);
    const millis = Math.round(seconds * 1000);
    await this.options.watcher?.prepare();
    return this.db.transaction(async (tx) => {
      const now = this.clock.now();
      const [owner] = await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
      if (!owner) throw new Fault('UserAuthenticationFailed');

      const [prior] = await tx
        .select()
        .from(tokenSpends)
        .where(and(eq(tokenSpends.userId, userId), eq(tokenSpends.requestId, requestId)))
        .limit(1);
      if (prior) {
        if (prior.millis !== millis) throw new Fault('TokenRequestIdReused');
        return { TokensSpent: prior.tokens, TokenBalance: prior.balanceAfter };
      }

      const lots = await liveLotsOldestFirst(tx, userId, now);
      const available = lots.reduce((total, lot) => total + lot.remaining, 0);
      if (available < tokens) {
        throw new Fault('TokenBalanceInsufficient', { TokensNeeded: String(tokens), TokenBalance: String(available) });
      }

      const [spend] = await tx
        .insert(tokenSpends)
        .values({ userId, requestId, millis, tokens, balanceAfter: available - tokens, spentAt: now })
        .returning({ id: tokenSpends.id });
      if (!spend) throw new Fault('Unknown');
      for (const { lot, take } of allocate(lots, tokens)) {
        await tx
          .update(tokenLots)
          .set({ remaining: sql`${tokenLots.remaining} - ${take}` })
          .where(eq(tokenLots.id, lot.id));
        await tx
          .insert(tokenSpendAllocations)
          .values({ spendId: spend.id, lotId: lot.id, userId, tokens: take, spentAt: now });
      }
      await this.options.watcher?.onSpent(tx, {
        userId,
        spendId: spend.id,
        balanceBefore: available,
        balanceAfter: available - tokens,
      });
      return { TokensSpent: tokens, TokenBalance: available - tokens };
    });
  }

  /**
   * Purchases, grants and trials, newest first: per lot its amount, what processing spent, what
   * remains; an expired lot is marked and has nothing remaining, what it held then is told
   * (ADR 0056).
   */
  async purchaseHistory(userId: string, page: number): Promise<PagedResult<PurchaseHistoryEntry>> {
    const now = this.clock.now();
    const [total] = await this.db.select({ n: count() }).from(tokenLots).where(eq(tokenLots.userId, userId));
    const rows = await this.db
      .select()
      .from(tokenLots)
      .where(eq(tokenLots.userId, userId))
      .orderBy(desc(tokenLots.purchasedAt), desc(tokenLots.seq))
      .limit(HISTORY_PAGE_SIZE)
      .offset((page - 1) * HISTORY_PAGE_SIZE);
    return {
      PageItems: rows.map((lot) => {
        // Taken back by its refund and by finance: neither is a spend (ADR 0032).
        const withdrawn = lot.withdrawn + lot.financeWithdrawn;
        const isExpired = lot.expiresAt <= now;
        return {
          TokenAmount: lot.amount,
          Type: lotType(lot.cause, lot.refundedAt !== null, withdrawn),
          OrderDate: lot.purchasedAt.getTime(),
          ExpiryDate: lot.expiresAt.getTime(),
          TokenBalance: isExpired ? 0 : lot.remaining,
          ...(lot.refundedAt ? { RefundDate: lot.refundedAt.getTime() } : {}),
          ...(lot.refundedAt || withdrawn > 0 ? { TokensWithdrawn: withdrawn } : {}),
          TokensSpent: lot.amount - lot.remaining - withdrawn,
          IsExpired: isExpired,
          ...(isExpired ? { TokensExpired: lot.remaining } : {}),
          ...receiptOf(lot.cause === 'purchase' ? this.options.receiptUrlOf?.(lot.sourceRef) : undefined),
        };
      }),
      PageNumber: page,
      PageCount: pageCount(total?.n ?? 0),
    };
  }

  /**
   * Processing jobs, newest first, one entry per job (its request id) with its whole cost and the
   * lots that paid it, earliest first (ADR 0056). The page is read from the spends
   * (token_spends_user_idx); the allocations of that page's spends only.
   */
  async usageHistory(userId: string, page: number): Promise<PagedResult<UsageHistoryEntry>> {
    const [total] = await this.db.select({ n: count() }).from(tokenSpends).where(eq(tokenSpends.userId, userId));
    const spends = await this.db
      .select({
        id: tokenSpends.id,
        tokens: tokenSpends.tokens,
        millis: tokenSpends.millis,
        spentAt: tokenSpends.spentAt,
      })
      .from(tokenSpends)
      .where(eq(tokenSpends.userId, userId))
      .orderBy(desc(tokenSpends.spentAt), desc(tokenSpends.seq))
      .limit(HISTORY_PAGE_SIZE)
      .offset((page - 1) * HISTORY_PAGE_SIZE);
    const payers = new Map<string, UsagePayer[]>(spends.map((spend) => [spend.id, []]));
    if (spends.length > 0) {
      const allocations = await this.db
        .select({
          spendId: tokenSpendAllocations.spendId,
          tokens: tokenSpendAllocations.tokens,
          cause: tokenLots.cause,
          purchasedAt: tokenLots.purchasedAt,
        })
        .from(tokenSpendAllocations)
        .innerJoin(tokenLots, eq(tokenLots.id, tokenSpendAllocations.lotId))
        .where(
          inArray(
            tokenSpendAllocations.spendId,
            spends.map((spend) => spend.id),
          ),
        )
        .orderBy(asc(tokenSpendAllocations.id));
      for (const allocation of allocations) {
        payers.get(allocation.spendId)?.push({
          Type: CAUSE_LABELS[allocation.cause],
          OrderDate: allocation.purchasedAt.getTime(),
          Tokens: allocation.tokens,
        });
      }
    }
    return {
      PageItems: spends.map((spend) => {
        const paidBy = payers.get(spend.id) ?? [];
        return {
          TokenAmount: spend.tokens,
          Type: usageTypeOf(paidBy.map((payer) => payer.Type)),
          Date: spend.spentAt.getTime(),
          Seconds: spend.millis / 1000,
          Payers: paidBy,
        };
      }),
      PageNumber: page,
      PageCount: pageCount(total?.n ?? 0),
    };
  }
}

/**
 * The live lots of `userId` at `now`, earliest expiry first (placeholders: run it, prepare it
 * or read it inside another statement).
 */
export function liveLotsQuery(db: Queryable) {
  return (
    db
      .select({ remaining: tokenLots.remaining, expiresAt: tokenLots.expiresAt })
      .from(tokenLots)
      .where(spendableLotsOf(sql.placeholder('userId'), sql.placeholder('now')))
      // The order spends take them in (earliest purchased first): a grant made to expire sooner
      // is not spent before the purchases older than it, so the runway must not assume it is.
      .orderBy(asc(tokenLots.purchasedAt), asc(tokenLots.seq))
  );
}

export type LiveLot = Awaited<ReturnType<typeof liveLotsQuery>>[number];

/**
 * What the customer holds at `now`, from their live lots (liveLotsQuery): the
 * spendable balance, and the earliest-expiring lot when it expires within the warning window
 * (the status line's warning).
 */
export function holdingsOf(lots: LiveLot[], now: Date): TokenHoldings {
  const balance = lots.reduce((total, lot) => total + lot.remaining, 0);
  // The earliest to expire (the lots come in spend order, which a short grant can break).
  const first = lots.reduce<LiveLot | undefined>(
    (soonest, lot) => (soonest && soonest.expiresAt <= lot.expiresAt ? soonest : lot),
    undefined,
  );
  const warnFrom = addDays(now, TOKEN_EXPIRY_WARNING_DAYS);
  return {
    balance,
    expiringSoon: first && first.expiresAt <= warnFrom ? { tokens: first.remaining, expiresAt: first.expiresAt } : null,
  };
}

/** A customer's lots that can still be spent: tokens left and not past their expiry (the balance, spends, CheckLicense). */
export function spendableLotsOf(userId: string | Placeholder, now: Date | Placeholder) {
  return and(eq(tokenLots.userId, userId), gt(tokenLots.remaining, 0), gt(tokenLots.expiresAt, now));
}

const receiptOf = (url: string | undefined) => (url ? { ReceiptUrl: url } : {});

/** A purchase history entry's Type: its cause, or that it was refunded; tokens taken back are told. */
function lotType(cause: TokenLotCause, isRefunded: boolean, withdrawn: number): string {
  if (isRefunded) return refundedLotType(withdrawn);
  return withdrawn > 0 ? withdrawnLotType(CAUSE_LABELS[cause], withdrawn) : CAUSE_LABELS[cause];
}

/** The page count is an integer > 0 even when there is nothing yet. */
function pageCount(items: number): number {
  return Math.max(1, Math.ceil(items / HISTORY_PAGE_SIZE));
}

interface PayingLot {
  id: string;
  remaining: number;
}

/** A customer's lots that can still pay, earliest purchased first (FIFO, ADR 0032). */
function liveLotsOldestFirst(tx: Queryable, userId: string, now: Date): Promise<PayingLot[]> {
  return tx
    .select({ id: tokenLots.id, remaining: tokenLots.remaining })
    .from(tokenLots)
    .where(spendableLotsOf(userId, now))
    .orderBy(asc(tokenLots.purchasedAt), asc(tokenLots.seq));
}

/** What each lot gives to `amount`, earliest first; the caller has checked that they hold it. */
function allocate(lots: PayingLot[], amount: number): { lot: PayingLot; take: number }[] {
  const taken: { lot: PayingLot; take: number }[] = [];
  let due = amount;
  for (const lot of lots) {
    if (due === 0) break;
    const take = Math.min(due, lot.remaining);
    if (take > 0) taken.push({ lot, take });
    due -= take;
  }
  return taken;
}

/** A lot's expiry: a purchase's (TOKEN_VALIDITY_MONTHS), or sooner when a grant says so. */
function expiryOf(purchasedAt: Date, validDays: number | undefined): Date {
  const latest = tokenExpiry(purchasedAt);
  if (validDays === undefined) return latest;
  const sooner = addDays(purchasedAt, validDays);
  return new Date(Math.min(sooner.getTime(), latest.getTime()));
}
