import type { FaultName } from '@soundid/contracts';
import { and, desc, eq, inArray, isNull } from 'drizzle-orm';
import type { Queryable } from '../../db/client';
import { type ActionTokenKind, actionTokens } from '../../db/schema';
import type { Clock, Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { hashToken, newOpaqueToken } from '../../lib/secrets';

/** The faults a kind of token answers with when it is unknown, already used or expired. */
export interface TokenFaults {
  notFound: FaultName;
  alreadyUsed: FaultName;
  expired: FaultName;
}

export type ActionTokenRow = typeof actionTokens.$inferSelect;

/** Single-use, expiring tokens, stored only as hashes (ASVS 6.4.1). */
export class ActionTokenService {
  constructor(
    private readonly clock: Clock,
    private readonly random: Random,
  ) {}

  async create(
    tx: Queryable,
    kind: ActionTokenKind,
    userId: string,
    validMinutes: number,
    extra: { newEmail?: string; seenDeviceId?: string } = {},
  ): Promise<string> {
    const token = newOpaqueToken(this.random);
    const now = this.clock.now();
    await tx.insert(actionTokens).values({
      tokenHash: hashToken(token),
      kind,
      userId,
      newEmail: extra.newEmail,
      seenDeviceId: extra.seenDeviceId,
      createdAt: now,
      expiresAt: new Date(now.getTime() + validMinutes * 60_000),
    });
    return token;
  }

  /** Finds a token of a kind without using it (for resends of expired links). */
  async find(tx: Queryable, kind: ActionTokenKind, token: string): Promise<ActionTokenRow | undefined> {
    const [row] = await tx
      .select()
      .from(actionTokens)
      .where(and(eq(actionTokens.tokenHash, hashToken(token)), eq(actionTokens.kind, kind)))
      .limit(1);
    return row;
  }

  /**
   * Uses a token once. The conditional update makes a double click or a replay race lose
   * even when two requests arrive together.
   */
  async consume(tx: Queryable, kind: ActionTokenKind, token: string, faults: TokenFaults): Promise<ActionTokenRow> {
    const row = await this.find(tx, kind, token);
    if (!row) throw new Fault(faults.notFound);
    if (row.usedAt) throw new Fault(faults.alreadyUsed);
    const now = this.clock.now();
    if (row.expiresAt <= now) throw new Fault(faults.expired);
    const [used] = await tx
      .update(actionTokens)
      .set({ usedAt: now })
      .where(and(eq(actionTokens.id, row.id), isNull(actionTokens.usedAt)))
      .returning();
    if (!used) throw new Fault(faults.alreadyUsed);
    return used;
  }

  /** The newest token of a kind for a user, used or not. */
  async latest(tx: Queryable, kind: ActionTokenKind, userId: string): Promise<ActionTokenRow | undefined> {
    const [row] = await tx
      .select()
      .from(actionTokens)
      .where(and(eq(actionTokens.userId, userId), eq(actionTokens.kind, kind)))
      .orderBy(desc(actionTokens.createdAt))
      .limit(1);
    return row;
  }

  /**
   * Older unused links of the same kind stop working when a new one is sent; a sign-in report
   * stops the one-time codes that would make a session (ADR 0041).
   */
  async retireUnused(tx: Queryable, kind: ActionTokenKind | readonly ActionTokenKind[], userId: string): Promise<void> {
    const kinds = typeof kind === 'string' ? [kind] : [...kind];
    await tx
      .update(actionTokens)
      .set({ expiresAt: this.clock.now() })
      .where(and(eq(actionTokens.userId, userId), inArray(actionTokens.kind, kinds), isNull(actionTokens.usedAt)));
  }
}
