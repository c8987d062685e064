import { tokenCostForSeconds } from '@soundid/contracts';
import { asc, eq } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/test-app';
import { users } from '../../db/schema';
import { tokenLots } from '../../db/voice-ai-schema';
import { Fault } from '../../lib/fault';
import { TokenLedger } from './ledger';

let t: TestApp;
let ledger: TokenLedger;
beforeAll(async () => {
  t = await createTestApp();
  ledger = new TokenLedger(t.database.db, t.clock);
});
afterAll(() => t.close());

type Step =
  | { kind: 'grant'; amount: number }
  | { kind: 'spend'; seconds: number; requestId: string }
  | { kind: 'advance'; days: number };

const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constant('grant' as const), amount: fc.integer({ min: 1, max: 400 }) }),
  fc.record({
    kind: fc.constant('spend' as const),
    seconds: fc.double({ min: 0.01, max: 40, noNaN: true }),
    requestId: fc.constantFrom('r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8'),
  }),
  fc.record({ kind: fc.constant('advance' as const), days: fc.integer({ min: 1, max: 200 }) }),
);

interface ModelLot {
  remaining: number;
  purchasedAt: number;
  expiresAt: number;
}

/**
 * For any sequence of grants, spends (with retried request ids) and clock moves, the
 * ledger agrees with a simple model: FIFO over live lots, expiry, idempotent request ids,
 * no lot below zero, and lots summing to credits minus spends.
 */
describe('token ledger properties', () => {
  it('matches the FIFO model after every step', async () => {
    let run = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 15 }), async (steps) => {
        run += 1;
        const now = t.clock.now();
        const [user] = await t.database.db
          .insert(users)
          .values({ email: `prop${run}-${now.getTime()}@example.com`, createdAt: now, updatedAt: now })
          .returning({ id: users.id });
        const userId = user!.id;
        const model: ModelLot[] = [];
        const answered = new Map<string, { TokensSpent: number; TokenBalance: number; seconds: number }>();
        let credited = 0;
        let spent = 0;

        for (const [index, s] of steps.entries()) {
          const at = t.clock.now().getTime();
          if (s.kind === 'advance') {
            t.clock.advanceHours(s.days * 24);
          } else if (s.kind === 'grant') {
            await ledger.credit(t.database.db, {
              userId,
              amount: s.amount,
              cause: 'grant',
              sourceRef: `p${run}-${index}`,
            });
            const expiresAt = new Date(at);
            expiresAt.setUTCMonth(expiresAt.getUTCMonth() + 12);
            model.push({ remaining: s.amount, purchasedAt: at, expiresAt: expiresAt.getTime() });
            credited += s.amount;
          } else {
            const live = model.filter((lot) => lot.expiresAt > at && lot.remaining > 0);
            const available = live.reduce((sum, lot) => sum + lot.remaining, 0);
            const cost = tokenCostForSeconds(s.seconds);
            const prior = answered.get(s.requestId);
            try {
              const result = await ledger.spend(userId, s.seconds, s.requestId);
              if (prior) {
                expect(Math.round(prior.seconds * 1000)).toBe(Math.round(s.seconds * 1000));
                expect(result).toEqual({ TokensSpent: prior.TokensSpent, TokenBalance: prior.TokenBalance });
              } else {
                expect(available).toBeGreaterThanOrEqual(cost);
                let due = cost;
                for (const lot of live) {
                  const take = Math.min(due, lot.remaining);
                  lot.remaining -= take;
                  due -= take;
                }
                spent += cost;
                expect(result).toEqual({ TokensSpent: cost, TokenBalance: available - cost });
                answered.set(s.requestId, { ...result, seconds: s.seconds });
              }
            } catch (error) {
              expect(error).toBeInstanceOf(Fault);
              const name = (error as Fault).faultName;
              if (prior) expect(name).toBe('TokenRequestIdReused');
              else {
                expect(name).toBe('TokenBalanceInsufficient');
                expect(available).toBeLessThan(cost);
              }
            }
          }
          // Invariants after every step.
          const lots = await t.database.db
            .select()
            .from(tokenLots)
            .where(eq(tokenLots.userId, userId))
            .orderBy(asc(tokenLots.purchasedAt), asc(tokenLots.seq));
          expect(lots.map((lot) => lot.remaining)).toEqual(model.map((lot) => lot.remaining));
          expect(lots.every((lot) => lot.remaining >= 0 && lot.remaining <= lot.amount)).toBe(true);
          expect(lots.reduce((sum, lot) => sum + lot.remaining, 0)).toBe(credited - spent);
          const nowMs = t.clock.now().getTime();
          const liveBalance = model.filter((lot) => lot.expiresAt > nowMs).reduce((sum, lot) => sum + lot.remaining, 0);
          expect(await ledger.balance(userId)).toBe(liveBalance);
        }
      }),
      { numRuns: 25, seed: 20261122 },
    );
  });
});
