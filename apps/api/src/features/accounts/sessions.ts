import { createSecretKey, type KeyObject } from 'node:crypto';
import {
  type ActiveSession,
  SESSION_LONG_IDLE_DAYS,
  SESSION_LONG_LIFETIME_DAYS,
  SESSION_SHORT_IDLE_HOURS,
  SESSION_SHORT_LIFETIME_HOURS,
} from '@soundid/contracts';
import { and, desc, eq, gt, isNull, ne, sql } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Database, Queryable } from '../../db/client';
import { seenDevices, sessions, users } from '../../db/schema';
import { addDays, addHours, type Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { type DeviceSighting, seenDeviceHash } from './device-sighting';
import { describeDevice } from './user-agent';

export interface SessionClaims {
  userId: string;
  sessionId: string;
  expiresAt: Date;
  keepMeSignedIn: boolean;
}

/** A verified session with its customer, read in the same query (one round trip per request). */
export interface AuthenticatedSession extends SessionClaims {
  user: typeof users.$inferSelect;
}

/** What a session check needs of the session row: revocation, expiry and last use. */
export interface SessionRowState {
  revokedAt: Date | null;
  expiresAt: Date;
  lastSeenAt: Date;
  keepMeSignedIn: boolean;
}

/**
 * The session row's state as select fields, for a read that checks the session in the same
 * statement as it reads the customer's data (`authenticateWith`).
 */
export const sessionStateFields = {
  revokedAt: sessions.revokedAt,
  expiresAt: sessions.expiresAt,
  lastSeenAt: sessions.lastSeenAt,
  keepMeSignedIn: sessions.keepMeSignedIn,
};

/** The placeholders of a session-scoped read: the session id and its customer, from the verified token. */
export const sessionParams = { sid: sql.placeholder('sid'), sub: sql.placeholder('sub') };

/** The row of a session-scoped read, or undefined when no session matches the token's claims. */
export type SessionScopedRead<TRow extends SessionRowState> = (claims: {
  sid: string;
  sub: string;
}) => Promise<TRow | undefined>;

export interface AuthenticatedRead<TRow> extends SessionClaims {
  row: TRow;
}

export interface IssuedSession extends SessionClaims {
  token: string;
  /** The device the sign-in came from, as the seen devices know it (when the sign-in named one). */
  device?: DeviceSignIn;
}

/** What the sign-in's statement found about its device (ADR 0041). */
export interface DeviceSignIn {
  seenDeviceId: string;
  label: string;
  ip: string | undefined;
  at: Date;
  /** First seen by this very statement: of parallel sign-ins from one device, one is new. */
  isNew: boolean;
  /** The account had seen other devices before: without any, there is nothing to compare with. */
  accountHadDevices: boolean;
}

/** Who signs in from where: the session row keeps the first two, the seen devices the third. */
export interface SignInMeta {
  userAgent?: string | undefined;
  ip?: string | undefined;
  /** False: a session handed over by a link, which proves no presence (ADR 0040). */
  proven?: boolean;
  device?: DeviceSighting | undefined;
}

const VERIFIED_CACHE_SIZE = 10_000;

/** Recording every request's time would write on every call: once in a while is enough. */
const LAST_SEEN_RESOLUTION_MS = 5 * 60_000;

/**
 * The session row joined with its customer, the one query of every signed-in request. Built
 * once and prepared (a named statement): no query building and no parsing or planning per request.
 */
const sessionWithUser = (db: Database) =>
  db
    .select({ ...sessionStateFields, user: users })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(and(eq(sessions.id, sessionParams.sid), eq(sessions.userId, sessionParams.sub)))
    .limit(1)
    .prepare('session_with_user');

const idleLimitMs = (keepMeSignedIn: boolean) =>
  keepMeSignedIn ? SESSION_LONG_IDLE_DAYS * 86_400_000 : SESSION_SHORT_IDLE_HOURS * 3_600_000;

/**
 * Sessions are signed JWTs (claims sub, sid, exp, kms) backed by a row that can be revoked.
 * Without keep-me-signed-in a session lasts a day at most and ends after 2 idle hours; with
 * it, 30 days at most and 14 idle days. Never unlimited.
 */
export class SessionService {
  /** A KeyObject made once: jose then signs and verifies without importing the key each time. */
  private readonly key: KeyObject;
  /** Recently verified tokens → claims, oldest first (a bounded cache). */
  private readonly verified = new Map<string, Record<string, unknown>>();
  private readonly sessionWithUser: ReturnType<typeof sessionWithUser>;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    secret: string,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
    this.sessionWithUser = sessionWithUser(db);
  }

  /**
   * Makes the session row and signs its token. With a device sighting the same statement records
   * the device on the account (ADR 0041): the session insert carries the seen-device upsert as a
   * data-modifying CTE and answers whether this statement saw the device first, so a sign-in
   * costs no extra round trip and parallel sign-ins from one new device find it new once.
   */
  async issue(tx: Queryable, userId: string, keepMeSignedIn: boolean, meta: SignInMeta = {}): Promise<IssuedSession> {
    const now = this.clock.now();
    const expiresAt = keepMeSignedIn
      ? addDays(now, SESSION_LONG_LIFETIME_DAYS)
      : addHours(now, SESSION_SHORT_LIFETIME_HOURS);
    const session = {
      userId,
      keepMeSignedIn,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      userAgent: meta.userAgent?.slice(0, 300),
      ip: meta.ip,
      // A sign-in proves presence (ADR 0040) unless the session was handed over by a link.
      provenAt: meta.proven === false ? null : now,
    };
    let id: string;
    let device: DeviceSignIn | undefined;
    if (meta.device) {
      const [row] = await this.insertWithSighting(tx, session, meta.device, meta.ip, now);
      if (!row?.seenDeviceId) throw new Fault('UserSaveFailure');
      id = row.id;
      device = {
        seenDeviceId: row.seenDeviceId,
        label: meta.device.label,
        ip: meta.ip,
        at: now,
        isNew: row.signIns === 1,
        accountHadDevices: row.accountHadDevices,
      };
    } else {
      const [row] = await tx.insert(sessions).values(session).returning({ id: sessions.id });
      if (!row) throw new Fault('UserSaveFailure');
      id = row.id;
    }
    const token = await new SignJWT({ sid: id, kms: keepMeSignedIn ? 1 : 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, userId, sessionId: id, expiresAt, keepMeSignedIn, ...(device ? { device } : {}) };
  }

  /**
   * `with seen as (insert … on conflict do update … returning) insert into sessions … returning`:
   * one statement. `sign_ins` is 1 only where the row was inserted; a sign-in racing another
   * from the same new device waits on the unique index and then updates it (2). The check for
   * other devices reads the statement's snapshot, which does not hold the row just inserted.
   */
  private insertWithSighting(
    tx: Queryable,
    session: typeof sessions.$inferInsert & { userId: string },
    sighting: DeviceSighting,
    ip: string | undefined,
    now: Date,
  ) {
    const seen = tx.$with('seen').as(
      tx
        .insert(seenDevices)
        .values({
          userId: session.userId,
          deviceHash: seenDeviceHash(session.userId, sighting),
          kind: sighting.kind,
          label: sighting.label,
          firstSeenAt: now,
          lastSeenAt: now,
          lastIp: ip,
        })
        .onConflictDoUpdate({
          target: [seenDevices.userId, seenDevices.deviceHash],
          set: {
            label: sighting.label,
            lastSeenAt: now,
            lastIp: ip ?? null,
            signIns: sql`${seenDevices.signIns} + 1`,
          },
        })
        .returning({ seenDeviceId: seenDevices.id, signIns: seenDevices.signIns }),
    );
    return tx
      .with(seen)
      .insert(sessions)
      .values(session)
      .returning({
        id: sessions.id,
        seenDeviceId: sql<string | null>`(select ${seen.seenDeviceId} from ${seen})`,
        signIns: sql<number>`(select ${seen.signIns} from ${seen})`,
        accountHadDevices: sql<boolean>`exists (select 1 from ${seenDevices} where ${seenDevices.userId} = ${session.userId})`,
      });
  }

  /** Verifies the signature, the expiry and that the session row is still live. */
  async authenticate(token: string): Promise<AuthenticatedSession> {
    const { row, ...claims } = await this.authenticateWith(token, (params) =>
      this.sessionWithUser.execute(params).then(([r]) => r),
    );
    return { ...claims, user: row.user };
  }

  /**
   * The same check, with the session row read by the caller's statement together with what
   * the call needs (the licence list reads the customer's holdings in it): one round trip for
   * the check and the data. The row's data is used only once the session proves live.
   */
  async authenticateWith<TRow extends SessionRowState>(
    token: string,
    read: SessionScopedRead<TRow>,
  ): Promise<AuthenticatedRead<TRow>> {
    const { sub, sid, exp, kms } = await this.verifySignature(token);
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') {
      throw new Fault('SecurityAuthTokenInvalid');
    }
    const row = await read({ sid, sub });
    if (!row || row.revokedAt) throw new Fault('UserAuthenticationFailed');
    const now = this.clock.now();
    if (row.expiresAt <= now) throw new Fault('SecurityAuthTokenExpired');
    const idleMs = now.getTime() - row.lastSeenAt.getTime();
    if (idleMs > idleLimitMs(row.keepMeSignedIn)) throw new Fault('SecurityAuthTokenExpired');
    if (idleMs > LAST_SEEN_RESOLUTION_MS) {
      await this.db.update(sessions).set({ lastSeenAt: now }).where(eq(sessions.id, sid));
    }
    return {
      userId: sub,
      sessionId: sid,
      expiresAt: new Date(exp * 1000),
      keepMeSignedIn: kms === 1,
      row,
    };
  }

  /**
   * The token's claims once its signature and expiry check out. A token seen recently is not
   * verified again (jose verifies on the thread pool, a hop per request); revocation does not
   * depend on this, the session row is read on every request.
   */
  private async verifySignature(token: string): Promise<Record<string, unknown>> {
    const cached = this.verified.get(token);
    const nowSeconds = this.clock.now().getTime() / 1000;
    if (cached && typeof cached.exp === 'number' && cached.exp > nowSeconds) return cached;
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'], currentDate: this.clock.now() }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new Fault('SecurityAuthTokenExpired');
      throw new Fault('SecurityAuthTokenInvalid');
    }
    if (this.verified.size >= VERIFIED_CACHE_SIZE) this.verified.delete(this.verified.keys().next().value as string);
    this.verified.set(token, payload);
    return payload;
  }

  /** The customer's live sessions: the one asking first, then the most recently used. */
  async listActive(userId: string, currentSessionId: string): Promise<ActiveSession[]> {
    const now = this.clock.now();
    const rows = await this.db
      .select()
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastSeenAt));
    return (
      rows
        .filter((row) => now.getTime() - row.lastSeenAt.getTime() <= idleLimitMs(row.keepMeSignedIn))
        // Its last use is recorded every few minutes only: another session may read as more recent.
        .sort((a, b) => Number(b.id === currentSessionId) - Number(a.id === currentSessionId))
        .map((row) => ({
          Id: row.id,
          Device: describeDevice(row.userAgent),
          CreatedAt: row.createdAt.getTime(),
          LastSeenAt: row.lastSeenAt.getTime(),
          ExpiresAt: row.expiresAt.getTime(),
          Current: row.id === currentSessionId,
        }))
    );
  }

  async revoke(sessionId: string): Promise<void> {
    await this.db
      .update(sessions)
      .set({ revokedAt: this.clock.now() })
      .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
  }

  /** Ends every session of a user but one (password change) or all of them (reset, deletion). */
  async revokeAllOf(tx: Queryable, userId: string, exceptSessionId?: string): Promise<void> {
    const conditions = [eq(sessions.userId, userId), isNull(sessions.revokedAt)];
    if (exceptSessionId) conditions.push(ne(sessions.id, exceptSessionId));
    await tx
      .update(sessions)
      .set({ revokedAt: this.clock.now() })
      .where(and(...conditions));
  }
}
