import { SESSION_LONG_LIFETIME_DAYS, SESSION_SHORT_LIFETIME_HOURS } from '@soundid/contracts';
import { and, eq, isNull, ne } from 'drizzle-orm';
import { errors as joseErrors, jwtVerify, SignJWT } from 'jose';
import type { Database, Queryable } from '../../db/client';
import { sessions, users } from '../../db/schema';
import { addDays, addHours, type Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';

export interface SessionClaims {
  userId: string;
  sessionId: string;
  expiresAt: Date;
  keepMeSignedIn: boolean;
}

export interface IssuedSession extends SessionClaims {
  token: string;
}

/**
 * Sessions are signed JWTs (claims sub, sid, exp, kms) backed by a row that can be revoked.
 * Without keep-me-signed-in a session lasts a day at most; with it, 30 days.
 */
export class SessionService {
  private readonly key: Uint8Array;

  constructor(
    private readonly db: Database,
    private readonly clock: Clock,
    secret: string,
  ) {
    this.key = new TextEncoder().encode(secret);
  }

  async issue(
    tx: Queryable,
    userId: string,
    keepMeSignedIn: boolean,
    meta: { userAgent?: string | undefined; ip?: string | undefined } = {},
  ): Promise<IssuedSession> {
    const now = this.clock.now();
    const expiresAt = keepMeSignedIn
      ? addDays(now, SESSION_LONG_LIFETIME_DAYS)
      : addHours(now, SESSION_SHORT_LIFETIME_HOURS);
    const [row] = await tx
      .insert(sessions)
      .values({
        userId,
        keepMeSignedIn,
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
        userAgent: meta.userAgent?.slice(0, 300),
        ip: meta.ip,
      })
      .returning({ id: sessions.id });
    if (!row) throw new Fault('UserSaveFailure');
    const token = await new SignJWT({ sid: row.id, kms: keepMeSignedIn ? 1 : 0 })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setSubject(userId)
      .setIssuedAt(Math.floor(now.getTime() / 1000))
      .setExpirationTime(Math.floor(expiresAt.getTime() / 1000))
      .sign(this.key);
    return { token, userId, sessionId: row.id, expiresAt, keepMeSignedIn };
  }

  /** Verifies the signature, the expiry and that the session row is still live. */
  async authenticate(token: string): Promise<SessionClaims> {
    let payload: Record<string, unknown>;
    try {
      ({ payload } = await jwtVerify(token, this.key, {
        algorithms: ['HS256'],
        currentDate: this.clock.now(),
      }));
    } catch (error) {
      if (error instanceof joseErrors.JWTExpired) throw new Fault('SecurityAuthTokenExpired');
      throw new Fault('SecurityAuthTokenInvalid');
    }
    const { sub, sid, exp, kms } = payload;
    if (typeof sub !== 'string' || typeof sid !== 'string' || typeof exp !== 'number') {
      throw new Fault('SecurityAuthTokenInvalid');
    }
    const [row] = await this.db
      .select({ revokedAt: sessions.revokedAt, expiresAt: sessions.expiresAt })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, sid), eq(sessions.userId, sub)))
      .limit(1);
    if (!row || row.revokedAt) throw new Fault('UserAuthenticationFailed');
    if (row.expiresAt <= this.clock.now()) throw new Fault('SecurityAuthTokenExpired');
    return { userId: sub, sessionId: sid, expiresAt: new Date(exp * 1000), keepMeSignedIn: kms === 1 };
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
