import { createHmac, hkdfSync } from 'node:crypto';
import { AUDIT_PAGE_SIZE, type AuditEntry } from '@soundid/contracts';
import { and, asc, desc, eq, gt, gte, ilike, lt, lte, or, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { likePrefix } from '../../db/like-prefix';
import { auditEntries } from '../../db/operators-schema';
import type { Clock } from '../../lib/clock';

/** Who acted: an operator (id, address and roles at the time), or the bootstrap token (null). */
export interface Actor {
  id: string;
  email: string;
  roles: readonly string[];
}

/** Where an action came from: the request's id and the client's address. */
export interface RequestOrigin {
  requestId: string | null;
  ip: string | null;
}

/** One entry to append: what was done (or refused) to what, with its reason and its effect. */
export interface AuditRecord {
  actor: Actor | null;
  /** The call's name (AdminGrantTokens), or an event (OperatorSignIn). */
  action: string;
  outcome: 'done' | 'denied';
  target?: { type: string; id: string };
  customer?: { id: string; email: string };
  before?: unknown;
  after?: unknown;
  reason?: string | null;
  origin: RequestOrigin;
}

/** The hash the first entry chains to. */
export const GENESIS_HASH = '0'.repeat(64);
/** A constant key for the transaction lock that puts appends in one line (pg_advisory_xact_lock). */
const CHAIN_LOCK = 4_045_045_045;
/** Entries read at once while verifying: the chain is walked in pages, never loaded whole. */
const VERIFY_PAGE = 1000;

type Row = typeof auditEntries.$inferSelect;

/**
 * The audit trail (ADR 0045): append-only in the database (a trigger refuses UPDATE, DELETE and
 * TRUNCATE), and tamper-evident beyond it. Each entry's `hash` is an HMAC-SHA-256, under a key
 * derived from the service's secret, of its content and the previous entry's hash; appends are
 * serialised by a transaction lock, so the chain is one line. Whoever edits, deletes or reorders
 * rows with the database's own rights (the trigger disabled) cannot recompute the hashes without
 * the service's secret, and `verify` names the first entry that no longer follows.
 */
export class AuditTrail {
  private readonly key: Buffer;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    serviceSecret: string,
  ) {
    this.key = Buffer.from(hkdfSync('sha256', serviceSecret, 'my-soundid audit chain', 'audit-chain', 32));
  }

  /**
   * Appends an entry inside the caller's transaction, so a change and its entry commit together
   * or not at all. Answers the entry's sequence number.
   */
  async append(tx: Queryable, record: AuditRecord): Promise<number> {
    await tx.execute(sql`select pg_advisory_xact_lock(${CHAIN_LOCK})`);
    const [last] = await tx
      .select({ hash: auditEntries.hash })
      .from(auditEntries)
      .orderBy(desc(auditEntries.seq))
      .limit(1);
    const prevHash = last?.hash ?? GENESIS_HASH;
    const content: Omit<Row, 'seq' | 'hash'> = {
      at: this.clock.now(),
      operatorId: record.actor?.id ?? null,
      operatorEmail: record.actor?.email ?? null,
      roles: [...(record.actor?.roles ?? [])],
      action: record.action,
      outcome: record.outcome,
      targetType: record.target?.type ?? null,
      targetId: record.target?.id ?? null,
      customerId: record.customer?.id ?? null,
      customerEmail: record.customer?.email ?? null,
      before: canonical(record.before),
      after: canonical(record.after),
      reason: record.reason ?? null,
      requestId: record.origin.requestId,
      ip: record.origin.ip,
      prevHash,
    };
    const [written] = await tx
      .insert(auditEntries)
      .values({ ...content, hash: this.hashOf(content) })
      .returning({ seq: auditEntries.seq });
    return written?.seq as number;
  }

  /** Appends an entry on its own (a refused call, a sign-in): its own short transaction. */
  record(record: AuditRecord): Promise<number> {
    return this.db.transaction((tx) => this.append(tx, record));
  }

  /**
   * Walks the whole chain in order: each entry must name the previous entry's hash and carry
   * the hash of its own content. Answers the first entry that does not, and why.
   */
  async verify(): Promise<{ Entries: number; Intact: boolean; FirstBroken: { Seq: number; Problem: string } | null }> {
    let prevHash = GENESIS_HASH;
    let after = 0;
    let entries = 0;
    for (;;) {
      const page = await this.db
        .select()
        .from(auditEntries)
        .where(gt(auditEntries.seq, after))
        .orderBy(asc(auditEntries.seq))
        .limit(VERIFY_PAGE);
      for (const row of page) {
        entries++;
        const { seq, hash, ...content } = row;
        if (content.prevHash !== prevHash) {
          return broken(entries, seq, 'does not follow the entry before it (an entry was removed or moved)');
        }
        if (this.hashOf(content) !== hash) return broken(entries, seq, 'its content was changed');
        prevHash = hash;
        after = seq;
      }
      if (page.length < VERIFY_PAGE) return { Entries: entries, Intact: true, FirstBroken: null };
    }
  }

  /** Entries newest first, by operator, customer (address or id), action and time. */
  async search(filter: {
    operator?: string | undefined;
    customer?: string | undefined;
    customerId?: string | undefined;
    action?: string | undefined;
    from?: Date | undefined;
    to?: Date | undefined;
    before?: number | undefined;
    limit?: number;
  }): Promise<{ Entries: AuditEntry[]; More: boolean }> {
    const limit = filter.limit ?? AUDIT_PAGE_SIZE;
    const conditions = [
      filter.operator ? ilike(auditEntries.operatorEmail, likePrefix(filter.operator.toLowerCase())) : undefined,
      filter.customer
        ? or(
            ilike(auditEntries.customerEmail, likePrefix(filter.customer.toLowerCase())),
            eq(auditEntries.targetId, filter.customer),
          )
        : undefined,
      filter.customerId ? eq(auditEntries.customerId, filter.customerId) : undefined,
      filter.action ? eq(auditEntries.action, filter.action) : undefined,
      filter.from ? gte(auditEntries.at, filter.from) : undefined,
      filter.to ? lte(auditEntries.at, filter.to) : undefined,
      filter.before ? lt(auditEntries.seq, filter.before) : undefined,
    ].filter((c) => c !== undefined);
    const rows = await this.db
      .select()
      .from(auditEntries)
      .where(conditions.length ? and(...conditions) : undefined)
      .orderBy(desc(auditEntries.seq))
      .limit(limit + 1);
    return { Entries: rows.slice(0, limit).map(toAuditEntry), More: rows.length > limit };
  }

  private hashOf(content: Omit<Row, 'seq' | 'hash'>): string {
    const fields = [
      content.at.toISOString(),
      content.operatorId,
      content.operatorEmail,
      content.roles,
      content.action,
      content.outcome,
      content.targetType,
      content.targetId,
      content.customerId,
      content.customerEmail,
      canonical(content.before),
      canonical(content.after),
      content.reason,
      content.requestId,
      content.ip,
      content.prevHash,
    ];
    return createHmac('sha256', this.key).update(JSON.stringify(fields)).digest('hex');
  }
}

function broken(entries: number, seq: number, problem: string) {
  return { Entries: entries, Intact: false, FirstBroken: { Seq: seq, Problem: `Entry ${seq} ${problem}.` } };
}

/**
 * A JSON value with its object keys sorted, undefined as null: what jsonb gives back (its own
 * key order, no undefined) hashes as what was written.
 */
function canonical(value: unknown): unknown {
  if (value === undefined || value === null) return null;
  if (Array.isArray(value)) return value.map(canonical);
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    return Object.fromEntries(
      Object.keys(value as object)
        .sort()
        .filter((k) => (value as Record<string, unknown>)[k] !== undefined)
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function toAuditEntry(row: Row): AuditEntry {
  return {
    Seq: row.seq,
    At: row.at.toISOString(),
    Operator: row.operatorEmail,
    Roles: row.roles,
    Action: row.action,
    Outcome: row.outcome,
    TargetType: row.targetType,
    TargetId: row.targetId,
    Customer: row.customerEmail,
    Before: row.before,
    After: row.after,
    Reason: row.reason,
    RequestId: row.requestId,
    Address: row.ip,
  };
}
