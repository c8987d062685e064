import {
  formatHistoryDate,
  type IncomingLicenceTransfer,
  LICENCE_TRANSFER_INTERVAL_DAYS,
  LICENCE_TRANSFER_OFFER_DAYS,
  LICENCE_TRANSFER_PATH,
  type LicenceTransferOffer,
  licenceMessages,
  maskEmail,
  maskLicenseKey,
  toDotNetDate,
} from '@soundid/contracts';
import { and, asc, desc, eq, gt, inArray, isNull, lte, ne, sql } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../../db/client';
import { type LicenceTransferRow, licences, licenceTransfers, licenseKeys } from '../../db/licences-schema';
import { users } from '../../db/schema';
import { addDays, type Clock, type Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { hashToken, newOpaqueToken } from '../../lib/secrets';
import type { AbuseLimits } from '../accounts/abuse-limits';
import { isUniqueViolation, normalizeEmail, type UserRow } from '../accounts/users-repo';
import type { Mailer } from '../mail/mailer';
import { isActivatable, productByCode } from './catalogue';
import type { LicenceService } from './service';
import { licenceTransferCompletedMail, licenceTransferOfferMail, licenceTransferReceivedMail } from './transfer-mails';

export interface LicenceTransfersDeps {
  db: Database;
  clock: Clock;
  random: Random;
  mailer: Mailer;
  /** The recipient's mailbox allowance (ADR 0031): an offer is a mail to any address. */
  abuse: Pick<AbuseLimits, 'mailTo'>;
  publicUrl: string;
  licences: LicenceService;
}

/** The pending offers a customer made, for the licence list (placeholders `userId`, `now`). */
export const pendingTransfersOfUserQuery = (db: Queryable) =>
  db
    .select({
      id: licenceTransfers.id,
      keyId: licenceTransfers.keyId,
      toEmail: licenceTransfers.toEmail,
      expiresAt: licenceTransfers.expiresAt,
    })
    .from(licenceTransfers)
    .where(
      and(
        eq(licenceTransfers.fromUserId, sql.placeholder('userId')),
        eq(licenceTransfers.state, 'pending'),
        gt(licenceTransfers.expiresAt, sql.placeholder('now')),
      ),
    )
    .orderBy(asc(licenceTransfers.createdAt));
export type PendingTransferRow = Awaited<ReturnType<ReturnType<typeof pendingTransfersOfUserQuery>['execute']>>[number];

/**
 * Passing a licence on (docs/decisions/0054-licence-transfer.md): the owner offers one key to an
 * e-mail address; the recipient, signed in with that verified address, accepts by the mailed
 * link; the key moves with everything that hangs on it (its deactivation history, its upgrade
 * codes), and the owner's seats that the keys left cannot hold end uncounted ('transferred').
 *
 * Locks, in this order on every path: the key row, then the offer row, then the licences by id.
 * Start locks the key; cancel locks the offer; accept locks the key, then the offer (read again
 * under the lock), then both licences. Accept and cancel meet on the offer row: exactly one wins.
 */
export class LicenceTransfers {
  constructor(private readonly deps: LicenceTransfersDeps) {}

  private now() {
    return this.deps.clock.now();
  }

  /** The owner's offer: step-up is the route's; this checks the rules and mails the link. */
  async start(owner: UserRow, keyInput: string, emailInput: string) {
    const { db, random, mailer, publicUrl, licences } = this.deps;
    const toEmail = normalizeEmail(emailInput);
    const now = this.now();
    const token = newOpaqueToken(random);
    // Counted before anything is made, as every mail to an address (ADR 0031).
    await this.deps.abuse.mailTo(toEmail);
    const offer = await db
      .transaction(async (tx) => {
        await assertTransfersOpen(tx, owner.id, now);
        const owned = await licences.resolveOwnedKey(tx, owner.id, keyInput);
        const [key] = await tx
          .select()
          .from(licenseKeys)
          .where(and(eq(licenseKeys.id, owned.id), eq(licenseKeys.userId, owner.id)))
          .for('no key update');
        const product = key && productByCode(key.productCode);
        if (!key || !product) throw new Fault('KeyNotFound');
        if (key.usedForUpgradeAt) throw new Fault('LicenceTransferKeyUpgraded');
        if (toEmail === normalizeEmail(owner.email)) throw new Fault('LicenceTransferToSelf');
        // Offers left pending past their time, or by an earlier owner of the key, are over.
        await tx
          .update(licenceTransfers)
          .set({ state: 'expired', resolvedAt: now })
          .where(
            and(
              eq(licenceTransfers.keyId, key.id),
              eq(licenceTransfers.state, 'pending'),
              lte(licenceTransfers.expiresAt, now),
            ),
          );
        await tx
          .update(licenceTransfers)
          .set({ state: 'cancelled', resolvedAt: now })
          .where(
            and(
              eq(licenceTransfers.keyId, key.id),
              eq(licenceTransfers.state, 'pending'),
              ne(licenceTransfers.fromUserId, owner.id),
            ),
          );
        const [pending] = await tx
          .select({ id: licenceTransfers.id })
          .from(licenceTransfers)
          .where(and(eq(licenceTransfers.keyId, key.id), eq(licenceTransfers.state, 'pending')));
        if (pending) throw new Fault('LicenceTransferPending');
        const [last] = await tx
          .select({ at: licenceTransfers.resolvedAt })
          .from(licenceTransfers)
          .where(
            and(
              eq(licenceTransfers.keyId, key.id),
              eq(licenceTransfers.state, 'accepted'),
              gt(licenceTransfers.resolvedAt, addDays(now, -LICENCE_TRANSFER_INTERVAL_DAYS)),
            ),
          )
          .orderBy(desc(licenceTransfers.resolvedAt))
          .limit(1);
        if (last?.at) {
          throw new Fault('LicenceTransferTooSoon', {
            NextTransferAt: toDotNetDate(addDays(last.at, LICENCE_TRANSFER_INTERVAL_DAYS)),
          });
        }
        const [row] = await tx
          .insert(licenceTransfers)
          .values({
            keyId: key.id,
            fromUserId: owner.id,
            toEmail,
            tokenHash: hashToken(token),
            createdAt: now,
            expiresAt: addDays(now, LICENCE_TRANSFER_OFFER_DAYS),
          })
          .returning();
        if (!row) throw new Fault('Unknown');
        return { row, product };
      })
      .catch((error: unknown) => {
        // Backstop of the key lock: the partial unique index allows one pending offer per key.
        if (isUniqueViolation(error)) throw new Fault('LicenceTransferPending');
        throw error;
      });
    await mailer.send(
      licenceTransferOfferMail({
        to: toEmail,
        fromEmail: maskEmail(owner.email),
        displayName: offer.product.displayName,
        link: `${publicUrl}${LICENCE_TRANSFER_PATH}/${token}`,
      }),
      { userId: owner.id },
    );
    return {
      TransferId: offer.row.id,
      Email: toEmail,
      ExpiresAt: toDotNetDate(offer.row.expiresAt),
      Message: licenceMessages.licenceTransferStarted(toEmail),
    };
  }

  /** The owner withdraws a pending offer; another customer's offer is not found (ASVS 8.2.2). */
  async cancel(userId: string, transferId: string): Promise<{ Message: string }> {
    const now = this.now();
    await this.deps.db.transaction(async (tx) => {
      const [offer] = await tx
        .select()
        .from(licenceTransfers)
        .where(and(eq(licenceTransfers.id, transferId), eq(licenceTransfers.fromUserId, userId)))
        .for('update');
      if (!offer) throw new Fault('LicenceTransferNotFound');
      assertPending(offer, now);
      await tx
        .update(licenceTransfers)
        .set({ state: 'cancelled', resolvedAt: now })
        .where(eq(licenceTransfers.id, offer.id));
    });
    return { Message: licenceMessages.licenceTransferCancelled };
  }

  /** What the link offers, for the recipient's page; the addresses masked. */
  async describe(token: string): Promise<LicenceTransferOffer> {
    const { db } = this.deps;
    const offer = await findByToken(db, token);
    if (!offer) throw new Fault('LicenceTransferNotFound');
    const [row] = await db
      .select({ key: licenseKeys.key, productCode: licenseKeys.productCode, fromEmail: users.email })
      .from(licenseKeys)
      .innerJoin(users, eq(users.id, offer.fromUserId))
      .where(eq(licenseKeys.id, offer.keyId));
    const product = row && productByCode(row.productCode);
    if (!row || !product) throw new Fault('LicenceTransferNotFound');
    return {
      DisplayName: product.displayName,
      ProductName: product.productName,
      FormattedKey: maskLicenseKey(row.key),
      FromEmail: maskEmail(row.fromEmail),
      ToEmail: maskEmail(offer.toEmail),
      ExpiresAt: toDotNetDate(offer.expiresAt),
      State: offer.state === 'pending' && offer.expiresAt <= this.now() ? 'expired' : offer.state,
    };
  }

  /**
   * The open offers to the customer's verified address (ADR 0054, addendum): someone who signed
   * up after the mail finds them on Licenses & Devices without the link. Offers whose key left
   * its offerer meanwhile are not open, as accepting them would say.
   */
  async incoming(recipient: UserRow): Promise<IncomingLicenceTransfer[]> {
    if (!recipient.emailVerifiedAt) return [];
    const rows = await this.deps.db
      .select({
        id: licenceTransfers.id,
        expiresAt: licenceTransfers.expiresAt,
        key: licenseKeys.key,
        productCode: licenseKeys.productCode,
        fromEmail: users.email,
      })
      .from(licenceTransfers)
      .innerJoin(licenseKeys, eq(licenseKeys.id, licenceTransfers.keyId))
      .innerJoin(users, eq(users.id, licenceTransfers.fromUserId))
      .where(
        and(
          eq(licenceTransfers.toEmail, normalizeEmail(recipient.email)),
          eq(licenceTransfers.state, 'pending'),
          gt(licenceTransfers.expiresAt, this.now()),
          eq(licenseKeys.userId, licenceTransfers.fromUserId),
          isNull(licenseKeys.revokedAt),
          isNull(licenseKeys.usedForUpgradeAt),
        ),
      )
      .orderBy(asc(licenceTransfers.createdAt));
    return rows.flatMap((row) => {
      const product = productByCode(row.productCode);
      if (!product) return [];
      return [
        {
          TransferId: row.id,
          DisplayName: product.displayName,
          ProductName: product.productName,
          FormattedKey: maskLicenseKey(row.key),
          FromEmail: maskEmail(row.fromEmail),
          ExpiresAt: toDotNetDate(row.expiresAt),
        },
      ];
    });
  }

  /** The recipient takes the key by the mailed link: signed in with the verified address the offer was sent to. */
  accept(recipient: UserRow, token: string) {
    return this.acceptOffer(recipient, (db) => findByToken(db, token));
  }

  /**
   * The same, by the offer's id from `incoming`: only an offer to the caller's own address is
   * found (another's is LicenceTransferNotFound, ASVS 8.2.2), and the address must be verified.
   */
  acceptIncoming(recipient: UserRow, transferId: string) {
    return this.acceptOffer(recipient, async (db) => {
      const [row] = await db
        .select()
        .from(licenceTransfers)
        .where(and(eq(licenceTransfers.id, transferId), eq(licenceTransfers.toEmail, normalizeEmail(recipient.email))));
      return row;
    });
  }

  private async acceptOffer(recipient: UserRow, find: (db: Queryable) => Promise<LicenceTransferRow | undefined>) {
    const { db, mailer, publicUrl, licences } = this.deps;
    const now = this.now();
    const done = await db.transaction(async (tx) => {
      const found = await find(tx);
      if (!found) throw new Fault('LicenceTransferNotFound');
      if (found.toEmail !== normalizeEmail(recipient.email)) {
        throw new Fault('LicenceTransferWrongAccount', { Email: maskEmail(found.toEmail) });
      }
      if (!recipient.emailVerifiedAt) throw new Fault('TransferFailedUserEmailNotVerified');
      await assertTransfersOpen(tx, recipient.id, now);
      // The key's row first, as every change of its owner; then the offer, read again under its lock.
      const [key] = await tx.select().from(licenseKeys).where(eq(licenseKeys.id, found.keyId)).for('no key update');
      const [offer] = await tx.select().from(licenceTransfers).where(eq(licenceTransfers.id, found.id)).for('update');
      if (!offer || !key) throw new Fault('LicenceTransferNotFound');
      assertPending(offer, now);
      if (offer.fromUserId === recipient.id || key.userId === recipient.id) throw new Fault('LicenceTransferToSelf');
      // The key left its owner meanwhile (removed, moved by support, refunded): nothing to pass on.
      if (key.userId !== offer.fromUserId || key.revokedAt || key.usedForUpgradeAt) {
        throw new Fault('LicenceTransferNotPending');
      }
      const product = productByCode(key.productCode);
      if (!product) throw new Fault('KeyNotFound');
      if (isActivatable(product)) await lockLicencesInOrder(tx, [offer.fromUserId, recipient.id], product.code);
      await licences.releaseSeatsOfKey(tx, key, 'transferred');
      await tx.update(licenseKeys).set({ userId: recipient.id, registeredAt: now }).where(eq(licenseKeys.id, key.id));
      await tx
        .update(licenceTransfers)
        .set({ state: 'accepted', resolvedAt: now, toUserId: recipient.id })
        .where(eq(licenceTransfers.id, offer.id));
      const [from] = await tx.select({ email: users.email }).from(users).where(eq(users.id, offer.fromUserId));
      return { key, product, fromEmail: from?.email, fromUserId: offer.fromUserId };
    });
    const link = `${publicUrl}/products`;
    const displayName = done.product.displayName;
    await mailer.send(licenceTransferReceivedMail({ to: recipient.email, displayName, link }), {
      userId: recipient.id,
    });
    if (done.fromEmail) {
      await mailer.send(
        licenceTransferCompletedMail({ to: done.fromEmail, toEmail: recipient.email, displayName, link }),
        { userId: done.fromUserId },
      );
    }
    return {
      Message: licenceMessages.licenceTransferAccepted(displayName),
      DisplayName: displayName,
      ProductName: done.product.productName,
      FormattedKey: maskLicenseKey(done.key.key),
    };
  }
}

/**
 * Refuses while a "This wasn't me" report freezes the account's transfers
 * (docs/decisions/0055-my-activity.md). The account's row is read under a share lock: a report
 * committing meanwhile (it updates that row, then cancels the pending offers) waits for this
 * transaction or is seen by it.
 */
async function assertTransfersOpen(tx: Transaction, userId: string, now: Date): Promise<void> {
  const [user] = await tx
    .select({ until: users.licenceTransfersFrozenUntil })
    .from(users)
    .where(eq(users.id, userId))
    .for('share');
  if (user?.until && user.until > now) {
    const until = `${formatHistoryDate(user.until.getTime(), 'UTC')} UTC`;
    throw new Fault('AccountFrozen', { FrozenUntil: toDotNetDate(user.until) }, licenceMessages.accountFrozen(until));
  }
}

async function findByToken(db: Queryable, token: string): Promise<LicenceTransferRow | undefined> {
  const [row] = await db
    .select()
    .from(licenceTransfers)
    .where(eq(licenceTransfers.tokenHash, hashToken(token)))
    .limit(1);
  return row;
}

/** Accepted or cancelled: NotPending; pending past its time: Expired. */
function assertPending(offer: LicenceTransferRow, now: Date): void {
  if (offer.state === 'expired' || (offer.state === 'pending' && offer.expiresAt <= now)) {
    throw new Fault('LicenceTransferExpired');
  }
  if (offer.state !== 'pending') throw new Fault('LicenceTransferNotPending');
}

/**
 * The licences of the product of both customers, made if missing and locked in the order of
 * their ids: two accepts in opposite directions cannot deadlock.
 */
async function lockLicencesInOrder(tx: Transaction, userIds: string[], productCode: string): Promise<void> {
  await tx
    .insert(licences)
    .values(userIds.map((userId) => ({ userId, productCode })))
    .onConflictDoNothing();
  await tx
    .select({ id: licences.id })
    .from(licences)
    .where(and(inArray(licences.userId, userIds), eq(licences.productCode, productCode)))
    .orderBy(asc(licences.id))
    .for('update');
}
