import {
  STEP_UP_CODE_ATTEMPTS,
  STEP_UP_CODE_DIGITS,
  STEP_UP_CODE_MINUTES,
  STEP_UP_METHOD_UNAVAILABLE,
  STEP_UP_WINDOW_MINUTES,
  type StepUpMethod,
  type StepUpProof,
} from '@soundid/contracts';
import { and, eq, gt, lt, sql } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { sessions } from '../../db/schema';
import { stepUpCodes } from '../../db/second-factor-schema';
import { addMinutes, type Clock, type Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { hashToken } from '../../lib/secrets';
import type { Mailer } from '../mail/mailer';
import type { AbuseLimits } from './abuse-limits';
import { stepUpCodeMail } from './mails';
import type { PasskeyService } from './passkeys';
import type { SecondFactorService } from './second-factor';
import type { UserRow } from './users-repo';

/** A proof of a kind this account does not have: bad input, with the reason (ADR 0040). */
const unavailable = () => new Fault('RequestInvalid', {}, STEP_UP_METHOD_UNAVAILABLE);

/** The signed-in request a step-up is about: its session and its customer. */
export interface StepUpSubject {
  sessionId: string;
  user: UserRow;
}

export interface StepUpDeps {
  db: Database;
  clock: Clock;
  random: Random;
  mailer: Mailer;
  abuse: AbuseLimits;
  secondFactor: SecondFactorService;
  passkeys: PasskeyService;
  /** The password check under the sign-in lockout (AccountService). */
  passwords: { confirmPassword(user: UserRow, password: string): Promise<boolean> };
}

/**
 * Step-up (ADR 0040, ASVS 6.1.1/7.5.1): what matters needs a proof of presence in this session
 * no older than STEP_UP_WINDOW_MINUTES. The proof's time is kept on the session row: a sign-in
 * with a credential sets it, a StepUp call renews it, a session handed over by a link has none.
 * Every proof goes through the checks its sign-in counterpart has: the password and TOTP codes
 * under the sign-in lockout, a passkey's assertion bound to this account, a mailed code
 * single-use and burnt after STEP_UP_CODE_ATTEMPTS wrong tries.
 */
export class StepUpService {
  constructor(private readonly deps: StepUpDeps) {}

  /** The ways this account can prove presence, in the order the SPA offers them. */
  async methods(user: UserRow): Promise<StepUpMethod[]> {
    const [totp, passkey] = await Promise.all([
      this.deps.secondFactor.required(this.deps.db, user.id),
      this.deps.passkeys.has(user.id),
    ]);
    const methods: StepUpMethod[] = [];
    if (user.passwordHash) methods.push('Password');
    if (totp) methods.push('Totp');
    if (passkey) methods.push('Passkey');
    // A mailed code only where there is no password: it would otherwise be the weaker way in.
    if (!user.passwordHash) methods.push('EmailCode');
    return methods;
  }

  /** Until when the session's last proof holds, or null when it holds no longer (or never did). */
  async provenUntil(sessionId: string): Promise<Date | null> {
    const [row] = await this.deps.db
      .select({ provenAt: sessions.provenAt })
      .from(sessions)
      .where(eq(sessions.id, sessionId))
      .limit(1);
    if (!row?.provenAt) return null;
    const until = addMinutes(row.provenAt, STEP_UP_WINDOW_MINUTES);
    return until > this.deps.clock.now() ? until : null;
  }

  /** Throws StepUpRequired (with the account's Methods) unless the session proved presence lately. */
  async require(subject: StepUpSubject): Promise<void> {
    if (await this.provenUntil(subject.sessionId)) return;
    throw new Fault('StepUpRequired', { Methods: (await this.methods(subject.user)).join(',') });
  }

  async beginPasskey(subject: StepUpSubject): Promise<{ ChallengeId: string; Options: Record<string, unknown> }> {
    return this.deps.passkeys.beginStepUp(subject.user.id);
  }

  /**
   * Mails a code for this session to an account without a password. A new code replaces the
   * session's earlier one; the mail counts toward the mailbox's allowance (ADR 0031).
   */
  async sendCode(subject: StepUpSubject): Promise<void> {
    const { db, clock, abuse, mailer } = this.deps;
    if (subject.user.passwordHash) throw unavailable();
    await abuse.mailTo(subject.user.email);
    const code = this.newCode();
    const now = clock.now();
    const values = {
      sessionId: subject.sessionId,
      userId: subject.user.id,
      codeHash: this.codeHash(subject.sessionId, code),
      createdAt: now,
      expiresAt: addMinutes(now, STEP_UP_CODE_MINUTES),
      attempts: 0,
    };
    await db
      .insert(stepUpCodes)
      .values(values)
      .onConflictDoUpdate({
        target: stepUpCodes.sessionId,
        set: { codeHash: values.codeHash, createdAt: now, expiresAt: values.expiresAt, attempts: 0 },
      });
    await mailer.send(stepUpCodeMail({ to: subject.user.email, code, minutes: STEP_UP_CODE_MINUTES }), {
      userId: subject.user.id,
    });
  }

  /** Checks one proof; on success the session counts as proven for the window. */
  async prove(subject: StepUpSubject, proof: StepUpProof): Promise<Date> {
    const { user } = subject;
    switch (proof.method) {
      case 'Password':
        if (!user.passwordHash) throw unavailable();
        if (!(await this.deps.passwords.confirmPassword(user, proof.password))) throw new Fault('StepUpProofInvalid');
        break;
      case 'Totp':
        try {
          await this.deps.secondFactor.proveForStepUp(user.id, user.email, proof.code);
        } catch (error) {
          if (error instanceof Fault && error.faultName === 'TotpNotEnabled') throw unavailable();
          throw error;
        }
        break;
      case 'Passkey': {
        const outcome = await this.deps.passkeys.finishLogin(proof.challengeId, proof.response);
        if (outcome.userId !== user.id) throw new Fault('PasskeyInvalid');
        break;
      }
      case 'EmailCode':
        if (user.passwordHash) throw unavailable();
        await this.useCode(subject.sessionId, proof.code);
        break;
    }
    const now = this.deps.clock.now();
    await this.deps.db.update(sessions).set({ provenAt: now }).where(eq(sessions.id, subject.sessionId));
    return addMinutes(now, STEP_UP_WINDOW_MINUTES);
  }

  /**
   * A try counts before the code is compared, in one statement: parallel guesses cannot get
   * more than STEP_UP_CODE_ATTEMPTS tries out of one code. The right code is then used up.
   */
  private async useCode(sessionId: string, code: string): Promise<void> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const [tried] = await db
      .update(stepUpCodes)
      .set({ attempts: sql`${stepUpCodes.attempts} + 1` })
      .where(
        and(
          eq(stepUpCodes.sessionId, sessionId),
          gt(stepUpCodes.expiresAt, now),
          lt(stepUpCodes.attempts, STEP_UP_CODE_ATTEMPTS),
        ),
      )
      .returning({ codeHash: stepUpCodes.codeHash });
    if (!tried) throw new Fault('StepUpCodeExpired');
    if (tried.codeHash !== this.codeHash(sessionId, code)) throw new Fault('StepUpProofInvalid');
    const used = await db
      .delete(stepUpCodes)
      .where(and(eq(stepUpCodes.sessionId, sessionId), eq(stepUpCodes.codeHash, tried.codeHash)))
      .returning({ sessionId: stepUpCodes.sessionId });
    // Two parallel tries of the right code: the one that deleted it proves presence.
    if (used.length === 0) throw new Fault('StepUpCodeExpired');
  }

  /** Bound to its session: a code read from the mail works only in the browser that asked for it. */
  private codeHash(sessionId: string, code: string): string {
    return hashToken(`${sessionId}:${code}`);
  }

  /** Six decimal digits, uniformly (rejection sampling: no modulo bias). */
  private newCode(): string {
    const limit = 10 ** STEP_UP_CODE_DIGITS;
    const ceiling = Math.floor(0x1_0000_0000 / limit) * limit;
    let n = this.deps.random.bytes(4).readUInt32BE(0);
    // A draw above the ceiling is drawn again (once in ~4,300 draws); a fixed test source stops.
    for (let i = 0; n >= ceiling && i < 16; i++) n = this.deps.random.bytes(4).readUInt32BE(0);
    return String(n % limit).padStart(STEP_UP_CODE_DIGITS, '0');
  }
}
