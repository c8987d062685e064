import { RECOVERY_CODE_COUNT, RECOVERY_CODE_LENGTH, SIGN_IN_CHALLENGE_MINUTES } from '@soundid/contracts';
import { and, count, eq, getTableColumns, isNotNull, isNull, lt, or, sql, type WithSubquery } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { attemptCounters, users } from '../../db/schema';
import {
  recoveryCodes,
  signInChallenges,
  totpEnabledFor,
  totpFactors,
  totpStepIsNew,
} from '../../db/second-factor-schema';
import { addMinutes, type Clock, type Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { SecretBox } from '../../lib/secret-box';
import { hashToken, newOpaqueToken } from '../../lib/secrets';
import { newTotpSecret, totpStepOf, totpUrl } from '../../lib/totp';
import { recordAccountEvent } from '../activity/events';
import type { Mailer } from '../mail/mailer';
import {
  type AttemptLimiter,
  type LockingRule,
  releasedCte,
  reservationColumns,
  reservationOf,
  reservationParams,
  reserveOnConflict,
} from './attempt-limits';
import { recoveryCodeUsedMail, twoStepTurnedOffMail } from './mails';
import type { UserRow } from './users-repo';

export interface SecondFactorDeps {
  db: Database;
  clock: Clock;
  random: Random;
  /** Seals the authenticator secrets at rest. */
  box: SecretBox;
  limiter: AttemptLimiter;
  /** The sign-in lockout: wrong second-factor codes count toward it like wrong passwords. */
  loginLimit: LockingRule;
  mailer: Mailer;
}

/** The box authenticator secrets are sealed in, under the service's secret (ADR 0037). */
export const totpSecretBox = (serviceSecret: string, random: Random) =>
  new SecretBox(serviceSecret, 'totp-secret', random);

const RECOVERY_ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';
/** A code of digits is an authenticator's; anything else is taken for a recovery code. */
const TOTP_CODE = /^\d+$/;

/**
 * The live challenge of a hash (placeholder challengeHash) with its account and the account's
 * authenticator, and the attempt reserved under the account's sign-in lockout (see
 * `AttemptLimiter.reserve`; placeholders scope, now, windowStart, max) in the same statement: no
 * attempt is counted for a challenge that is unknown, used or expired.
 */
const challengeReserveAndReadQuery = (db: Database) => {
  const now = sql.placeholder('now');
  const live = and(
    eq(signInChallenges.challengeHash, sql.placeholder('challengeHash')),
    isNull(signInChallenges.usedAt),
    sql`${signInChallenges.expiresAt} > ${now}::timestamptz`,
  );
  // insert … select, keyed as the table's columns and in their order (drizzle checks both).
  const reserved = db.$with('reserved').as(
    db
      .insert(attemptCounters)
      .select((qb) =>
        qb
          .select({
            scope: sql<string>`${sql.placeholder('scope')}::text`.as('scope'),
            key: users.email,
            count: sql<number>`1`.as('count'),
            windowStartedAt: sql<Date>`${now}::timestamptz`.as('window_started_at'),
            lockedUntil: sql<Date | null>`null::timestamptz`.as('locked_until'),
          })
          .from(signInChallenges)
          .innerJoin(users, eq(users.id, signInChallenges.userId))
          .where(live)
          .limit(1),
      )
      .onConflictDoUpdate(reserveOnConflict())
      .returning({ key: attemptCounters.key, ...reservationColumns }),
  );
  return db
    .with(reserved)
    .select({
      id: signInChallenges.id,
      user: getTableColumns(users),
      sealedSecret: totpFactors.sealedSecret,
      lastUsedStep: totpFactors.lastUsedStep,
      count: reserved.count,
      lockedUntil: reserved.lockedUntil,
    })
    .from(signInChallenges)
    .innerJoin(users, eq(users.id, signInChallenges.userId))
    .leftJoin(totpFactors, totpEnabledFor(users.id))
    .leftJoin(reserved, eq(reserved.key, users.email))
    .where(live)
    .limit(1);
};

/** A proven second factor: which kind, and for TOTP the time step it was accepted at. */
type Proof = { kind: 'totp'; step: number } | { kind: 'recovery' };

/**
 * The second factor of an account (ADR 0037): an authenticator app (TOTP, RFC 6238, with
 * otplib) and ten single-use recovery codes. A code is accepted once: the time step of the last
 * accepted TOTP code is kept and only later steps pass, and a recovery code is marked used by
 * the same statement that accepts it, so parallel requests cannot both use one code.
 */
export class SecondFactorService {
  /** A sign-in's second step reads its challenge and reserves its attempt (see `complete`), prepared once. */
  private readonly reserveAndRead: ReturnType<ReturnType<typeof challengeReserveAndReadQuery>['prepare']>;

  constructor(private readonly deps: SecondFactorDeps) {
    this.reserveAndRead = challengeReserveAndReadQuery(deps.db).prepare('sign_in_challenge_reserve_and_read');
  }

  /** True when the account signs in with a second factor. */
  async required(db: Queryable, userId: string): Promise<boolean> {
    const [row] = await db
      .select({ userId: totpFactors.userId })
      .from(totpFactors)
      .where(totpEnabledFor(userId))
      .limit(1);
    return row !== undefined;
  }

  async status(userId: string): Promise<{ TotpEnabled: boolean; RecoveryCodesLeft: number }> {
    const [enabled, [left]] = await Promise.all([
      this.required(this.deps.db, userId),
      this.deps.db
        .select({ n: count() })
        .from(recoveryCodes)
        .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt))),
    ]);
    return { TotpEnabled: enabled, RecoveryCodesLeft: enabled ? (left?.n ?? 0) : 0 };
  }

  /** A new secret, pending until confirmed; a pending one is replaced, an enabled one refused. */
  async beginSetup(userId: string, email: string): Promise<{ Secret: string; OtpauthUrl: string }> {
    const secret = newTotpSecret(this.deps.random);
    const sealedSecret = this.deps.box.seal(secret);
    const now = this.deps.clock.now();
    const written = await this.deps.db
      .insert(totpFactors)
      .values({ userId, sealedSecret, createdAt: now })
      .onConflictDoUpdate({
        target: totpFactors.userId,
        set: { sealedSecret, createdAt: now, lastUsedStep: null },
        setWhere: isNull(totpFactors.confirmedAt),
      })
      .returning({ userId: totpFactors.userId });
    if (written.length === 0) throw new Fault('TotpAlreadyEnabled');
    return { Secret: secret, OtpauthUrl: totpUrl(secret, email) };
  }

  /** The app's first code turns TOTP on; the answer carries the recovery codes, shown once. */
  async confirmSetup(userId: string, code: string): Promise<{ RecoveryCodes: string[] }> {
    return this.deps.db.transaction(async (tx) => {
      const [factor] = await tx.select().from(totpFactors).where(eq(totpFactors.userId, userId)).for('update');
      if (!factor) throw new Fault('TotpSetupNotStarted');
      if (factor.confirmedAt) throw new Fault('TotpAlreadyEnabled');
      const step = this.totpStep(factor.sealedSecret, code, null);
      if (step === undefined) throw new Fault('SecondFactorCodeInvalid');
      await tx
        .update(totpFactors)
        .set({ confirmedAt: this.deps.clock.now(), lastUsedStep: step })
        .where(eq(totpFactors.userId, userId));
      return { RecoveryCodes: await this.replaceRecoveryCodes(tx, userId) };
    });
  }

  /**
   * Turns TOTP off with a current code or a recovery code; the recovery codes go with it, and
   * the customer is told (a thief who got this far would otherwise leave no trace).
   */
  async disable(userId: string, email: string, code: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await this.prove(tx, userId, code);
      await tx.delete(totpFactors).where(eq(totpFactors.userId, userId));
      await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
      await recordAccountEvent(tx, { userId, at: this.deps.clock.now(), kind: 'two_step_off' });
    });
    await this.deps.mailer.send(twoStepTurnedOffMail({ to: email, at: this.deps.clock.now() }), { userId });
  }

  async regenerateRecoveryCodes(userId: string, code: string): Promise<{ RecoveryCodes: string[] }> {
    return this.deps.db.transaction(async (tx) => {
      await this.prove(tx, userId, code);
      return { RecoveryCodes: await this.replaceRecoveryCodes(tx, userId) };
    });
  }

  /** A sign-in that passed its first factor: the challenge the client completes it with. */
  async challenge(db: Queryable, userId: string, keepMeSignedIn: boolean): Promise<string> {
    const challenge = newOpaqueToken(this.deps.random);
    await this.challengeInsert(db, userId, keepMeSignedIn, challenge);
    return challenge;
  }

  /**
   * A password sign-in's challenge, made by the statement that also clears the password
   * attempt's counter where it is not locked (`released`; see `AttemptLimiter.release`): one
   * round trip for both (docs/benchmarks.md, sign-in with TOTP). When nothing was released the
   * caller asks the limiter, which tells a lock (the sign-in is refused, the challenge never
   * handed out) from a counter a parallel success cleared.
   */
  async challengeReleasing(
    userId: string,
    keepMeSignedIn: boolean,
    attempt: { rule: LockingRule; key: string },
  ): Promise<{ challenge: string; released: boolean }> {
    const { db, clock } = this.deps;
    const challenge = newOpaqueToken(this.deps.random);
    const released = releasedCte(db, attempt.rule, attempt.key, clock.now());
    const [row] = await this.challengeInsert(db, userId, keepMeSignedIn, challenge, [released]).returning({
      released: sql<boolean>`exists (select 1 from ${released})`,
    });
    return { challenge, released: row?.released === true };
  }

  /** Removes a challenge that was made but will not be handed out. */
  async dropChallenge(challenge: string): Promise<void> {
    await this.deps.db.delete(signInChallenges).where(eq(signInChallenges.challengeHash, hashToken(challenge)));
  }

  /**
   * Inserts a challenge's row; old challenges of the account (expired or used) go in the same
   * statement, so the table holds only live ones at one round trip (docs/benchmarks.md).
   */
  private challengeInsert(
    db: Queryable,
    userId: string,
    keepMeSignedIn: boolean,
    challenge: string,
    alongside: WithSubquery[] = [],
  ) {
    const now = this.deps.clock.now();
    const gone = db.$with('gone').as(
      db
        .delete(signInChallenges)
        .where(
          and(
            eq(signInChallenges.userId, userId),
            or(lt(signInChallenges.expiresAt, now), isNotNull(signInChallenges.usedAt)),
          ),
        )
        .returning({ id: signInChallenges.id }),
    );
    return db
      .with(gone, ...alongside)
      .insert(signInChallenges)
      .values({
        challengeHash: hashToken(challenge),
        userId,
        keepMeSignedIn,
        createdAt: now,
        expiresAt: addMinutes(now, SIGN_IN_CHALLENGE_MINUTES),
      });
  }

  /**
   * Completes a challenged sign-in: the challenge is live and unused, the attempt is reserved
   * under the sign-in lockout before the code is checked (ADR 0028), and the challenge is used
   * up by the same statement that accepts the code. Answers the account and the challenge's
   * keep-me-signed-in choice; a wrong code counts as a failed sign-in.
   */
  async complete(challenge: string, code: string): Promise<{ user: UserRow; keepMeSignedIn: boolean }> {
    const { db, clock, limiter, loginLimit } = this.deps;
    const now = clock.now();
    // The challenge, its account and the account's authenticator, read as the attempt is
    // reserved under the account's lockout: one round trip (docs/benchmarks.md).
    const [found] = await this.reserveAndRead.execute({
      challengeHash: hashToken(challenge),
      scope: loginLimit.scope,
      ...reservationParams(loginLimit, now),
    });
    if (!found) throw new Fault('SecondFactorChallengeInvalid');
    const { user } = found;
    const reservation = reservationOf(loginLimit, found, now);
    if (!reservation.admitted) throw new Fault('AttemptOverLimitLogin');
    let outcome: { proof: Proof; keepMeSignedIn: boolean; released: boolean };
    try {
      outcome =
        found.sealedSecret !== null && TOTP_CODE.test(code)
          ? await this.completeWithTotp(
              found.id,
              user,
              { sealedSecret: found.sealedSecret, lastUsedStep: found.lastUsedStep },
              code,
            )
          : await db.transaction(async (tx) => {
              const [used] = await tx
                .update(signInChallenges)
                .set({ usedAt: now })
                .where(and(eq(signInChallenges.id, found.id), isNull(signInChallenges.usedAt)))
                .returning({ keepMeSignedIn: signInChallenges.keepMeSignedIn });
              if (!used) throw new Fault('SecondFactorChallengeInvalid');
              const proof = await this.prove(tx, user.id, code);
              return { proof, keepMeSignedIn: used.keepMeSignedIn, released: false };
            });
    } catch (error) {
      if (error instanceof Fault && error.faultName === 'SecondFactorCodeInvalid') {
        await db
          .update(signInChallenges)
          .set({ failures: sql`${signInChallenges.failures} + 1` })
          .where(eq(signInChallenges.id, found.id));
        if (await limiter.fail(loginLimit, user.email, reservation)) throw new Fault('AttemptOverLimitLogin');
      }
      throw error;
    }
    // The TOTP statement clears a counter that is not locked; a locked or missing one is told apart here.
    if (!outcome.released && !(await limiter.release(loginLimit, user.email))) throw new Fault('AttemptOverLimitLogin');
    if (outcome.proof.kind === 'recovery') {
      const { RecoveryCodesLeft } = await this.status(user.id);
      await this.deps.mailer.send(recoveryCodeUsedMail({ to: user.email, at: now, left: RecoveryCodesLeft }), {
        userId: user.id,
      });
    }
    return { user, keepMeSignedIn: outcome.keepMeSignedIn };
  }

  /**
   * A sign-in's TOTP code, checked against the authenticator read with the challenge, then
   * accepted in one statement: the last accepted step moves forward only past its stored value
   * (of two requests with one code, one passes) and only while the challenge is unused, the
   * challenge is used up only where the step moved, so a wrong or replayed code leaves it for
   * the next try, as a transaction would, and the attempt's counter is cleared where the code
   * was accepted and the account is not locked (`released`; see `AttemptLimiter.release`). One
   * round trip (docs/benchmarks.md).
   */
  private async completeWithTotp(
    challengeId: string,
    user: UserRow,
    factor: { sealedSecret: string; lastUsedStep: number | null },
    code: string,
  ): Promise<{ proof: Proof; keepMeSignedIn: boolean; released: boolean }> {
    const { db, clock, loginLimit } = this.deps;
    const now = clock.now();
    const step = this.totpStep(factor.sealedSecret, code, factor.lastUsedStep);
    if (step === undefined) throw new Fault('SecondFactorCodeInvalid');
    const unusedChallenge = and(eq(signInChallenges.id, challengeId), isNull(signInChallenges.usedAt));
    const moved = db.$with('moved').as(
      db
        .update(totpFactors)
        .set({ lastUsedStep: step })
        .where(
          and(
            totpEnabledFor(user.id),
            totpStepIsNew(step),
            sql`exists (select 1 from ${signInChallenges} where ${unusedChallenge})`,
          ),
        )
        .returning({ userId: totpFactors.userId }),
    );
    const used = db.$with('used').as(
      db
        .update(signInChallenges)
        .set({ usedAt: now })
        .where(and(unusedChallenge, sql`exists (select 1 from ${moved})`))
        .returning({ keepMeSignedIn: signInChallenges.keepMeSignedIn }),
    );
    const released = releasedCte(db, loginLimit, user.email, now, sql`exists (select 1 from ${used})`);
    const [accepted] = await db
      .with(moved, used, released)
      .select({ keepMeSignedIn: used.keepMeSignedIn, released: sql<boolean>`exists (select 1 from ${released})` })
      .from(used);
    if (accepted) return { proof: { kind: 'totp', step }, ...accepted };
    // Nothing accepted: the challenge was used meanwhile, or the code's step was (a replay).
    const [challengeNow] = await db
      .select({ usedAt: signInChallenges.usedAt })
      .from(signInChallenges)
      .where(eq(signInChallenges.id, challengeId));
    if (!challengeNow || challengeNow.usedAt) throw new Fault('SecondFactorChallengeInvalid');
    throw new Fault('SecondFactorCodeInvalid');
  }

  /**
   * A proof of presence by the signed-in customer (step-up, ADR 0040): a current TOTP code, used
   * up as a sign-in's is, under the sign-in lockout (a wrong code counts as a failed sign-in).
   */
  async proveForStepUp(userId: string, email: string, code: string): Promise<void> {
    const { db, limiter, loginLimit } = this.deps;
    const reservation = await limiter.reserve(loginLimit, email);
    if (!reservation.admitted) throw new Fault('AttemptOverLimitLogin');
    try {
      await db.transaction((tx) => this.prove(tx, userId, code));
    } catch (error) {
      if (error instanceof Fault && error.faultName === 'SecondFactorCodeInvalid') {
        if (await limiter.fail(loginLimit, email, reservation)) throw new Fault('AttemptOverLimitLogin');
      }
      throw error;
    }
    if (!(await limiter.release(loginLimit, email))) throw new Fault('AttemptOverLimitLogin');
  }

  /**
   * Checks a code against an enabled factor inside the caller's transaction and uses it up:
   * a TOTP code moves the last accepted step forward, a recovery code is marked used. Throws
   * SecondFactorCodeInvalid for a wrong, replayed or used code, TotpNotEnabled without TOTP.
   */
  private async prove(tx: Queryable, userId: string, code: string): Promise<Proof> {
    const [factor] = await tx.select().from(totpFactors).where(totpEnabledFor(userId)).limit(1);
    if (!factor) throw new Fault('TotpNotEnabled');
    if (TOTP_CODE.test(code)) {
      const step = this.totpStep(factor.sealedSecret, code, factor.lastUsedStep);
      if (step === undefined) throw new Fault('SecondFactorCodeInvalid');
      // Only a later step moves forward: of two parallel requests with one code, one passes.
      const [moved] = await tx
        .update(totpFactors)
        .set({ lastUsedStep: step })
        .where(and(eq(totpFactors.userId, userId), totpStepIsNew(step)))
        .returning({ userId: totpFactors.userId });
      if (!moved) throw new Fault('SecondFactorCodeInvalid');
      return { kind: 'totp', step };
    }
    const [used] = await tx
      .update(recoveryCodes)
      .set({ usedAt: this.deps.clock.now() })
      .where(
        and(
          eq(recoveryCodes.userId, userId),
          eq(recoveryCodes.codeHash, hashToken(code)),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (!used) throw new Fault('SecondFactorCodeInvalid');
    return { kind: 'recovery' };
  }

  /** The time step a code is valid for (within ±1 step, after `afterStep`), or undefined. */
  private totpStep(sealedSecret: string, code: string, afterStep: number | null): number | undefined {
    return totpStepOf(this.deps.box.open(sealedSecret), code, this.deps.clock.now(), afterStep);
  }

  private async replaceRecoveryCodes(tx: Queryable, userId: string): Promise<string[]> {
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, () => this.recoveryCode());
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    const now = this.deps.clock.now();
    await tx
      .insert(recoveryCodes)
      .values(codes.map((code) => ({ userId, codeHash: hashToken(code.replaceAll('-', '')), createdAt: now })));
    return codes;
  }

  /**
   * 24 characters of base32 (120 bits), shown in four groups of six: at 112 bits or more a
   * SHA-256 is the right way to store it (ASVS 6.5.2), and checking one needs no argon2 run.
   */
  private recoveryCode(): string {
    const chars = [...this.deps.random.bytes(RECOVERY_CODE_LENGTH)]
      .map((byte) => RECOVERY_ALPHABET[byte & 31])
      .join('');
    return chars.match(/.{6}/g)?.join('-') ?? chars;
  }
}
