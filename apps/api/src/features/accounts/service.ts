import {
  ACCOUNT_DELETION_LINK_VALIDITY_HOURS,
  ACCOUNT_FREEZE_HOURS,
  type Address,
  APP_LOGIN_TOKEN_VALIDITY_MINUTES,
  EMAIL_CHANGE_LINK_VALIDITY_HOURS,
  EMAIL_CHANGE_MAX_ATTEMPTS,
  EMAIL_CHANGE_WINDOW_MINUTES,
  isDisputable,
  LOGIN_LOCKOUT_MINUTES,
  LOGIN_MAX_FAILED_ATTEMPTS,
  NOT_ME_REPORTS_PER_HOUR,
  PASSWORD_RESET_LINK_VALIDITY_HOURS,
  SIGN_IN_REPORT_LINK_VALIDITY_HOURS,
  type SocialPlatform,
  type User,
  VERIFICATION_LINK_VALIDITY_HOURS,
  WEB_LOGIN_CODE_VALIDITY_MINUTES,
  WEB_LOGIN_SWITCH_VARIABLES,
  type WebLoginCodeResult,
} from '@soundid/contracts';
import { and, eq, isNull, lte, ne, or } from 'drizzle-orm';
import { accountEvents } from '../../db/activity-schema';
import type { Database, Queryable, Transaction } from '../../db/client';
import { licenceTransfers } from '../../db/licences-schema';
import { actionTokens, seenDevices, socialAccounts, users } from '../../db/schema';
import { BoundedQueue } from '../../lib/bounded-queue';
import { addHours, type Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { noTurns, type Turns } from '../../lib/turns';
import { recordAccountEvent } from '../activity/events';
import type { Mailer } from '../mail/mailer';
import type { AbuseLimits } from './abuse-limits';
import type { ActionTokenService, TokenFaults } from './action-tokens';
import {
  type AttemptLimiter,
  type LimitRule,
  type LockingRule,
  type Reservation,
  reservationOf,
  reservationParams,
} from './attempt-limits';
import type { BreachedPasswords } from './breached-passwords';
import {
  accountDeletedMail,
  accountDeletionConfirmMail,
  emailChangeMail,
  newDeviceSignInMail,
  passwordResetMail,
  verifyEmailMail,
} from './mails';
import type { PasskeyService } from './passkeys';
import { assertPasswordAcceptable } from './password-policy';
import type { PasswordHashing } from './passwords';
import type { SecondFactorService } from './second-factor';
import type { DeviceSignIn, IssuedSession, SessionService, SignInMeta } from './sessions';
import type { SocialVerifier } from './social-verifier';
import {
  findUserByEmail,
  findUserById,
  isUniqueViolation,
  normalizeEmail,
  signInReserveAndFindQuery,
  toUser,
  type UserRow,
} from './users-repo';

export const LOGIN_LIMIT: LockingRule = {
  scope: 'login',
  max: LOGIN_MAX_FAILED_ATTEMPTS,
  windowMinutes: 15,
  lockMinutes: LOGIN_LOCKOUT_MINUTES,
};
/** "This wasn't me" on My activity, per account (docs/decisions/0055-my-activity.md). */
export const NOT_ME_LIMIT: LimitRule = { scope: 'not-me', max: NOT_ME_REPORTS_PER_HOUR, windowMinutes: 60 };
export const EMAIL_CHANGE_LIMIT: LimitRule = {
  scope: 'email-change',
  max: EMAIL_CHANGE_MAX_ATTEMPTS,
  windowMinutes: EMAIL_CHANGE_WINDOW_MINUTES,
};

const VERIFY_FAULTS: TokenFaults = {
  notFound: 'EmailValidationTokenNotFound',
  alreadyUsed: 'ActionTokenAlreadyUsed',
  expired: 'ActionTokenExpired',
};
const RESET_FAULTS: TokenFaults = {
  notFound: 'TokenInvalid',
  alreadyUsed: 'ActionTokenAlreadyUsed',
  expired: 'ActionTokenExpired',
};
const EMAIL_CHANGE_FAULTS: TokenFaults = {
  notFound: 'EmailChangeValidationTokenNotFound',
  alreadyUsed: 'EmailChangeValidationTokenAlreadyUsed',
  expired: 'ActionTokenExpired',
};
const DELETION_FAULTS: TokenFaults = {
  notFound: 'AccountDeletionTokenNotFound',
  alreadyUsed: 'AccountDeletionTokenAlreadyUsed',
  expired: 'ActionTokenExpired',
};
const APP_LOGIN_FAULTS: TokenFaults = {
  notFound: 'TokenInvalid',
  alreadyUsed: 'ActionTokenAlreadyUsed',
  expired: 'TokenExpired',
};

const WEB_LOGIN_FAULTS: TokenFaults = {
  notFound: 'WebLoginCodeInvalid',
  alreadyUsed: 'WebLoginCodeUsed',
  expired: 'WebLoginCodeExpired',
};

const SIGN_IN_REPORT_FAULTS: TokenFaults = {
  notFound: 'ActionTokenNotFound',
  alreadyUsed: 'ActionTokenAlreadyUsed',
  expired: 'ActionTokenExpired',
};

/** Who is signed in where a portal link is opened, if anyone. */
export interface CurrentSession {
  userId: string;
  email: string;
}

/** A portal link's exchange: a new session, or none when the link's customer is already signed in here. */
export interface WebLoginExchange {
  user: User;
  session?: IssuedSession;
}

/** Where a request comes from: its User-Agent, address and (for sign-ins) device (ADR 0041). */
export type ClientMeta = SignInMeta;

export interface SignedIn {
  session: IssuedSession;
  user: User;
}

export interface AccountServiceDeps {
  /** Where work done after the answer (password reset mails) reports its failures. */
  log: { error(details: object, message: string): void };
  db: Database;
  clock: Clock;
  sessions: SessionService;
  tokens: ActionTokenService;
  limiter: AttemptLimiter;
  /** Sign-ups per client and overall, mails per mailbox (ADR 0031). */
  abuse: AbuseLimits;
  /** Admission to password hashing and the hashing itself (ADR 0028). */
  hashing: PasswordHashing;
  /** The breached-password list a new password is checked against (ADR 0042). */
  breachedPasswords: BreachedPasswords;
  mailer: Mailer;
  social: SocialVerifier;
  publicUrl: string;
  appLoginScheme: string;
  /**
   * What other areas settle in the deletion's transaction before the account row goes (the
   * licences area charges the deleted customer's activations, ADR 0030). Wired by the
   * composition root, so that accounts imports no other feature.
   */
  beforeDelete(tx: Transaction, userId: string, at: Date): Promise<void>;
  /** Accounts with a second factor finish signing in with LoginSecondFactor (ADR 0037). */
  secondFactor: SecondFactorService;
  /** Passkey sign-ins (ADR 0039). */
  passkeys: PasskeyService;
  /**
   * Turns a signed-out password check's statements wait for (lib/turns.ts): one per event-loop
   * iteration where the database runs on the event loop, so that a sign-in flood's writes do not
   * hold signed-in calls back (ADR 0028 addendum); none elsewhere. A signed-in customer's own
   * password checks (step-up, password change) take none.
   */
  signInTurns: Pick<Turns, 'take'>;
}

/** Reset requests waiting for their turn; past this a flood's requests are dropped unanswered by mail. */
const MAX_WAITING_RESETS = 200;
/** New-device mails waiting for their turn; past this a flood's alerts are dropped (and logged). */
const MAX_WAITING_ALERTS = 200;

/** The account rules: sign-up, sign-in, verification, profile, e-mail and password changes, deletion. */
export class AccountService {
  /** Password-reset work, after the answer and one request at a time. */
  private readonly resets = new BoundedQueue(1, MAX_WAITING_RESETS);
  /** New-device mails, after the answer and one at a time (ADR 0041). */
  private readonly alerts = new BoundedQueue(1, MAX_WAITING_ALERTS);
  private readonly afterAnswer = new Set<Promise<unknown>>();

  /** Sign-in's reservation and account lookup, prepared once. */
  private readonly reserveAndFind: ReturnType<ReturnType<typeof signInReserveAndFindQuery>['prepare']>;

  constructor(private readonly deps: AccountServiceDeps) {
    this.reserveAndFind = signInReserveAndFindQuery(deps.db).prepare('sign_in_reserve_and_find');
  }

  /** Resolves once the work started after earlier answers is done (shutdown, tests). */
  async settled(): Promise<void> {
    while (this.afterAnswer.size > 0) await Promise.all([...this.afterAnswer]);
  }

  private link(path: string, token: string): string {
    return `${this.deps.publicUrl}/${path}/${token}`;
  }

  // ── Sign-up and verification ────────────────────────────────────────────

  /**
   * Makes an unverified account and mails its verification link. The sign-up is counted against
   * the client's and the overall allowance, and the mail against the mailbox's, before the
   * password is hashed: over a limit nothing is made and nothing sent (ADR 0031).
   */
  async register(email: string, password: string, clientIp: string | undefined): Promise<void> {
    const { db, clock, abuse } = this.deps;
    const normalized = normalizeEmail(email);
    await assertPasswordAcceptable(password, this.deps.breachedPasswords);
    await abuse.signUp(clientIp);
    if (await findUserByEmail(db, normalized)) throw new Fault('UserAlreadyRegistered');
    await abuse.mailTo(normalized);
    const passwordHash = await this.deps.hashing.hash(password);
    let created: { userId: string; token: string };
    try {
      created = await db.transaction(async (tx) => {
        const now = clock.now();
        const [user] = await tx
          .insert(users)
          .values({ email: normalized, passwordHash, createdAt: now, updatedAt: now })
          .returning({ id: users.id });
        if (!user) throw new Fault('UserSaveFailure');
        const token = await this.deps.tokens.create(tx, 'verify_email', user.id, VERIFICATION_LINK_VALIDITY_HOURS * 60);
        return { userId: user.id, token };
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Fault('UserAlreadyRegistered');
      throw error;
    }
    await this.sendVerification({ id: created.userId, email: normalized }, created.token);
  }

  private sendVerification(user: { id: string; email: string }, token: string): Promise<void> {
    return this.deps.mailer.send(
      verifyEmailMail({
        to: user.email,
        link: this.link('verify-email', token),
        validHours: VERIFICATION_LINK_VALIDITY_HOURS,
      }),
      { userId: user.id },
    );
  }

  private async issueVerification(user: UserRow): Promise<void> {
    await this.deps.abuse.mailTo(user.email);
    const token = await this.deps.db.transaction(async (tx) => {
      await this.deps.tokens.retireUnused(tx, 'verify_email', user.id);
      return this.deps.tokens.create(tx, 'verify_email', user.id, VERIFICATION_LINK_VALIDITY_HOURS * 60);
    });
    await this.sendVerification(user, token);
  }

  /** Confirms the address and signs the customer in (spec: succeeded → logged in). */
  async verifyEmail(token: string, meta: ClientMeta): Promise<SignedIn> {
    const { db, clock } = this.deps;
    return db.transaction(async (tx) => {
      const row = await this.deps.tokens.consume(tx, 'verify_email', token, VERIFY_FAULTS);
      const user = row.userId ? await findUserById(tx, row.userId) : undefined;
      if (!user) throw new Fault('UserEmailValidationNotFound');
      const [updated] = await tx
        .update(users)
        .set({ emailVerifiedAt: user.emailVerifiedAt ?? clock.now(), updatedAt: clock.now() })
        .where(eq(users.id, user.id))
        .returning();
      const session = await this.deps.sessions.issue(tx, user.id, true, meta);
      return { session, user: toUser(updated ?? user) };
    });
  }

  /** A new link for the address behind an expired (or otherwise unusable) verification link. */
  async resendVerificationForToken(token: string): Promise<void> {
    const row = await this.deps.tokens.find(this.deps.db, 'verify_email', token);
    const user = row?.userId ? await findUserById(this.deps.db, row.userId) : undefined;
    if (!row || !user) throw new Fault('EmailValidationTokenNotFound');
    if (user.emailVerifiedAt) throw new Fault('EmailValidationTokenAlreadyUsed');
    await this.issueVerification(user);
  }

  /** A new link mailed at support's request (a lost verification mail); false when already verified. */
  async resendVerificationFor(userId: string): Promise<boolean> {
    const user = await findUserById(this.deps.db, userId);
    if (!user) throw new Fault('UserNotFound');
    if (user.emailVerifiedAt) return false;
    await this.issueVerification(user);
    return true;
  }

  /** Whether sign-in is locked for an address now. */
  signInLocked(email: string): Promise<boolean> {
    return this.deps.limiter.isLocked(LOGIN_LIMIT, normalizeEmail(email));
  }

  /**
   * Lifts the sign-in lockout of an address at support's request; whether it was locked.
   * `record` writes the audit entry in the same transaction (ADR 0045).
   */
  async unlockSignIn(email: string, record: (tx: Queryable, wasLocked: boolean) => Promise<void>): Promise<boolean> {
    const key = normalizeEmail(email);
    // Whether it was locked is what the clearing statement removed, not a read before it.
    return this.deps.db.transaction(async (tx) => {
      const wasLocked = await this.deps.limiter.reset(LOGIN_LIMIT, key, tx);
      await record(tx, wasLocked);
      return wasLocked;
    });
  }

  /** A new link for a customer who proves the password (login screen, expired link). */
  async resendVerification(email: string, password: string): Promise<void> {
    const user = await this.checkCredentials(email, password);
    if (user.emailVerifiedAt) throw new Fault('EmailValidationTokenAlreadyUsed');
    await this.issueVerification(user);
  }

  // ── Sign-in ─────────────────────────────────────────────────────────────

  /**
   * Every password check, under the sign-in lockout of the address (ADR 0028; ASVS 6.3.1,
   * 2.4.1): a place on the hashing threads first (`ServiceBusy` at once when none is free),
   * then the attempt is counted atomically before the hash, so that of a burst of guesses at
   * most the rule's allowance is hashed and the rest is refused at once; a right password that
   * arrives once the address is locked is refused too. `reserve` counts the attempt (the
   * limiter's reservation, or a statement that also reads the account) and gives the stored hash
   * (undefined: no password, a dummy hash is verified so that timing does not tell which
   * addresses exist), used only when the attempt is admitted. Returns whether the password matched; a
   * mismatch is counted and locks the address at the limit (then `AttemptOverLimitLogin`).
   */
  private async checkPassword<T>(
    email: string,
    password: string,
    reserve: (key: string) => Promise<{ reservation: Reservation; found: T; passwordHash: string | null | undefined }>,
    release: 'now' | 'by the caller',
    /** The signed-out checks take turns (`signInTurns`); a signed-in customer's do not wait behind a flood. */
    turns: Pick<Turns, 'take'>,
  ): Promise<{ ok: true; found: T } | { ok: false }> {
    const { limiter, hashing } = this.deps;
    const key = normalizeEmail(email);
    const turn = hashing.admit();
    try {
      await turns.take();
      const { reservation, found, passwordHash } = await reserve(key);
      if (!reservation.admitted) throw new Fault('AttemptOverLimitLogin');
      const ok = passwordHash
        ? await turn.verify(passwordHash, password)
        : (await turn.verify(await hashing.dummyHash(), password)) && false;
      await turns.take();
      if (!ok) {
        if (await limiter.fail(LOGIN_LIMIT, key, reservation)) throw new Fault('AttemptOverLimitLogin');
        return { ok: false };
      }
      if (release === 'now') await this.releaseSignIn(key);
      return { ok: true, found };
    } finally {
      turn.release();
    }
  }

  /**
   * Checks e-mail and password under the lockout rule: after repeated failures the address
   * is locked for 5 minutes, even for the right password. Unknown addresses cost a hash
   * verification too, so that timing does not tell which addresses exist.
   */
  private async checkCredentials(
    email: string,
    password: string,
    release: 'now' | 'by the caller' = 'now',
  ): Promise<UserRow & { secondFactor: boolean }> {
    const checked = await this.checkPassword(
      email,
      password,
      async (key) => {
        const now = this.deps.clock.now();
        const [row] = await this.reserveAndFind.execute({
          scope: LOGIN_LIMIT.scope,
          key,
          ...reservationParams(LOGIN_LIMIT, now),
        });
        const user = row?.user ? { ...row.user, secondFactor: row.secondFactor } : undefined;
        return { reservation: reservationOf(LOGIN_LIMIT, row, now), found: user, passwordHash: user?.passwordHash };
      },
      release,
      this.deps.signInTurns,
    );
    if (!checked.ok || !checked.found) throw new Fault('UserLoginInvalidCredentials');
    // Once the attempt is released: a success refused for a lock changes nothing.
    if (release === 'now') await this.rehashIfOutdated(checked.found, password);
    return checked.found;
  }

  /** Replaces a hash made with other parameters; when hashing is busy, at a later sign-in. */
  private async rehashIfOutdated(user: UserRow, password: string): Promise<void> {
    if (user.passwordHash && this.deps.hashing.needsRehash(user.passwordHash)) await this.rehash(user.id, password);
  }

  private async rehash(userId: string, password: string): Promise<void> {
    let passwordHash: string;
    try {
      passwordHash = await this.deps.hashing.hash(password);
    } catch (error) {
      if (error instanceof Fault && error.faultName === 'ServiceBusy') return;
      throw error;
    }
    // updated_at untouched: the same password, no entry in My activity (ADR 0055's trigger).
    await this.deps.db.update(users).set({ passwordHash }).where(eq(users.id, userId));
  }

  /** A signed-in customer's password (re-authentication, password change), under the same lockout. */
  /** The account's password, checked under the sign-in lockout (a step-up proof, ADR 0040). */
  confirmPassword(user: UserRow, password: string): Promise<boolean> {
    return this.checkPasswordOf(user, password);
  }

  private async checkPasswordOf(user: UserRow, password: string): Promise<boolean> {
    const checked = await this.checkPassword(
      user.email,
      password,
      async (key) => ({
        reservation: await this.deps.limiter.reserve(LOGIN_LIMIT, key),
        found: user,
        passwordHash: user.passwordHash,
      }),
      'now',
      noTurns,
    );
    return checked.ok;
  }

  /**
   * A successful attempt clears the address's counter, unless a concurrent failure locked it
   * meanwhile: then the success is refused (ADR 0028).
   */
  private async releaseSignIn(key: string): Promise<void> {
    if (!(await this.deps.limiter.release(LOGIN_LIMIT, key))) throw new Fault('AttemptOverLimitLogin');
  }

  async loginByEmail(email: string, password: string, keepMeSignedIn: boolean, meta: ClientMeta): Promise<SignedIn> {
    // The counter is cleared below: for an account with a second factor, by the statement that
    // makes its challenge (one round trip less: docs/benchmarks.md, sign-in with TOTP).
    const user = await this.checkCredentials(email, password, 'by the caller');
    const key = normalizeEmail(email);
    if (user.secondFactor && user.emailVerifiedAt) {
      const { challenge, released } = await this.deps.secondFactor.challengeReleasing(user.id, keepMeSignedIn, {
        rule: LOGIN_LIMIT,
        key,
      });
      if (!released) {
        try {
          await this.releaseSignIn(key);
        } catch (error) {
          // Refused for a lock: the challenge is never handed out, and goes at once.
          await this.deps.secondFactor.dropChallenge(challenge);
          throw error;
        }
      }
      await this.rehashIfOutdated(user, password);
      throw new Fault('SecondFactorRequired', { Challenge: challenge });
    }
    await this.releaseSignIn(key);
    await this.rehashIfOutdated(user, password);
    if (!user.emailVerifiedAt) {
      const latest = await this.deps.tokens.latest(this.deps.db, 'verify_email', user.id);
      const linkLive = latest && !latest.usedAt && latest.expiresAt > this.deps.clock.now();
      throw new Fault(linkLive ? 'UserLoginEmailNotVerified' : 'UserLoginEmailUnverifiedAndLinkExpired');
    }
    const session = await this.deps.sessions.issue(this.deps.db, user.id, keepMeSignedIn, meta);
    return { session, user: toUser(user) };
  }

  /**
   * The challenge a sign-in must complete with its second factor, when the account has one;
   * undefined when the first factor is enough (ADR 0037).
   */
  private async secondFactorChallenge(db: Queryable, userId: string, keepMeSignedIn: boolean) {
    const factors = this.deps.secondFactor;
    if (!(await factors.required(db, userId))) return undefined;
    return factors.challenge(db, userId, keepMeSignedIn);
  }

  /** The second step of a challenged sign-in: a TOTP or recovery code; answers as sign-in does. */
  async loginSecondFactor(challenge: string, code: string, meta: ClientMeta): Promise<SignedIn> {
    const { user, keepMeSignedIn } = await this.deps.secondFactor.complete(challenge, code);
    const session = await this.deps.sessions.issue(this.deps.db, user.id, keepMeSignedIn, meta);
    return { session, user: toUser(user) };
  }

  /**
   * A passkey sign-in (ADR 0039): the passkey, verified by its device, is both factors. Bound to
   * a sign-in waiting for its second factor, it completes that sign-in with its keep-me-signed-in
   * choice. Not counted toward the sign-in lockout, nor stopped by it: an assertion cannot be
   * guessed, and a password attack must not lock the customer out of their passkey.
   */
  async loginByPasskey(
    challengeId: string,
    response: Parameters<PasskeyService['finishLogin']>[1],
    keepMeSignedIn: boolean,
    meta: ClientMeta,
  ): Promise<SignedIn> {
    const outcome = await this.deps.passkeys.finishLogin(challengeId, response);
    const user = await findUserById(this.deps.db, outcome.userId);
    if (!user) throw new Fault('PasskeyInvalid');
    const keep = outcome.keepMeSignedIn ?? keepMeSignedIn;
    const session = await this.deps.sessions.issue(this.deps.db, user.id, keep, meta);
    return { session, user: toUser(user) };
  }

  /**
   * Social sign-in: an identity already linked signs in; otherwise an account with the same
   * address is linked when the provider vouches for the address, or a new account is made.
   */
  async loginBySocial(
    platform: SocialPlatform,
    token: string,
    tokenType: 'access_token' | 'id_token',
    keepMeSignedIn: boolean,
    meta: ClientMeta,
  ): Promise<SignedIn> {
    const identity = await this.deps.social.verify({ platform, token, tokenType });
    const { db, clock } = this.deps;
    const run = () =>
      db.transaction(async (tx) => {
        const [linked] = await tx
          .select({ user: users })
          .from(socialAccounts)
          .innerJoin(users, eq(users.id, socialAccounts.userId))
          .where(and(eq(socialAccounts.provider, identity.provider), eq(socialAccounts.subject, identity.subject)))
          .limit(1);
        let user = linked?.user;
        if (!user) {
          if (!identity.email) throw new Fault('SocialLoginEmailMissing');
          if (!identity.emailVerified) throw new Fault('SocialLoginTokenInvalid');
          const email = normalizeEmail(identity.email);
          const now = clock.now();
          const existing = await findUserByEmail(tx, email);
          if (existing) {
            // A password set on a never-verified account was never proven by its owner:
            // drop it, so that whoever pre-registered the address cannot sign in later.
            const [updated] = await tx
              .update(users)
              .set(
                existing.emailVerifiedAt
                  ? { updatedAt: now }
                  : { emailVerifiedAt: now, passwordHash: null, updatedAt: now },
              )
              .where(eq(users.id, existing.id))
              .returning();
            user = updated ?? existing;
          } else {
            const [created] = await tx
              .insert(users)
              .values({ email, emailVerifiedAt: now, createdAt: now, updatedAt: now })
              .returning();
            if (!created) throw new Fault('UserSaveFailure');
            user = created;
          }
          await tx.insert(socialAccounts).values({
            userId: user.id,
            provider: identity.provider,
            subject: identity.subject,
            email,
            createdAt: now,
          });
        }
        // A link made here stays made; the sign-in itself waits for the second factor.
        const challenge = await this.secondFactorChallenge(tx, user.id, keepMeSignedIn);
        if (challenge) return { challenge };
        const session = await this.deps.sessions.issue(tx, user.id, keepMeSignedIn, meta);
        return { session, user: toUser(user) };
      });
    let outcome: Awaited<ReturnType<typeof run>>;
    try {
      outcome = await run();
    } catch (error) {
      // Two first sign-ins of the same identity at once: the loser finds the winner's link.
      if (!isUniqueViolation(error)) throw error;
      outcome = await run();
    }
    if ('challenge' in outcome) throw new Fault('SecondFactorRequired', { Challenge: outcome.challenge ?? '' });
    return outcome;
  }

  // ── New-device alerts (ADR 0041) ────────────────────────────────────────

  /**
   * Mails the customer when a sign-in came from a browser or app the account had not seen,
   * with a single-use "This wasn't me" link. Called once the sign-in's answer is out; the first
   * device an account ever signs in from is recorded without a mail (nothing to compare with),
   * and of parallel sign-ins from one new device only one finds it new (ASVS 6.3.5).
   */
  announceNewDevice(signedIn: SignedIn): void {
    const device = signedIn.session.device;
    if (!device?.isNew || !device.accountHadDevices) return;
    const work = this.alerts
      .run(() => this.sendNewDeviceMail(signedIn.user, device))
      .then((ran) => {
        if (!ran) this.deps.log.error({ userId: signedIn.user.Id }, 'new-device mail dropped: too many waiting');
      })
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'new-device mail failed'))
      .finally(() => this.afterAnswer.delete(work));
    this.afterAnswer.add(work);
  }

  private async sendNewDeviceMail(user: User, device: DeviceSignIn): Promise<void> {
    // Counted as every mail to the mailbox is (ADR 0031): a thief signing in from fresh browsers
    // again and again sends the customer a few alerts an hour, not a flood.
    try {
      await this.deps.abuse.mailTo(user.Email);
    } catch (error) {
      if (!(error instanceof Fault && error.faultName === 'AttemptOverLimitMailbox')) throw error;
      this.deps.log.error({ userId: user.Id }, 'new-device mail not sent: the mailbox allowance is used up');
      return;
    }
    const token = await this.deps.tokens.create(
      this.deps.db,
      'sign_in_report',
      user.Id,
      SIGN_IN_REPORT_LINK_VALIDITY_HOURS * 60,
      { seenDeviceId: device.seenDeviceId },
    );
    await this.deps.mailer.send(
      newDeviceSignInMail({
        to: user.Email,
        link: this.link('report-sign-in', token),
        at: device.at,
        device: device.label,
        ip: device.ip,
      }),
      { userId: user.Id },
    );
  }

  /**
   * "This wasn't me" from a new-device mail (ADR 0041): the link's token, then secureAccount;
   * the reported device is forgotten (its next sign-in alerts again).
   */
  async reportSignIn(token: string): Promise<{ frozenUntil: Date }> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const frozenUntil = addHours(now, ACCOUNT_FREEZE_HOURS);
    const email = await db.transaction(async (tx) => {
      const row = await this.deps.tokens.consume(tx, 'sign_in_report', token, SIGN_IN_REPORT_FAULTS);
      if (!row.userId) throw new Fault('ActionTokenNotFound');
      const userEmail = await this.secureAccount(tx, row.userId, now, frozenUntil);
      if (row.seenDeviceId) {
        await tx
          .delete(seenDevices)
          .where(and(eq(seenDevices.id, row.seenDeviceId), eq(seenDevices.userId, row.userId)));
      }
      await recordAccountEvent(tx, { userId: row.userId, at: now, kind: 'not_me_reported' });
      return userEmail;
    });
    await this.sendPasswordReset(email);
    return { frozenUntil };
  }

  /**
   * "This wasn't me" on an entry of My activity (docs/decisions/0055-my-activity.md): the
   * signed-in customer's own entry of a disputable kind, reported once (the unique index on
   * reported_event_id); then secureAccount and the reset mail, as for a new-device mail. No
   * step-up (the customer may be a thief's victim), but NOT_ME_REPORTS_PER_HOUR. Reporting an
   * entry already reported changes nothing and answers the freeze in force.
   */
  async reportNotMe(userId: string, eventId: number): Promise<{ frozenUntil: Date }> {
    const { db, clock } = this.deps;
    if (!(await this.deps.limiter.take(NOT_ME_LIMIT, userId))) throw new Fault('AttemptOverLimitNotMe');
    const now = clock.now();
    const frozenUntil = addHours(now, ACCOUNT_FREEZE_HOURS);
    let email: string;
    try {
      email = await db.transaction(async (tx) => {
        const [entry] = await tx
          .select({ kind: accountEvents.kind, detail: accountEvents.detail })
          .from(accountEvents)
          .where(and(eq(accountEvents.id, eventId), eq(accountEvents.userId, userId)));
        if (!entry) throw new Fault('ActivityEntryNotFound');
        if (!isDisputable(entry.kind, entry.detail)) throw new Fault('ActivityEntryNotDisputable');
        const [earlier] = await tx
          .select({ id: accountEvents.id })
          .from(accountEvents)
          .where(eq(accountEvents.reportedEventId, eventId));
        if (earlier) throw new AlreadyReported();
        const userEmail = await this.secureAccount(tx, userId, now, frozenUntil);
        // Last, so that it heads the timeline; a report racing this one meets the unique index.
        await recordAccountEvent(tx, { userId, at: now, kind: 'not_me_reported', reportedEventId: eventId });
        return userEmail;
      });
    } catch (error) {
      if (!(error instanceof AlreadyReported || isUniqueViolation(error))) throw error;
      const [user] = await db
        .select({ until: users.licenceTransfersFrozenUntil })
        .from(users)
        .where(eq(users.id, userId));
      return { frozenUntil: user?.until ?? now };
    }
    await this.sendPasswordReset(email);
    return { frozenUntil };
  }

  /**
   * What every "This wasn't me" does, in the caller's transaction (ADR 0041, 0055): every session
   * ends (ASVS 7.4.1), the password stops working, the one-time codes that would make a session
   * are retired, the offers to pass a licence on that are waiting are cancelled, and e-mail
   * changes and licence transfers are frozen until `frozenUntil`. Answers the account's address.
   */
  private async secureAccount(tx: Transaction, userId: string, now: Date, frozenUntil: Date): Promise<string> {
    const [user] = await tx
      .update(users)
      .set({
        passwordHash: null,
        emailChangeFrozenUntil: frozenUntil,
        licenceTransfersFrozenUntil: frozenUntil,
        updatedAt: now,
      })
      .where(eq(users.id, userId))
      .returning({ id: users.id, email: users.email });
    if (!user) throw new Fault('ActionTokenNotFound');
    await this.deps.sessions.revokeAllOf(tx, user.id);
    await this.deps.tokens.retireUnused(tx, ['app_login', 'web_login'], user.id);
    await tx
      .update(licenceTransfers)
      .set({ state: 'cancelled', resolvedAt: now })
      .where(and(eq(licenceTransfers.fromUserId, user.id), eq(licenceTransfers.state, 'pending')));
    return user.email;
  }

  /** ChangeEmail and VerifyEmailChange wait out a sign-in report's freeze (ADR 0041). */
  assertEmailChangeOpen(user: Pick<UserRow, 'emailChangeFrozenUntil'>): void {
    if (user.emailChangeFrozenUntil && user.emailChangeFrozenUntil > this.deps.clock.now()) {
      throw new Fault('EmailChangeFrozen');
    }
  }

  // ── Desktop-app sign-in through a deeplink ──────────────────────────────

  async createAppLoginDeeplink(userId: string): Promise<string> {
    const token = await this.deps.tokens.create(this.deps.db, 'app_login', userId, APP_LOGIN_TOKEN_VALIDITY_MINUTES);
    return `${this.deps.appLoginScheme}://login?token=${token}`;
  }

  async exchangeAppLoginToken(token: string, meta: ClientMeta): Promise<SignedIn> {
    return this.deps.db.transaction(async (tx) => {
      const row = await this.deps.tokens.consume(tx, 'app_login', token, APP_LOGIN_FAULTS);
      const user = row.userId ? await findUserById(tx, row.userId) : undefined;
      if (!user) throw new Fault('UserNotFound');
      // Handed over from the browser's session: no proof of presence here (ADR 0040).
      const session = await this.deps.sessions.issue(tx, user.id, true, { ...meta, proven: false });
      return { session, user: toUser(user) };
    });
  }

  // ── A desktop app opening the portal signed in (ADR 0029) ───────────────

  /**
   * A one-time code for a portal link, bound to the app's customer: random (256 bits), stored
   * as a hash, single-use and valid for 2 minutes. `path` is a page of this site (the contracts'
   * portalPathSchema); the link carries the code as the spec's query token.
   */
  async createWebLoginCode(userId: string, path = '/'): Promise<WebLoginCodeResult> {
    const { db, clock, publicUrl } = this.deps;
    const code = await this.deps.tokens.create(db, 'web_login', userId, WEB_LOGIN_CODE_VALIDITY_MINUTES);
    return {
      Code: code,
      Url: `${publicUrl}${path}?token=${code}`,
      ExpiresAt: clock.now().getTime() + WEB_LOGIN_CODE_VALIDITY_MINUTES * 60_000,
    };
  }

  /**
   * Uses a portal link's code. Only a code made by CreateWebLoginCode counts: a session token
   * or anything else is not found (ASVS 7.2.4: a session is always issued here, never taken
   * over). With another customer signed in here, nothing changes (the code stays unused) until
   * the customer confirms the switch (ASVS 7.6.2); the link's own customer keeps the session.
   */
  async exchangeWebLoginCode(
    code: string,
    current: CurrentSession | undefined,
    confirmSwitch: boolean,
    meta: ClientMeta,
  ): Promise<WebLoginExchange> {
    return this.deps.db.transaction(async (tx) => {
      const row = await this.deps.tokens.consume(tx, 'web_login', code, WEB_LOGIN_FAULTS);
      const user = row.userId ? await findUserById(tx, row.userId) : undefined;
      if (!user) throw new Fault('WebLoginCodeInvalid');
      if (current?.userId === user.id) return { user: toUser(user) };
      if (current && !confirmSwitch) {
        // Thrown inside the transaction: the code's use is rolled back, the question can be answered.
        throw new Fault('WebLoginSwitchUnconfirmed', {
          [WEB_LOGIN_SWITCH_VARIABLES.current]: current.email,
          [WEB_LOGIN_SWITCH_VARIABLES.link]: user.email,
        });
      }
      // Handed over from the app's session: no proof of presence in this browser (ADR 0040).
      const session = await this.deps.sessions.issue(tx, user.id, false, { ...meta, proven: false });
      return { user: toUser(user), session };
    });
  }

  // ── Password reset and change ───────────────────────────────────────────

  /**
   * Counts a reset mail against the address's mailbox, whether or not the address has an
   * account (ADR 0031): the refusal is the mailbox's, the same for every address, and costs the
   * same one upsert, so it tells nothing about which addresses exist (ASVS 6.3.8).
   */
  async countPasswordResetMail(email: string): Promise<void> {
    await this.deps.abuse.mailTo(email);
  }

  /**
   * Mails a reset link if the address has an account (counted by countPasswordResetMail before
   * the answer). Returns at once: the caller answers the same whether or not the address
   * exists, and as fast, so the lookup, the link and the mail (an SMTP round trip in
   * production) run in the background (ASVS 6.3.8).
   */
  initiatePasswordReset(email: string): void {
    const work = this.resets
      .run(() => this.sendPasswordReset(email))
      .catch((error: unknown) => this.deps.log.error({ err: error }, 'password reset mail failed'))
      .finally(() => this.afterAnswer.delete(work));
    this.afterAnswer.add(work);
  }

  private async sendPasswordReset(email: string): Promise<void> {
    const user = await findUserByEmail(this.deps.db, email);
    if (!user) return;
    const token = await this.deps.db.transaction(async (tx) => {
      await this.deps.tokens.retireUnused(tx, 'password_reset', user.id);
      return this.deps.tokens.create(tx, 'password_reset', user.id, PASSWORD_RESET_LINK_VALIDITY_HOURS * 60);
    });
    await this.deps.mailer.send(
      passwordResetMail({
        to: user.email,
        link: this.link('reset-password', token),
        validHours: PASSWORD_RESET_LINK_VALIDITY_HOURS,
      }),
      { userId: user.id },
    );
  }

  /** Sets the new password, proves the address, lifts a sign-in lockout and ends every session. */
  async resetPassword(token: string, password: string): Promise<void> {
    await assertPasswordAcceptable(password, this.deps.breachedPasswords);
    const passwordHash = await this.deps.hashing.hash(password);
    const { db, clock } = this.deps;
    const email = await db.transaction(async (tx) => {
      const row = await this.deps.tokens.consume(tx, 'password_reset', token, RESET_FAULTS);
      const user = row.userId ? await findUserById(tx, row.userId) : undefined;
      if (!user) throw new Fault('UserNotFound');
      const now = clock.now();
      await tx
        .update(users)
        .set({ passwordHash, emailVerifiedAt: user.emailVerifiedAt ?? now, updatedAt: now })
        .where(eq(users.id, user.id));
      await this.deps.sessions.revokeAllOf(tx, user.id);
      return user.email;
    });
    await this.deps.limiter.reset(LOGIN_LIMIT, email);
  }

  /**
   * Changes the password, or sets a first one for an account made through a social provider
   * (old password empty). The other sessions end; this one stays.
   */
  async changePassword(userId: string, sessionId: string, oldPassword: string, newPassword: string): Promise<void> {
    const { db, clock } = this.deps;
    const user = await findUserById(db, userId);
    if (!user) throw new Fault('UserAuthenticationFailed');
    if (user.passwordHash) {
      // The old password is checked under the sign-in lockout: a stolen session cannot guess it.
      if (!oldPassword || !(await this.checkPasswordOf(user, oldPassword))) {
        throw new Fault('UserPasswordChangeOldPasswordInvalid');
      }
    } else if (oldPassword) {
      throw new Fault('UserPasswordChangeOldPasswordInvalid');
    }
    await assertPasswordAcceptable(newPassword, this.deps.breachedPasswords);
    const passwordHash = await this.deps.hashing.hash(newPassword);
    await db.transaction(async (tx) => {
      await tx.update(users).set({ passwordHash, updatedAt: clock.now() }).where(eq(users.id, userId));
      await this.deps.sessions.revokeAllOf(tx, userId, sessionId);
    });
  }

  /**
   * Signs out every other browser and app after a fresh authentication (ASVS 7.5.2): with
   * `password`, that password under the sign-in lockout, so that this call cannot be used to
   * guess it; without, the caller has required a step-up (ADR 0040, routes.ts).
   */
  async endOtherSessions(userId: string, sessionId: string, password: string | undefined): Promise<void> {
    const { db } = this.deps;
    if (password !== undefined) {
      const user = await findUserById(db, userId);
      if (!user) throw new Fault('UserAuthenticationFailed');
      if (!user.passwordHash || !(await this.checkPasswordOf(user, password))) {
        throw new Fault('ReauthenticationPasswordInvalid');
      }
    }
    await this.deps.sessions.revokeAllOf(db, userId, sessionId);
  }

  // ── Profile ─────────────────────────────────────────────────────────────

  async updateAddress(userId: string, address: Address): Promise<User> {
    const [row] = await this.deps.db
      .update(users)
      .set({
        addressLine1: address.addressLine1,
        city: address.city,
        state: address.state,
        postalCode: address.postalCode,
        country: address.country,
        updatedAt: this.deps.clock.now(),
      })
      .where(eq(users.id, userId))
      .returning();
    if (!row) throw new Fault('UserAuthenticationFailed');
    return toUser(row);
  }

  // ── E-mail change ───────────────────────────────────────────────────────

  /** Sends a confirmation link to the new address; the change happens when it is opened. */
  async requestEmailChange(userId: string, newEmail: string): Promise<void> {
    const { db, limiter } = this.deps;
    const email = normalizeEmail(newEmail);
    const user = await findUserById(db, userId);
    if (!user) throw new Fault('UserAuthenticationFailed');
    this.assertEmailChangeOpen(user);
    if (await limiter.isLocked(EMAIL_CHANGE_LIMIT, userId)) throw new Fault('AttemptOverLimitChangeEmail');
    await limiter.record(EMAIL_CHANGE_LIMIT, userId);
    if (user.email === email) throw new Fault('UserEmailUnchanged');
    if (await findUserByEmail(db, email)) throw new Fault('EmailChangeEmailAlreadyUsedByAnotherUser');
    await this.deps.abuse.mailTo(email);
    const token = await db.transaction(async (tx) => {
      await this.deps.tokens.retireUnused(tx, 'email_change', userId);
      return this.deps.tokens.create(tx, 'email_change', userId, EMAIL_CHANGE_LINK_VALIDITY_HOURS * 60, {
        newEmail: email,
      });
    });
    await this.deps.mailer.send(
      emailChangeMail({
        to: email,
        link: this.link('verify-email-change', token),
        validHours: EMAIL_CHANGE_LINK_VALIDITY_HOURS,
      }),
      { userId },
    );
  }

  async confirmEmailChange(token: string): Promise<User> {
    const { db, clock } = this.deps;
    try {
      return await db.transaction(async (tx) => {
        const row = await this.deps.tokens.consume(tx, 'email_change', token, EMAIL_CHANGE_FAULTS);
        if (!row.userId || !row.newEmail) throw new Fault('EmailChangeValidationTokenNotFound');
        const [taken] = await tx
          .select({ id: users.id })
          .from(users)
          .where(and(eq(users.email, row.newEmail), ne(users.id, row.userId)))
          .limit(1);
        if (taken) throw new Fault('EmailChangeEmailAlreadyUsedByAnotherUser');
        const now = clock.now();
        // Refused while a sign-in report's freeze lasts: thrown inside the transaction, the link
        // stays unused, and it expires no later than the freeze ends (ADR 0041).
        const [updated] = await tx
          .update(users)
          .set({ email: row.newEmail, emailVerifiedAt: now, updatedAt: now })
          .where(
            and(
              eq(users.id, row.userId),
              or(isNull(users.emailChangeFrozenUntil), lte(users.emailChangeFrozenUntil, now)),
            ),
          )
          .returning();
        if (!updated) {
          const user = await findUserById(tx, row.userId);
          if (user) this.assertEmailChangeOpen(user);
          throw new Fault('UserNotFound');
        }
        return toUser(updated);
      });
    } catch (error) {
      if (isUniqueViolation(error)) throw new Fault('EmailChangeEmailAlreadyUsedByAnotherUser');
      throw error;
    }
  }

  // ── Deletion ────────────────────────────────────────────────────────────

  async requestDeletion(userId: string): Promise<void> {
    const user = await findUserById(this.deps.db, userId);
    if (!user) throw new Fault('UserAuthenticationFailed');
    await this.deps.abuse.mailTo(user.email);
    const token = await this.deps.db.transaction(async (tx) => {
      await this.deps.tokens.retireUnused(tx, 'account_deletion', userId);
      return this.deps.tokens.create(tx, 'account_deletion', userId, ACCOUNT_DELETION_LINK_VALIDITY_HOURS * 60);
    });
    await this.deps.mailer.send(
      accountDeletionConfirmMail({
        to: user.email,
        link: this.link('delete-account', token),
        validHours: ACCOUNT_DELETION_LINK_VALIDITY_HOURS,
      }),
      { userId },
    );
  }

  /** Deletes the account and everything that cascades from it; the used link stays on record. */
  async confirmDeletion(token: string): Promise<void> {
    const deleted = await this.deps.db.transaction(async (tx) => {
      const row = await this.deps.tokens.consume(tx, 'account_deletion', token, DELETION_FAULTS);
      const user = row.userId ? await findUserById(tx, row.userId) : undefined;
      if (!user) throw new Fault('AccountDeletionTokenAlreadyUsed');
      await tx.delete(actionTokens).where(and(eq(actionTokens.userId, user.id), ne(actionTokens.id, row.id)));
      await this.deps.beforeDelete(tx, user.id, this.deps.clock.now());
      await tx.delete(users).where(eq(users.id, user.id));
      return user;
    });
    // Kept with the id of the account it was about, so that an account made later with the same
    // address does not find it in its data export (ADR 0038).
    await this.deps.mailer.send(accountDeletedMail({ to: deleted.email }), { userId: deleted.id });
  }
}

/** A report of an entry already reported: the transaction is undone and the call answers as before. */
class AlreadyReported extends Error {}
