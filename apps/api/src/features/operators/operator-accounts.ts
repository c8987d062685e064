import {
  type ApiTokenScope,
  OPERATOR_IDLE_MINUTES,
  OPERATOR_INVITATION_HOURS,
  OPERATOR_SESSION_HOURS,
  type Operator,
  type OperatorRole,
  SIGN_IN_CHALLENGE_MINUTES,
} from '@soundid/contracts';
import { and, asc, desc, eq, gt, inArray, isNotNull, isNull, ne, or, sql } from 'drizzle-orm';
import type { Database, Queryable } from '../../db/client';
import { operatorCredentials, operators } from '../../db/operators-schema';
import { addDays, addHours, addMinutes, type Clock, type Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { SecretBox } from '../../lib/secret-box';
import { hashToken, newOpaqueToken } from '../../lib/secrets';
import { newTotpSecret, totpStepOf, totpUrl } from '../../lib/totp';
import type { AttemptLimiter, LockingRule } from '../accounts/attempt-limits';
import type { BreachedPasswords } from '../accounts/breached-passwords';
import { assertPasswordAcceptable } from '../accounts/password-policy';
import type { PasswordHashing } from '../accounts/passwords';
import type { SignInMeta } from '../accounts/sessions';
import type { Mailer } from '../mail/mailer';
import type { Actor, AuditTrail, RequestOrigin } from './audit-trail';
import { operatorInvitationMail } from './mails';

/** Operators' failed sign-ins lock the address sooner than customers' (ASVS 6.3.1). */
export const OPERATOR_LOGIN_LIMIT: LockingRule = {
  scope: 'operator-login',
  max: 5,
  windowMinutes: 15,
  lockMinutes: 15,
};
/** API tokens say what they are, so secret scanners and people recognise a leaked one. */
const API_TOKEN_PREFIX = 'msid_op_';
/**
 * The transaction lock every change to who is admin takes first (the bootstrap, a role change,
 * disabling): two admins demoting each other at once run one after the other, so one of them
 * stays admin, instead of locking each other's rows in opposite orders (a deadlock, a 500).
 */
const ADMINS_LOCK = 4_044_044_044;
/** A session's last-seen time is written at most this often (each call would be a write). */
const TOUCH_EVERY_MS = 60_000;

export interface OperatorAccountsDeps {
  db: Database;
  clock: Clock;
  random: Random;
  hashing: PasswordHashing;
  breached: BreachedPasswords;
  limiter: AttemptLimiter;
  /** Seals the operators' authenticator secrets (the customers' box, ADR 0037). */
  box: SecretBox;
  mailer: Mailer;
  audit: AuditTrail;
  publicUrl: string;
}

type OperatorRow = typeof operators.$inferSelect;

/** The operator behind a request: who, with which roles, through what. */
export interface SignedInOperator extends Actor {
  roles: OperatorRole[];
  credentialId: string;
  via: 'console' | 'token';
  scope: ApiTokenScope;
}

/** Where a sign-in comes from: the customers' shape (sessions.ts), its address and user-agent. */
export type ClientMeta = Pick<SignInMeta, 'ip' | 'userAgent'>;

/**
 * The back office's accounts (ADR 0044): the first admin from the bootstrap token, invitations
 * by mail, a password and an authenticator app for every operator, console sessions with idle
 * and absolute timeouts, personal API tokens, roles, disabling. Every change is audited.
 */
export class OperatorAccounts {
  constructor(private readonly deps: OperatorAccountsDeps) {}

  /**
   * The first admin's invitation, with the bootstrap token: refused once an active admin exists.
   * While the first admin has not accepted, a new bootstrap replaces the invitation (a lost link).
   */
  async bootstrap(
    input: { email: string; name: string },
    origin: RequestOrigin,
  ): Promise<{ Operator: Operator; InvitationUrl: string }> {
    const { db, clock } = this.deps;
    const email = input.email.trim().toLowerCase();
    const created = await db.transaction(async (tx) => {
      // One bootstrap at a time: two parallel ones must not make two first admins.
      await tx.execute(sql`select pg_advisory_xact_lock(${ADMINS_LOCK})`);
      const admins = await tx
        .select({ id: operators.id, email: operators.email, activatedAt: operators.activatedAt })
        .from(operators)
        .where(and(sql`'admin' = any(${operators.roles})`, isNull(operators.disabledAt)));
      if (admins.some((a) => a.activatedAt)) throw new Fault('BootstrapClosed');
      const token = newOpaqueToken(this.deps.random);
      const now = clock.now();
      const invitation = {
        invitationHash: hashToken(token),
        invitationExpiresAt: addHours(now, OPERATOR_INVITATION_HOURS),
      };
      // A pending first admin is replaced (another address) or re-invited (the same).
      for (const pending of admins.filter((a) => a.email !== email)) {
        await tx.update(operators).set({ disabledAt: now, invitationHash: null }).where(eq(operators.id, pending.id));
      }
      const [row] = await tx
        .insert(operators)
        .values({ email, name: input.name, roles: ['admin'], createdAt: now, ...invitation })
        .onConflictDoUpdate({
          target: operators.email,
          set: { name: input.name, roles: ['admin'], disabledAt: null, ...invitation },
        })
        .returning();
      const operator = row as OperatorRow;
      await this.deps.audit.append(tx, {
        actor: null,
        action: 'OperatorBootstrap',
        outcome: 'done',
        target: { type: 'operator', id: operator.id },
        after: { email, roles: operator.roles },
        reason: 'bootstrap token',
        origin,
      });
      return { operator, token };
    });
    // After the commit: a mail is no part of the transaction (and PGlite has one connection).
    const InvitationUrl = this.invitationUrl(created.token);
    await this.deps.mailer.send(operatorInvitationMail({ to: email, link: InvitationUrl, invitedBy: null }));
    return { Operator: toOperator(created.operator), InvitationUrl };
  }

  /** Whether the bootstrap token still works (no active admin yet). */
  async bootstrapOpen(): Promise<boolean> {
    const [admin] = await this.deps.db
      .select({ id: operators.id })
      .from(operators)
      .where(
        and(sql`'admin' = any(${operators.roles})`, isNull(operators.disabledAt), isNotNull(operators.activatedAt)),
      )
      .limit(1);
    return admin === undefined;
  }

  /** An admin invites an operator with roles; the link goes by mail and is answered too. */
  async invite(
    actor: Actor,
    input: { email: string; name: string; roles: OperatorRole[]; reason: string },
    origin: RequestOrigin,
  ): Promise<{ Operator: Operator; InvitationUrl: string }> {
    const email = input.email.trim().toLowerCase();
    const token = newOpaqueToken(this.deps.random);
    const now = this.deps.clock.now();
    const operator = await this.deps.db.transaction(async (tx) => {
      const [row] = await tx
        .insert(operators)
        .values({
          email,
          name: input.name,
          roles: input.roles,
          invitationHash: hashToken(token),
          invitationExpiresAt: addHours(now, OPERATOR_INVITATION_HOURS),
          invitedBy: actor.id,
          createdAt: now,
        })
        .onConflictDoNothing({ target: operators.email })
        .returning();
      if (!row) throw new Fault('OperatorAlreadyExists');
      await this.deps.audit.append(tx, {
        actor,
        action: 'InviteOperator',
        outcome: 'done',
        target: { type: 'operator', id: row.id },
        after: { email, name: input.name, roles: row.roles },
        reason: input.reason,
        origin,
      });
      return row;
    });
    const InvitationUrl = this.invitationUrl(token);
    await this.deps.mailer.send(operatorInvitationMail({ to: email, link: InvitationUrl, invitedBy: actor.email }));
    return { Operator: toOperator(operator), InvitationUrl };
  }

  /**
   * The invited operator's password (the customers' rules and breached list, and longer) and a
   * new authenticator secret, pending until ConfirmOperatorInvitation; may be repeated until then.
   */
  async acceptInvitation(
    token: string,
    password: string,
  ): Promise<{ Email: string; TotpSecret: string; OtpauthUrl: string }> {
    const operator = await this.pendingInvitation(token);
    await assertPasswordAcceptable(password, this.deps.breached);
    const passwordHash = await this.deps.hashing.hash(password);
    const secret = newTotpSecret(this.deps.random);
    await this.deps.db
      .update(operators)
      .set({ passwordHash, sealedTotpSecret: this.deps.box.seal(secret), totpLastStep: null })
      .where(and(eq(operators.id, operator.id), isNull(operators.activatedAt)));
    return {
      Email: operator.email,
      TotpSecret: secret,
      OtpauthUrl: totpUrl(secret, operator.email, 'My SoundID console'),
    };
  }

  /** The first authenticator code activates the operator; the invitation link is used up. */
  async confirmInvitation(token: string, code: string, origin: RequestOrigin): Promise<{ Email: string }> {
    const operator = await this.pendingInvitation(token);
    if (!operator.passwordHash || !operator.sealedTotpSecret) throw new Fault('OperatorInvitationInvalid');
    const step = totpStepOf(this.deps.box.open(operator.sealedTotpSecret), code, this.deps.clock.now(), null);
    if (step === undefined) throw new Fault('OperatorCodeInvalid');
    await this.deps.db.transaction(async (tx) => {
      const [activated] = await tx
        .update(operators)
        .set({
          activatedAt: this.deps.clock.now(),
          invitationHash: null,
          invitationExpiresAt: null,
          totpLastStep: step,
        })
        .where(and(eq(operators.id, operator.id), isNull(operators.activatedAt), isNull(operators.disabledAt)))
        .returning({ id: operators.id });
      if (!activated) throw new Fault('OperatorInvitationInvalid');
      await this.deps.audit.append(tx, {
        actor: { id: operator.id, email: operator.email, roles: operator.roles },
        action: 'ConfirmOperatorInvitation',
        outcome: 'done',
        target: { type: 'operator', id: operator.id },
        reason: 'invitation accepted',
        origin,
      });
    });
    return { Email: operator.email };
  }

  /**
   * The password step: under the operators' lockout, counted before the hash (ADR 0028). An
   * unknown, disabled or unfinished operator costs a hash too and gets the same answer.
   */
  async login(email: string, password: string, meta: ClientMeta): Promise<{ Challenge: string }> {
    const { db, limiter, hashing, clock } = this.deps;
    const key = email.trim().toLowerCase();
    const turn = hashing.admit();
    let operator: OperatorRow | undefined;
    try {
      const reservation = await limiter.reserve(OPERATOR_LOGIN_LIMIT, key);
      if (!reservation.admitted) throw new Fault('AttemptOverLimitLogin');
      [operator] = await db.select().from(operators).where(eq(operators.email, key)).limit(1);
      const usable = operator?.activatedAt && !operator.disabledAt ? operator.passwordHash : null;
      const ok = usable
        ? await turn.verify(usable, password)
        : (await turn.verify(await hashing.dummyHash(), password)) && false;
      if (!ok) {
        if (await limiter.fail(OPERATOR_LOGIN_LIMIT, key, reservation)) throw new Fault('AttemptOverLimitLogin');
        throw new Fault('OperatorSignInFailed');
      }
    } finally {
      turn.release();
    }
    const challenge = newOpaqueToken(this.deps.random);
    const now = clock.now();
    await db.insert(operatorCredentials).values({
      operatorId: (operator as OperatorRow).id,
      kind: 'challenge',
      secretHash: hashToken(challenge),
      createdAt: now,
      lastSeenAt: now,
      expiresAt: addMinutes(now, SIGN_IN_CHALLENGE_MINUTES),
      ip: meta.ip ?? null,
      userAgent: meta.userAgent ?? null,
    });
    return { Challenge: challenge };
  }

  /**
   * The authenticator step: the challenge is live and used once, the code is counted under the
   * lockout before it is checked, and accepted once (replay refused). Answers a console session.
   */
  async loginSecondFactor(
    challenge: string,
    code: string,
    meta: ClientMeta,
    origin: RequestOrigin,
  ): Promise<{ Operator: Operator; Token: string; ExpiresAt: Date }> {
    const { db, clock, limiter } = this.deps;
    const now = clock.now();
    const found = await this.liveCredential(challenge, ['challenge'], now);
    const sealedSecret = found?.operator.sealedTotpSecret;
    if (!found || !sealedSecret) throw new Fault('OperatorChallengeInvalid');
    const { operator } = found;
    const reservation = await limiter.reserve(OPERATOR_LOGIN_LIMIT, operator.email);
    if (!reservation.admitted) throw new Fault('AttemptOverLimitLogin');
    const step = totpStepOf(this.deps.box.open(sealedSecret), code, now, operator.totpLastStep);
    const token = newOpaqueToken(this.deps.random);
    const expiresAt = addHours(now, OPERATOR_SESSION_HOURS);
    const signedIn = await db.transaction(async (tx) => {
      const [used] = await tx
        .update(operatorCredentials)
        .set({ revokedAt: now })
        .where(and(eq(operatorCredentials.id, found.credential.id), isNull(operatorCredentials.revokedAt)))
        .returning({ id: operatorCredentials.id });
      if (!used) throw new Fault('OperatorChallengeInvalid');
      if (step === undefined) return false;
      // Only a later step moves forward: of two parallel requests with one code, one passes.
      const [moved] = await tx
        .update(operators)
        .set({ totpLastStep: step, lastSignInAt: now })
        .where(
          and(
            eq(operators.id, operator.id),
            or(isNull(operators.totpLastStep), sql`${operators.totpLastStep} < ${step}`),
          ),
        )
        .returning({ id: operators.id });
      if (!moved) return false;
      await tx.insert(operatorCredentials).values({
        operatorId: operator.id,
        kind: 'session',
        secretHash: hashToken(token),
        createdAt: now,
        lastSeenAt: now,
        expiresAt,
        ip: meta.ip ?? null,
        userAgent: meta.userAgent ?? null,
      });
      await this.deps.audit.append(tx, {
        actor: { id: operator.id, email: operator.email, roles: operator.roles },
        action: 'OperatorSignIn',
        outcome: 'done',
        target: { type: 'operator', id: operator.id },
        after: { userAgent: meta.userAgent ?? null },
        origin,
      });
      return true;
    });
    if (!signedIn) {
      // A wrong or replayed code: the challenge is spent, the attempt counts toward the lockout.
      if (await limiter.fail(OPERATOR_LOGIN_LIMIT, operator.email, reservation))
        throw new Fault('AttemptOverLimitLogin');
      throw new Fault('OperatorCodeInvalid');
    }
    if (!(await limiter.release(OPERATOR_LOGIN_LIMIT, operator.email))) throw new Fault('AttemptOverLimitLogin');
    return { Operator: toOperator({ ...operator, lastSignInAt: now }), Token: token, ExpiresAt: expiresAt };
  }

  /**
   * The operator a console session or API token belongs to, or undefined: live, not revoked,
   * a session used within the idle timeout, an active operator. Touches its last use.
   */
  async authenticate(secret: string, from: 'cookie' | 'bearer'): Promise<SignedInOperator | undefined> {
    const { db, clock } = this.deps;
    const now = clock.now();
    // The cookie carries a session only; Bearer a session (the CLI's sign-in) or an API token.
    const found = await this.liveCredential(secret, from === 'cookie' ? ['session'] : ['session', 'api-token'], now);
    if (!found?.operator.activatedAt) return undefined;
    const { credential, operator } = found;
    const via = credential.kind === 'session' ? 'console' : 'token';
    if (via === 'console' && credential.lastSeenAt < addMinutes(now, -OPERATOR_IDLE_MINUTES)) return undefined;
    const neverUsed = credential.lastSeenAt.getTime() === credential.createdAt.getTime();
    if (neverUsed || now.getTime() - credential.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      await db.update(operatorCredentials).set({ lastSeenAt: now }).where(eq(operatorCredentials.id, credential.id));
    }
    return {
      id: operator.id,
      email: operator.email,
      roles: operator.roles as OperatorRole[],
      credentialId: credential.id,
      via,
      scope: credential.scope,
    };
  }

  async logout(operator: SignedInOperator): Promise<void> {
    await this.revoke(operator.id, operator.credentialId);
  }

  async sessions(operator: SignedInOperator) {
    const now = this.deps.clock.now();
    const rows = await this.deps.db
      .select()
      .from(operatorCredentials)
      .where(
        and(
          eq(operatorCredentials.operatorId, operator.id),
          eq(operatorCredentials.kind, 'session'),
          isNull(operatorCredentials.revokedAt),
          gt(operatorCredentials.expiresAt, now),
          gt(operatorCredentials.lastSeenAt, addMinutes(now, -OPERATOR_IDLE_MINUTES)),
        ),
      )
      .orderBy(desc(operatorCredentials.lastSeenAt));
    return rows.map((row) => ({
      Id: row.id,
      CreatedAt: row.createdAt.toISOString(),
      LastSeenAt: row.lastSeenAt.toISOString(),
      ExpiresAt: row.expiresAt.toISOString(),
      Address: row.ip,
      UserAgent: row.userAgent,
      Current: row.id === operator.credentialId,
    }));
  }

  /** Ends one of the operator's own sessions. */
  async endSession(operator: SignedInOperator, id: string): Promise<void> {
    if (!(await this.revoke(operator.id, id, 'session'))) throw new Fault('NotFound');
  }

  /** A personal API token: shown once, kept as its hash, read-only or acting with the operator's roles. */
  async createApiToken(
    operator: SignedInOperator,
    input: { name: string; scope: ApiTokenScope; days: number },
    origin: RequestOrigin,
  ) {
    const now = this.deps.clock.now();
    const token = `${API_TOKEN_PREFIX}${newOpaqueToken(this.deps.random)}`;
    const row = await this.deps.db.transaction(async (tx) => {
      const [created] = await tx
        .insert(operatorCredentials)
        .values({
          operatorId: operator.id,
          kind: 'api-token',
          secretHash: hashToken(token),
          name: input.name,
          scope: input.scope,
          createdAt: now,
          lastSeenAt: now,
          expiresAt: addDays(now, input.days),
        })
        .returning();
      const apiToken = created as typeof operatorCredentials.$inferSelect;
      await this.deps.audit.append(tx, {
        actor: operator,
        action: 'CreateOperatorApiToken',
        outcome: 'done',
        target: { type: 'api-token', id: apiToken.id },
        after: { name: input.name, scope: input.scope, expiresAt: apiToken.expiresAt },
        reason: `API token "${input.name}"`,
        origin,
      });
      return apiToken;
    });
    return { Token: token, ApiToken: toApiToken(row, operator.email) };
  }

  /** One's own API tokens; an admin sees every operator's. */
  async apiTokens(operator: SignedInOperator) {
    const rows = await this.deps.db
      .select({ token: operatorCredentials, email: operators.email })
      .from(operatorCredentials)
      .innerJoin(operators, eq(operators.id, operatorCredentials.operatorId))
      .where(
        and(
          eq(operatorCredentials.kind, 'api-token'),
          operator.roles.includes('admin') ? undefined : eq(operatorCredentials.operatorId, operator.id),
        ),
      )
      .orderBy(desc(operatorCredentials.createdAt));
    return rows.map(({ token, email }) => toApiToken(token, email));
  }

  /** Revokes an API token: one's own, or any operator's for an admin. */
  async revokeApiToken(operator: SignedInOperator, id: string, origin: RequestOrigin): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [revoked] = await tx
        .update(operatorCredentials)
        .set({ revokedAt: this.deps.clock.now() })
        .where(
          and(
            eq(operatorCredentials.id, id),
            eq(operatorCredentials.kind, 'api-token'),
            isNull(operatorCredentials.revokedAt),
            operator.roles.includes('admin') ? undefined : eq(operatorCredentials.operatorId, operator.id),
          ),
        )
        .returning({
          id: operatorCredentials.id,
          name: operatorCredentials.name,
          owner: operatorCredentials.operatorId,
        });
      if (!revoked) throw new Fault('NotFound');
      await this.deps.audit.append(tx, {
        actor: operator,
        action: 'RevokeOperatorApiToken',
        outcome: 'done',
        target: { type: 'api-token', id },
        before: { name: revoked.name, operatorId: revoked.owner },
        reason: `API token "${revoked.name}" revoked`,
        origin,
      });
    });
  }

  async get(id: string): Promise<Operator> {
    const [row] = await this.deps.db.select().from(operators).where(eq(operators.id, id));
    if (!row) throw new Fault('OperatorNotFound');
    return toOperator(row);
  }

  async list(): Promise<Operator[]> {
    const rows = await this.deps.db.select().from(operators).orderBy(asc(operators.email));
    return rows.map(toOperator);
  }

  /** An admin changes an operator's roles; the last active admin keeps theirs. */
  async setRoles(
    actor: Actor,
    input: { id: string; roles: OperatorRole[]; reason: string },
    origin: RequestOrigin,
  ): Promise<Operator> {
    return this.change(actor, input.id, 'SetOperatorRoles', input.reason, origin, async (tx, before) => {
      if (before.roles.includes('admin') && !input.roles.includes('admin'))
        await this.assertNotLastAdmin(tx, before.id);
      const [after] = await tx
        .update(operators)
        .set({ roles: input.roles })
        .where(eq(operators.id, input.id))
        .returning();
      return after as OperatorRow;
    });
  }

  /** An admin disables an operator: every session and token ends with it. */
  async disable(actor: Actor, input: { id: string; reason: string }, origin: RequestOrigin): Promise<Operator> {
    return this.change(actor, input.id, 'DisableOperator', input.reason, origin, async (tx, before) => {
      if (before.roles.includes('admin')) await this.assertNotLastAdmin(tx, before.id);
      const now = this.deps.clock.now();
      const [after] = await tx
        .update(operators)
        .set({ disabledAt: now, invitationHash: null })
        .where(eq(operators.id, input.id))
        .returning();
      await tx
        .update(operatorCredentials)
        .set({ revokedAt: now })
        .where(and(eq(operatorCredentials.operatorId, input.id), isNull(operatorCredentials.revokedAt)));
      return after as OperatorRow;
    });
  }

  /** A change to an operator, with its before and after in the audit trail, in one transaction. */
  private async change(
    actor: Actor,
    id: string,
    action: string,
    reason: string,
    origin: RequestOrigin,
    apply: (tx: Queryable, before: OperatorRow) => Promise<OperatorRow>,
  ): Promise<Operator> {
    return this.deps.db.transaction(async (tx) => {
      await tx.execute(sql`select pg_advisory_xact_lock(${ADMINS_LOCK})`);
      // The guard read the actor's roles before the lock: a change that landed meanwhile (another
      // admin demoted or disabled them) holds, so they are read again here, in line.
      const [acting] = await tx
        .select({ roles: operators.roles, disabledAt: operators.disabledAt })
        .from(operators)
        .where(eq(operators.id, actor.id));
      if (!acting || acting.disabledAt || !acting.roles.includes('admin')) throw new Fault('OperatorForbidden');
      const [before] = await tx.select().from(operators).where(eq(operators.id, id));
      if (!before) throw new Fault('OperatorNotFound');
      const after = await apply(tx, before);
      await this.deps.audit.append(tx, {
        actor,
        action,
        outcome: 'done',
        target: { type: 'operator', id },
        before: { roles: before.roles, status: statusOf(before) },
        after: { roles: after.roles, status: statusOf(after) },
        reason,
        origin,
      });
      return toOperator(after);
    });
  }

  /** Called under ADMINS_LOCK: no other change to the admins runs meanwhile. */
  private async assertNotLastAdmin(tx: Queryable, id: string): Promise<void> {
    const others = await tx
      .select({ id: operators.id })
      .from(operators)
      .where(
        and(
          sql`'admin' = any(${operators.roles})`,
          isNull(operators.disabledAt),
          isNotNull(operators.activatedAt),
          ne(operators.id, id),
        ),
      )
      .limit(1);
    if (others.length === 0) throw new Fault('OperatorLastAdmin');
  }

  private async revoke(operatorId: string, id: string, kind?: 'session'): Promise<boolean> {
    const revoked = await this.deps.db
      .update(operatorCredentials)
      .set({ revokedAt: this.deps.clock.now() })
      .where(
        and(
          eq(operatorCredentials.id, id),
          eq(operatorCredentials.operatorId, operatorId),
          isNull(operatorCredentials.revokedAt),
          kind ? eq(operatorCredentials.kind, kind) : undefined,
        ),
      )
      .returning({ id: operatorCredentials.id });
    return revoked.length > 0;
  }

  /** A credential of these kinds by its secret: live, not revoked, of an operator not disabled. */
  private async liveCredential(
    secret: string,
    kinds: (typeof operatorCredentials.$inferSelect)['kind'][],
    now: Date,
  ): Promise<{ credential: typeof operatorCredentials.$inferSelect; operator: OperatorRow } | undefined> {
    const [found] = await this.deps.db
      .select({ credential: operatorCredentials, operator: operators })
      .from(operatorCredentials)
      .innerJoin(operators, eq(operators.id, operatorCredentials.operatorId))
      .where(
        and(
          eq(operatorCredentials.secretHash, hashToken(secret)),
          inArray(operatorCredentials.kind, kinds),
          isNull(operatorCredentials.revokedAt),
          gt(operatorCredentials.expiresAt, now),
          isNull(operators.disabledAt),
        ),
      )
      .limit(1);
    return found;
  }

  private async pendingInvitation(token: string): Promise<OperatorRow> {
    const [operator] = await this.deps.db
      .select()
      .from(operators)
      .where(
        and(
          eq(operators.invitationHash, hashToken(token)),
          gt(operators.invitationExpiresAt, this.deps.clock.now()),
          isNull(operators.activatedAt),
          isNull(operators.disabledAt),
        ),
      )
      .limit(1);
    if (!operator) throw new Fault('OperatorInvitationInvalid');
    return operator;
  }

  private invitationUrl(token: string): string {
    return new URL(`/console/invitation/${token}`, this.deps.publicUrl).toString();
  }
}

const statusOf = (row: OperatorRow): Operator['Status'] =>
  row.disabledAt ? 'disabled' : row.activatedAt ? 'active' : 'invited';

export function toOperator(row: OperatorRow): Operator {
  return {
    Id: row.id,
    Email: row.email,
    Name: row.name,
    Roles: row.roles as OperatorRole[],
    Status: statusOf(row),
    CreatedAt: row.createdAt.toISOString(),
    LastSignInAt: row.lastSignInAt?.toISOString() ?? null,
  };
}

function toApiToken(row: typeof operatorCredentials.$inferSelect, operatorEmail: string) {
  return {
    Id: row.id,
    Operator: operatorEmail,
    Name: row.name ?? '',
    Scope: row.scope,
    CreatedAt: row.createdAt.toISOString(),
    ExpiresAt: row.expiresAt.toISOString(),
    // Created with last-seen equal to created: never used until they differ.
    LastUsedAt: row.lastSeenAt.getTime() === row.createdAt.getTime() ? null : row.lastSeenAt.toISOString(),
    RevokedAt: row.revokedAt?.toISOString() ?? null,
  };
}
