import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import {
  PASSKEY_CHALLENGE_MINUTES,
  PASSKEY_MAX_PER_ACCOUNT,
  PASSKEY_NAME_MAX_LENGTH,
  type Passkey,
  type passkeyAuthenticationResponseSchema,
  type passkeyRegistrationResponseSchema,
} from '@soundid/contracts';
import { and, count, desc, eq, gt, isNull, lt } from 'drizzle-orm';
import type { z } from 'zod';
import type { Database } from '../../db/client';
import { users } from '../../db/schema';
import { passkeyChallenges, passkeys, signInChallenges } from '../../db/second-factor-schema';
import { addMinutes, type Clock, type Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { hashToken } from '../../lib/secrets';
import { recordAccountEvent } from '../activity/events';
import type { Mailer } from '../mail/mailer';
import { passkeyAddedMail } from './mails';
import { operatingSystemOf } from './user-agent';

type RegistrationResponse = z.infer<typeof passkeyRegistrationResponseSchema>;
type AuthenticationResponse = z.infer<typeof passkeyAuthenticationResponseSchema>;
type PasskeyRow = typeof passkeys.$inferSelect;

export interface PasskeyDeps {
  db: Database;
  clock: Clock;
  random: Random;
  /** The relying party: PUBLIC_URL's host name (RP ID) and origin, the only origin accepted. */
  rpId: string;
  origin: string;
  rpName: string;
  /** Where a refused assertion is noted (a cloned authenticator's counter going backwards). */
  log?: { warn(details: object, message: string): void };
  /** Tells the customer when a passkey is added (a thief's passkey would outlive a password change). */
  mailer: Mailer;
}

/**
 * ES256 and RS256 (Windows Hello), and EdDSA: the algorithms authenticators use, verified by
 * @simplewebauthn/server.
 */
const ALGORITHMS = [-8, -7, -257];
/** WebAuthn's own timeout for the browser prompt; the stored challenge lives PASSKEY_CHALLENGE_MINUTES. */
const CEREMONY_TIMEOUT_MS = 120_000;

/**
 * Names for the authenticators most customers have, by AAGUID (the passkey providers' published
 * identifiers); anything else is named after the browser's platform.
 */
const KNOWN_AUTHENTICATORS: Record<string, string> = {
  'fbfc3007-154e-4ecc-8c0b-6e020557d7bd': 'iCloud Keychain',
  'dd4ec289-e01d-41c9-bb89-70fa845d4bf2': 'iCloud Keychain',
  'ea9b8d66-4d01-1d21-3ce4-b6b48cb575d4': 'Google Password Manager',
  'adce0002-35bc-c60a-648b-0b25f1f05503': 'Chrome on Mac',
  '08987058-cadc-4b81-b6e1-30de50dcbe96': 'Windows Hello',
  '9ddd1817-af5a-4672-a2b9-3e3dd95000a9': 'Windows Hello',
  '6028b017-b1d4-4c02-b4b3-afcdafc96bb2': 'Windows Hello',
  'bada5566-a7aa-401f-bd96-45619a55120d': '1Password',
  'd548826e-79b4-db40-a3d8-11116f7e8349': 'Bitwarden',
  '531126d6-e717-415c-9320-3d9aa6981239': 'Dashlane',
  '53414d53-554e-4700-0000-000000000000': 'Samsung Pass',
};

/** How a passkey made on a platform is named: "Passkey on Mac" (operatingSystemOf's names, read for people). */
const PLATFORM_NAMES: Record<string, string> = { iOS: 'iPhone or iPad', macOS: 'Mac' };

function platformName(userAgent: string | undefined): string {
  const os = operatingSystemOf(userAgent ?? '');
  return os ? `Passkey on ${PLATFORM_NAMES[os] ?? os}` : 'Passkey';
}

export function defaultPasskeyName(aaguid: string, userAgent: string | undefined): string {
  return (KNOWN_AUTHENTICATORS[aaguid] ?? platformName(userAgent)).slice(0, PASSKEY_NAME_MAX_LENGTH);
}

/** The user handle the authenticator stores: the account's random id, nothing personal. */
const userHandle = (userId: string) => Buffer.from(userId, 'utf8').toString('base64url');

const toPasskey = (row: PasskeyRow): Passkey => ({
  Id: row.id,
  Name: row.name,
  CreatedAt: row.createdAt.toISOString(),
  LastUsedAt: row.lastUsedAt?.toISOString() ?? null,
  BackedUp: row.backedUp,
});

/** The challenge a browser's answer carries in its clientDataJSON (undefined when unreadable). */
function challengeOf(clientDataJSON: string): string | undefined {
  try {
    const data = JSON.parse(Buffer.from(clientDataJSON, 'base64url').toString('utf8')) as { challenge?: unknown };
    return typeof data.challenge === 'string' ? data.challenge : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Passkeys (WebAuthn, ADR 0039) with @simplewebauthn/server: discoverable credentials with user
 * verification required, so that one passkey is both factors. Every ceremony's challenge is
 * stored as its SHA-256, used once and lives PASSKEY_CHALLENGE_MINUTES; the signature counter is
 * moved by the statement that accepts an assertion, and an assertion whose counter does not move
 * forward (a cloned authenticator, a replay) is refused.
 */
export class PasskeyService {
  constructor(private readonly deps: PasskeyDeps) {}

  async list(userId: string): Promise<Passkey[]> {
    const rows = await this.deps.db
      .select()
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(desc(passkeys.createdAt), desc(passkeys.id));
    return rows.map(toPasskey);
  }

  /** True when the account has a passkey (the second-factor step offers "Use a passkey"). */
  async has(userId: string): Promise<boolean> {
    const [row] = await this.deps.db
      .select({ id: passkeys.id })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .limit(1);
    return row !== undefined;
  }

  async beginRegistration(userId: string, email: string): Promise<Record<string, unknown>> {
    const existing = await this.deps.db
      .select({ credentialId: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
    if (existing.length >= PASSKEY_MAX_PER_ACCOUNT) throw new Fault('PasskeyLimitReached');
    const options = await generateRegistrationOptions({
      rpName: this.deps.rpName,
      rpID: this.deps.rpId,
      userName: email,
      userDisplayName: email,
      userID: new Uint8Array(Buffer.from(userId, 'utf8')),
      challenge: new Uint8Array(this.deps.random.bytes(32)),
      timeout: CEREMONY_TIMEOUT_MS,
      attestationType: 'none',
      // The same authenticator twice would be one factor shown as two.
      excludeCredentials: existing.map((row) => ({ id: row.credentialId, transports: row.transports })),
      authenticatorSelection: { residentKey: 'required', requireResidentKey: true, userVerification: 'required' },
      supportedAlgorithmIDs: ALGORITHMS,
    });
    await this.storeChallenge(options.challenge, 'register', userId, null);
    return options as unknown as Record<string, unknown>;
  }

  async finishRegistration(
    userId: string,
    response: RegistrationResponse,
    name: string | undefined,
    userAgent: string | undefined,
  ): Promise<Passkey> {
    const challenge = challengeOf(response.response.clientDataJSON);
    if (!challenge) throw new Fault('PasskeyInvalid');
    await this.useChallenge({ challengeHash: hashToken(challenge), purpose: 'register', userId });
    let info: Awaited<ReturnType<typeof verifyRegistrationResponse>>['registrationInfo'];
    try {
      const verified = await verifyRegistrationResponse({
        response: response as RegistrationResponseJSON,
        expectedChallenge: challenge,
        expectedOrigin: this.deps.origin,
        expectedRPID: this.deps.rpId,
        requireUserPresence: true,
        requireUserVerification: true,
        supportedAlgorithmIDs: ALGORITHMS,
      });
      info = verified.verified ? verified.registrationInfo : undefined;
    } catch {
      info = undefined;
    }
    if (!info) throw new Fault('PasskeyInvalid');
    const { credential } = info;
    const added = await this.deps.db.transaction(async (tx) => {
      // The account's row is locked first: parallel registrations count one after the other, so
      // the limit holds (a count alone lets each of them see the last free place).
      const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId)).for('update');
      if (!owner) throw new Fault('UserAuthenticationFailed');
      const [held] = await tx.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
      if ((held?.n ?? 0) >= PASSKEY_MAX_PER_ACCOUNT) throw new Fault('PasskeyLimitReached');
      const [row] = await tx
        .insert(passkeys)
        .values({
          userId,
          credentialId: credential.id,
          publicKey: Buffer.from(credential.publicKey).toString('base64url'),
          counter: credential.counter,
          transports: (credential.transports ?? response.response.transports ?? []).slice(0, 10),
          aaguid: info.aaguid,
          deviceType: info.credentialDeviceType,
          backedUp: info.credentialBackedUp,
          name: name ?? defaultPasskeyName(info.aaguid, userAgent),
          createdAt: this.deps.clock.now(),
        })
        .onConflictDoNothing({ target: passkeys.credentialId })
        .returning();
      if (!row) throw new Fault('PasskeyAlreadyRegistered');
      return { passkey: toPasskey(row), email: owner.email, at: row.createdAt };
    });
    await this.deps.mailer.send(passkeyAddedMail({ to: added.email, name: added.passkey.Name, at: added.at }), {
      userId,
    });
    return added.passkey;
  }

  async rename(userId: string, id: string, name: string): Promise<Passkey> {
    const [row] = await this.deps.db
      .update(passkeys)
      .set({ name })
      .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
      .returning();
    if (!row) throw new Fault('PasskeyNotFound');
    return toPasskey(row);
  }

  /** Only the customer's own passkey goes; another's answers PasskeyNotFound, as a missing one does. */
  async remove(userId: string, id: string): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const [removed] = await tx
        .delete(passkeys)
        .where(and(eq(passkeys.id, id), eq(passkeys.userId, userId)))
        .returning({ name: passkeys.name });
      if (!removed) throw new Fault('PasskeyNotFound');
      await recordAccountEvent(tx, {
        userId,
        at: this.deps.clock.now(),
        kind: 'passkey_removed',
        detail: removed.name,
      });
    });
  }

  /**
   * Options for a sign-in. Anonymous, any discoverable passkey of this site may answer; with the
   * challenge of a sign-in waiting for its second factor, only that account's passkeys.
   */
  async beginLogin(
    signInChallenge: string | undefined,
  ): Promise<{ ChallengeId: string; Options: Record<string, unknown> }> {
    let bound: { userId: string; signInChallengeId: string } | undefined;
    let allowCredentials: { id: string; transports: string[] }[] | undefined;
    if (signInChallenge !== undefined) {
      const [found] = await this.deps.db
        .select({ id: signInChallenges.id, userId: signInChallenges.userId })
        .from(signInChallenges)
        .where(
          and(
            eq(signInChallenges.challengeHash, hashToken(signInChallenge)),
            isNull(signInChallenges.usedAt),
            gt(signInChallenges.expiresAt, this.deps.clock.now()),
          ),
        )
        .limit(1);
      if (!found) throw new Fault('SecondFactorChallengeInvalid');
      bound = { userId: found.userId, signInChallengeId: found.id };
      allowCredentials = await this.credentialsOf(found.userId);
    }
    return this.loginOptions(allowCredentials, bound?.userId ?? null, bound?.signInChallengeId ?? null);
  }

  /**
   * Options for a proof of presence by the signed-in customer (step-up, ADR 0040): only their
   * passkeys may answer, and FinishPasskeyLogin's check of the ceremony's account holds them to it.
   */
  async beginStepUp(userId: string): Promise<{ ChallengeId: string; Options: Record<string, unknown> }> {
    return this.loginOptions(await this.credentialsOf(userId), userId, null);
  }

  private async credentialsOf(userId: string): Promise<{ id: string; transports: string[] }[]> {
    const rows = await this.deps.db
      .select({ id: passkeys.credentialId, transports: passkeys.transports })
      .from(passkeys)
      .where(eq(passkeys.userId, userId));
    if (rows.length === 0) throw new Fault('PasskeyNotFound');
    return rows.map((row) => ({ id: row.id, transports: row.transports }));
  }

  private async loginOptions(
    allowCredentials: { id: string; transports: string[] }[] | undefined,
    userId: string | null,
    signInChallengeId: string | null,
  ): Promise<{ ChallengeId: string; Options: Record<string, unknown> }> {
    const options = await generateAuthenticationOptions({
      rpID: this.deps.rpId,
      challenge: new Uint8Array(this.deps.random.bytes(32)),
      timeout: CEREMONY_TIMEOUT_MS,
      userVerification: 'required',
      ...(allowCredentials ? { allowCredentials } : {}),
    });
    const ChallengeId = await this.storeChallenge(options.challenge, 'login', userId, signInChallengeId);
    return { ChallengeId, Options: options as unknown as Record<string, unknown> };
  }

  /**
   * Checks a sign-in's assertion. The challenge is used up first, so a refused answer needs a new
   * BeginPasskeyLogin; the counter moves (or the assertion is refused) in the transaction that
   * also uses up a bound second-factor sign-in. Answers the account and, for a bound sign-in, its
   * keep-me-signed-in choice.
   */
  async finishLogin(
    challengeId: string,
    response: AuthenticationResponse,
  ): Promise<{ userId: string; keepMeSignedIn: boolean | undefined }> {
    const { db, clock } = this.deps;
    const ceremony = await this.useChallenge({ id: challengeId, purpose: 'login' });
    const [passkey] = await db.select().from(passkeys).where(eq(passkeys.credentialId, response.id)).limit(1);
    if (!passkey) throw new Fault('PasskeyInvalid');
    if (ceremony.userId && passkey.userId !== ceremony.userId) throw new Fault('PasskeyInvalid');
    if (response.response.userHandle && response.response.userHandle !== userHandle(passkey.userId)) {
      throw new Fault('PasskeyInvalid');
    }
    let newCounter: number;
    let backedUp: boolean;
    try {
      const verified = await verifyAuthenticationResponse({
        response: response as AuthenticationResponseJSON,
        expectedChallenge: (challenge) => hashToken(challenge) === ceremony.challengeHash,
        expectedOrigin: this.deps.origin,
        expectedRPID: this.deps.rpId,
        credential: {
          id: passkey.credentialId,
          publicKey: new Uint8Array(Buffer.from(passkey.publicKey, 'base64url')),
          counter: passkey.counter,
          transports: passkey.transports,
        },
        requireUserVerification: true,
      });
      if (!verified.verified) throw new Error('not verified');
      newCounter = verified.authenticationInfo.newCounter;
      backedUp = verified.authenticationInfo.credentialBackedUp;
    } catch (error) {
      this.deps.log?.warn(
        { passkeyId: passkey.id, reason: error instanceof Error ? error.message : String(error) },
        'passkey assertion refused',
      );
      throw new Fault('PasskeyInvalid');
    }
    const now = clock.now();
    return db.transaction(async (tx) => {
      // Only from the counter read above: of two parallel sign-ins with one assertion, one passes.
      const [moved] = await tx
        .update(passkeys)
        .set({ counter: newCounter, backedUp, lastUsedAt: now })
        .where(and(eq(passkeys.id, passkey.id), eq(passkeys.counter, passkey.counter)))
        .returning({ id: passkeys.id });
      if (!moved) throw new Fault('PasskeyInvalid');
      if (!ceremony.signInChallengeId) return { userId: passkey.userId, keepMeSignedIn: undefined };
      const [used] = await tx
        .update(signInChallenges)
        .set({ usedAt: now })
        .where(
          and(
            eq(signInChallenges.id, ceremony.signInChallengeId),
            isNull(signInChallenges.usedAt),
            gt(signInChallenges.expiresAt, now),
          ),
        )
        .returning({ keepMeSignedIn: signInChallenges.keepMeSignedIn });
      if (!used) throw new Fault('SecondFactorChallengeInvalid');
      return { userId: passkey.userId, keepMeSignedIn: used.keepMeSignedIn };
    });
  }

  private async storeChallenge(
    challenge: string,
    purpose: 'register' | 'login',
    userId: string | null,
    signInChallengeId: string | null,
  ): Promise<string> {
    const now = this.deps.clock.now();
    // Ended ceremonies go as new ones begin: the table holds only live ones.
    await this.deps.db.delete(passkeyChallenges).where(lt(passkeyChallenges.expiresAt, now));
    const [row] = await this.deps.db
      .insert(passkeyChallenges)
      .values({
        challengeHash: hashToken(challenge),
        purpose,
        userId,
        signInChallengeId,
        createdAt: now,
        expiresAt: addMinutes(now, PASSKEY_CHALLENGE_MINUTES),
      })
      .returning({ id: passkeyChallenges.id });
    if (!row) throw new Error('passkey challenge not stored');
    return row.id;
  }

  /** Uses up a live ceremony challenge (by its id or its hash), or answers PasskeyChallengeInvalid. */
  private async useChallenge(
    by: { id: string; purpose: 'login' } | { challengeHash: string; purpose: 'register'; userId: string },
  ) {
    const now = this.deps.clock.now();
    const [used] = await this.deps.db
      .update(passkeyChallenges)
      .set({ usedAt: now })
      .where(
        and(
          'id' in by ? eq(passkeyChallenges.id, by.id) : eq(passkeyChallenges.challengeHash, by.challengeHash),
          'userId' in by ? eq(passkeyChallenges.userId, by.userId) : undefined,
          eq(passkeyChallenges.purpose, by.purpose),
          isNull(passkeyChallenges.usedAt),
          gt(passkeyChallenges.expiresAt, now),
        ),
      )
      .returning();
    if (!used) throw new Fault('PasskeyChallengeInvalid');
    return used;
  }
}
