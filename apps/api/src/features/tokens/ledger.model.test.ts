import { type TokenLotCause, tokenCostForSeconds } from '@soundid/contracts';
import { asc, eq, sum } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { withInvariants } from '../../../test/model-commands';
import { users } from '../../db/schema';
import { tokenLots, tokenSpendAllocations, tokenSpends } from '../../db/voice-ai-schema';
import { Fault } from '../../lib/fault';
import { TokenLedger } from './ledger';

/**
 * Model-based tests of the token ledger (fast-check `commands` and `scheduler`). The model is a
 * list of lots; after every step the ledger agrees with it and the invariants hold: balance =
 * grants + purchases - spends - refunds' and finance's withdrawals (less what expired), no lot
 * below 0 or above its amount, spends and finance take the earliest live lots first, expired lots
 * are never spent, a retried request id, a credited source or a used withdrawal reference changes
 * nothing; per job (ADR 0056), the lots that paid it add up to its cost, and the usage history
 * shows each job once with those payers.
 */
const RUNS = Number(process.env.MODEL_RUNS ?? 25);

interface ModelLot {
  sourceRef: string;
  amount: number;
  remaining: number;
  expiresAt: number;
  /** Taken back by refunds of its payment (ADR 0032). */
  withdrawn: number;
  /** Taken back by finance (AdminWithdrawTokens). */
  financeWithdrawn: number;
}

/** A processing job: its cost and what each lot (by index in `lots`) paid of it, in order. */
interface ModelJob {
  requestId: string;
  cost: number;
  paidBy: { lot: number; tokens: number }[];
}

interface Model {
  lots: ModelLot[];
  sources: Set<string>;
  credited: Record<TokenLotCause, number>;
  spent: number;
  /** Tokens taken back by refunds and by finance. */
  withdrawn: number;
  /** The jobs charged, in the order they were. */
  jobs: ModelJob[];
  /** Finance's withdrawal references used, and the amount each withdrew. */
  references: Map<string, number>;
  /** Request id → what the first spend answered, and for how many seconds. */
  answered: Map<string, { TokensSpent: number; TokenBalance: number; millis: number }>;
}

interface Real {
  t: TestApp;
  ledger: TokenLedger;
  userId: string;
}

let t: TestApp;
let ledger: TokenLedger;
let customers = 0;
beforeAll(async () => {
  t = await createTestApp();
  ledger = new TokenLedger(t.database.db, t.clock);
});
afterAll(() => t.close());

async function newCustomer(): Promise<string> {
  customers += 1;
  const now = t.clock.now();
  const [user] = await t.database.db
    .insert(users)
    .values({ email: `ledger${customers}@example.com`, createdAt: now, updatedAt: now })
    .returning({ id: users.id });
  return user?.id as string;
}

const twelveMonthsFrom = (at: number) => {
  const expiry = new Date(at);
  expiry.setUTCMonth(expiry.getUTCMonth() + 12);
  return expiry.getTime();
};

const liveLots = (m: Model, at: number) => m.lots.filter((lot) => lot.expiresAt > at);
/** The lots a spend or a withdrawal may take from at `at`, and what they hold together. */
function holding(m: Model, at: number) {
  const live = liveLots(m, at).filter((lot) => lot.remaining > 0);
  return { live, balance: live.reduce((sum, lot) => sum + lot.remaining, 0) };
}

/** A grant or a purchase, keyed on its source: the same source again credits nothing. */
class Credit implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly cause: 'grant' | 'purchase',
    readonly amount: number,
    readonly source: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const at = r.t.clock.now().getTime();
    const sourceRef = `${this.cause}:${r.userId}:${this.source}`;
    const credited = await r.ledger.credit(r.t.database.db, {
      userId: r.userId,
      amount: this.amount,
      cause: this.cause,
      sourceRef,
    });
    expect(credited).toBe(!m.sources.has(sourceRef));
    if (!credited) return;
    m.sources.add(sourceRef);
    m.lots.push({
      sourceRef,
      amount: this.amount,
      remaining: this.amount,
      expiresAt: twelveMonthsFrom(at),
      withdrawn: 0,
      financeWithdrawn: 0,
    });
    m.credited[this.cause] += this.amount;
  }
  toString = () => `${this.cause}(${this.amount}, ${this.source})`;
}

class Spend implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly seconds: number,
    readonly requestId: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const at = r.t.clock.now().getTime();
    const cost = tokenCostForSeconds(this.seconds);
    const prior = m.answered.get(this.requestId);
    const { live, balance: available } = holding(m, at);
    let outcome: { TokensSpent: number; TokenBalance: number } | Fault;
    try {
      outcome = await r.ledger.spend(r.userId, this.seconds, this.requestId);
    } catch (error) {
      expect(error).toBeInstanceOf(Fault);
      outcome = error as Fault;
    }
    if (prior) {
      if (prior.millis === Math.round(this.seconds * 1000)) {
        expect(outcome).toEqual({ TokensSpent: prior.TokensSpent, TokenBalance: prior.TokenBalance });
      } else {
        expect((outcome as Fault).faultName).toBe('TokenRequestIdReused');
      }
      return;
    }
    if (available < cost) {
      expect((outcome as Fault).faultName).toBe('TokenBalanceInsufficient');
      return;
    }
    expect(outcome).toEqual({ TokensSpent: cost, TokenBalance: available - cost });
    let due = cost;
    const paidBy: ModelJob['paidBy'] = [];
    for (const lot of live) {
      const take = Math.min(due, lot.remaining);
      lot.remaining -= take;
      due -= take;
      if (take > 0) paidBy.push({ lot: m.lots.indexOf(lot), tokens: take });
    }
    m.jobs.push({ requestId: this.requestId, cost, paidBy });
    m.spent += cost;
    m.answered.set(this.requestId, {
      TokensSpent: cost,
      TokenBalance: available - cost,
      millis: Math.round(this.seconds * 1000),
    });
  }
  toString = () => `spend(${this.seconds}s, ${this.requestId})`;
}

/**
 * A refund of a purchase's payment (ADR 0032): `target` tokens of the lot are due back in all;
 * what was taken before counts, no more than the lot holds is taken, spent tokens stay spent.
 */
class Refund implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly source: string,
    readonly target: number,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const sourceRef = `purchase:${r.userId}:${this.source}`;
    const result = await r.t.database.db.transaction((tx) => r.ledger.withdraw(tx, r.userId, sourceRef, this.target));
    const lot = m.lots.find((l) => l.sourceRef === sourceRef);
    if (!lot) {
      expect(result).toBeUndefined();
      return;
    }
    const spent = lot.amount - lot.remaining - lot.withdrawn - lot.financeWithdrawn;
    const take = Math.min(Math.max(0, Math.min(this.target, lot.amount) - lot.withdrawn), lot.remaining);
    lot.remaining -= take;
    lot.withdrawn += take;
    m.withdrawn += take;
    expect(result).toEqual({ withdrawn: take, withdrawnTotal: lot.withdrawn, spent, remaining: lot.remaining });
  }
  toString = () => `refund(${this.source}, ${this.target})`;
}

/** Finance takes tokens back (AdminWithdrawTokens): earliest live lots first, once per reference, never overdrawing. */
class FinanceWithdraw implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly amount: number,
    readonly reference: string,
  ) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const at = r.t.clock.now().getTime();
    const reference = `${r.userId}:${this.reference}`;
    const { live, balance } = holding(m, at);
    let outcome: Awaited<ReturnType<TokenLedger['withdrawByFinance']>> | Fault;
    try {
      outcome = await r.t.database.db.transaction((tx) =>
        r.ledger.withdrawByFinance(tx, { userId: r.userId, amount: this.amount, reference }),
      );
    } catch (error) {
      expect(error).toBeInstanceOf(Fault);
      outcome = error as Fault;
    }
    const prior = m.references.get(reference);
    if (prior !== undefined) {
      if (prior === this.amount) expect(outcome).toMatchObject({ withdrawn: false, balanceAfter: balance });
      else expect((outcome as Fault).faultName).toBe('TokenWithdrawalReferenceReused');
      return;
    }
    if (this.amount > balance) {
      expect((outcome as Fault).faultName).toBe('TokenWithdrawalExceedsBalance');
      return;
    }
    let due = this.amount;
    for (const lot of live) {
      const take = Math.min(due, lot.remaining);
      lot.remaining -= take;
      lot.financeWithdrawn += take;
      due -= take;
    }
    m.withdrawn += this.amount;
    m.references.set(reference, this.amount);
    expect(outcome).toMatchObject({ withdrawn: true, balanceBefore: balance, balanceAfter: balance - this.amount });
  }
  toString = () => `financeWithdraw(${this.amount}, ${this.reference})`;
}

class AdvanceDays implements fc.AsyncCommand<Model, Real> {
  constructor(readonly days: number) {}
  check = () => true;
  async run(_m: Model, r: Real) {
    r.t.clock.advanceHours(this.days * 24);
  }
  toString = () => `advance(${this.days}d)`;
}

async function assertInvariants(m: Model, r: Real): Promise<void> {
  const db = r.t.database.db;
  const lots = await db
    .select({
      id: tokenLots.id,
      amount: tokenLots.amount,
      remaining: tokenLots.remaining,
      withdrawn: tokenLots.withdrawn,
      financeWithdrawn: tokenLots.financeWithdrawn,
    })
    .from(tokenLots)
    .where(eq(tokenLots.userId, r.userId))
    .orderBy(asc(tokenLots.purchasedAt), asc(tokenLots.seq));
  const allocations = await db
    .select({ lotId: tokenSpendAllocations.lotId, tokens: sum(tokenSpendAllocations.tokens) })
    .from(tokenSpendAllocations)
    .where(eq(tokenSpendAllocations.userId, r.userId))
    .groupBy(tokenSpendAllocations.lotId);
  const allocated = new Map(allocations.map((a) => [a.lotId, Number(a.tokens)]));
  // FIFO and expiry: each lot holds exactly what the model's earliest-live-first spending left.
  expect(lots.map((lot) => lot.remaining)).toEqual(m.lots.map((lot) => lot.remaining));
  expect(lots.map((lot) => [lot.withdrawn, lot.financeWithdrawn])).toEqual(
    m.lots.map((lot) => [lot.withdrawn, lot.financeWithdrawn]),
  );
  for (const lot of lots) {
    expect(lot.remaining).toBeGreaterThanOrEqual(0);
    expect(lot.remaining).toBeLessThanOrEqual(lot.amount);
    expect(lot.amount - lot.remaining - lot.withdrawn - lot.financeWithdrawn).toBe(allocated.get(lot.id) ?? 0);
  }
  const remaining = lots.reduce((sum, lot) => sum + lot.remaining, 0);
  expect(remaining).toBe(m.credited.grant + m.credited.purchase - m.spent - m.withdrawn);

  // Per job (ADR 0056): the spend's allocations add up to its cost, and each is the model's.
  const spends = await db
    .select({
      requestId: tokenSpends.requestId,
      tokens: tokenSpends.tokens,
      allocated: sum(tokenSpendAllocations.tokens),
    })
    .from(tokenSpends)
    .leftJoin(tokenSpendAllocations, eq(tokenSpendAllocations.spendId, tokenSpends.id))
    .where(eq(tokenSpends.userId, r.userId))
    .groupBy(tokenSpends.id);
  expect(spends).toHaveLength(m.jobs.length);
  for (const spend of spends) expect(Number(spend.allocated)).toBe(spend.tokens);
  // The usage history: one entry per job, newest first, its payers the model's, adding up to its cost.
  const usage = await r.ledger.usageHistory(r.userId, 1);
  const newestFirst = [...m.jobs].reverse();
  expect(usage.PageItems.map((item) => item.TokenAmount)).toEqual(newestFirst.map((job) => job.cost));
  for (const [i, item] of usage.PageItems.entries()) {
    const job = newestFirst[i] as ModelJob;
    expect(item.Payers.reduce((total, payer) => total + payer.Tokens, 0)).toBe(item.TokenAmount);
    expect(item.Payers.map((payer) => payer.Tokens)).toEqual(job.paidBy.map((paid) => paid.tokens));
  }
  // The purchase history: per lot, what processing spent of it.
  const spentPerLot = new Map<number, number>();
  for (const job of m.jobs) {
    for (const paid of job.paidBy) spentPerLot.set(paid.lot, (spentPerLot.get(paid.lot) ?? 0) + paid.tokens);
  }
  const purchases = await r.ledger.purchaseHistory(r.userId, 1);
  const newestLots = m.lots
    .map((_, index) => index)
    .reverse()
    .slice(0, 10);
  expect(purchases.PageItems.map((item) => item.TokensSpent)).toEqual(
    newestLots.map((index) => spentPerLot.get(index) ?? 0),
  );
  const at = r.t.clock.now().getTime();
  const live = liveLots(m, at).reduce((sum, lot) => sum + lot.remaining, 0);
  expect(await r.ledger.balance(r.userId)).toBe(live);
}

const requestIds = fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6');
const commands = [
  fc
    .tuple(
      fc.constantFrom('grant' as const, 'purchase' as const),
      fc.integer({ min: 1, max: 400 }),
      fc.constantFrom('a', 'b', 'c', 'd'),
    )
    .map(([cause, amount, source]) => new Credit(cause, amount, source)),
  fc.tuple(fc.double({ min: 0.01, max: 40, noNaN: true }), requestIds).map(([s, id]) => new Spend(s, id)),
  fc.tuple(fc.integer({ min: 1, max: 20 }), requestIds).map(([s, id]) => new Spend(s, id)),
  fc.integer({ min: 1, max: 200 }).map((days) => new AdvanceDays(days)),
  fc
    .tuple(fc.constantFrom('a', 'b', 'c', 'd'), fc.integer({ min: 1, max: 450 }))
    .map(([source, target]) => new Refund(source, target)),
  fc
    .tuple(fc.integer({ min: 1, max: 300 }), fc.constantFrom('w1', 'w2', 'w3'))
    .map(([amount, reference]) => new FinanceWithdraw(amount, reference)),
].map((arbitrary) => arbitrary.map((command) => withInvariants(command, assertInvariants)));

const emptyModel = (): Model => ({
  lots: [],
  sources: new Set(),
  credited: { grant: 0, purchase: 0, trial: 0 },
  spent: 0,
  withdrawn: 0,
  jobs: [],
  references: new Map(),
  answered: new Map(),
});

describe('token ledger state machine', () => {
  it('agrees with the FIFO model and keeps its invariants after every command', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 20 }), async (cmds) => {
        const userId = await newCustomer();
        await fc.asyncModelRun(async () => ({ model: emptyModel(), real: { t, ledger, userId } }), cmds);
      }),
      { numRuns: RUNS, seed: 20261122 },
    );
  }, 120_000); // fast-check's runs, each a fresh customer: a hang guard with room for a loaded CI machine (CI saw 56 s)

  it('concurrent spends and retries in any interleaving charge each request once and never overdraw', async () => {
    const spend = fc.record({ seconds: fc.integer({ min: 1, max: 30 }), requestId: requestIds });
    await fc.assert(
      fc.asyncProperty(
        fc.scheduler(),
        fc.array(fc.integer({ min: 50, max: 300 }), { minLength: 1, maxLength: 3 }),
        fc.array(spend, { minLength: 2, maxLength: 12 }),
        async (s, grants, spends) => {
          const userId = await newCustomer();
          for (const [i, amount] of grants.entries()) {
            await ledger.credit(t.database.db, { userId, amount, cause: 'grant', sourceRef: `g:${userId}:${i}` });
          }
          const initial = grants.reduce((sum, amount) => sum + amount, 0);
          // The scheduler starts the spends in an order of its choosing while earlier ones still run.
          const settled = Promise.all(
            spends.map((request) =>
              s
                .schedule(Promise.resolve(request), `${request.requestId}:${request.seconds}s`)
                .then((r) => ledger.spend(userId, r.seconds, r.requestId))
                .then(
                  (result) => ({ request, result }),
                  (error: unknown) => ({ request, fault: (error as Fault).faultName }),
                ),
            ),
          );
          await s.waitAll();
          const outcomes = await settled;

          // Every request id was charged once: its successful answers agree with each other.
          const charged = new Map<string, { TokensSpent: number; TokenBalance: number }>();
          for (const outcome of outcomes) {
            if (!('result' in outcome)) continue;
            const first = charged.get(outcome.request.requestId);
            if (first) expect(outcome.result).toEqual(first);
            else charged.set(outcome.request.requestId, outcome.result);
          }
          // The distinct spends line up as one serial history from the initial balance.
          const serial = [...charged.values()].sort((a, b) => b.TokenBalance - a.TokenBalance);
          let balance = initial;
          for (const step of serial) {
            balance -= step.TokensSpent;
            expect(step.TokenBalance).toBe(balance);
          }
          expect(balance).toBeGreaterThanOrEqual(0);
          expect(await ledger.balance(userId)).toBe(balance);
          for (const outcome of outcomes) {
            if ('fault' in outcome && outcome.fault === 'TokenBalanceInsufficient') {
              expect(tokenCostForSeconds(outcome.request.seconds)).toBeGreaterThan(balance);
            } else if ('fault' in outcome) {
              // The same id with other seconds than the spend that won.
              expect(outcome.fault).toBe('TokenRequestIdReused');
              expect(charged.has(outcome.request.requestId)).toBe(true);
            }
          }
        },
      ),
      { numRuns: RUNS, seed: 6_2026 },
    );
  });
});
