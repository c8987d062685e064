import {
  type CallResult,
  CUSTOMER_PAGE_LIST_SIZE,
  type CustomerPage,
  DEVICE_DEACTIVATION_LIMIT,
  licenceKeyEnding,
  maskLicenseKey,
  normalizeLicenseKey,
} from '@soundid/contracts';
import { and, asc, count, desc, eq, gt, inArray, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client';
import {
  devices,
  type LostMachineRow,
  licences,
  licenceTransfers,
  licenseKeys,
  lostMachines,
} from '../../db/licences-schema';
import { checkoutSessions, paymentRefunds } from '../../db/payments-schema';
import { mailLog, sessions, socialAccounts } from '../../db/schema';
import { passkeys, recoveryCodes, totpEnabledFor, totpFactors } from '../../db/second-factor-schema';
import { tokenLots, tokenSpendAllocations, tokenSpends } from '../../db/voice-ai-schema';
import type { Clock } from '../../lib/clock';
import type { AccountService } from '../accounts/service';
import { describeDevice } from '../accounts/user-agent';
import { toUser, type UserRow } from '../accounts/users-repo';
import { productByCode } from '../licences/catalogue';
import { deactivationsInWindow } from '../licences/repo';
import { seatsOf } from '../licences/service';
import type { AuditTrail } from '../operators/audit-trail';
import { storefrontOrderSummaries } from '../storefront/order-summaries';
import type { TokenLedger } from '../tokens/ledger';

type AdminUser = CallResult<'AdminUser'>;

/**
 * The customer page of the console and of `npm run admin -- user` (docs/api.md, Operators):
 * what support and finance see of one customer, read from every feature's tables. Never a
 * secret (ASVS 8.3.1, 14.2.6): no password hash, TOTP secret, recovery code, session or action
 * token, passkey credential or mail body goes into it (only the password's presence, and of the
 * second factors whether and how many). Lists hold the newest CUSTOMER_PAGE_LIST_SIZE entries.
 */
export class CustomerPages {
  constructor(
    private readonly deps: {
      db: Database;
      clock: Clock;
      ledger: TokenLedger;
      audit: AuditTrail;
      accounts: AccountService;
    },
  ) {}

  async read(user: UserRow): Promise<AdminUser> {
    const { db, accounts } = this.deps;
    const now = this.deps.clock.now();
    const [live] = await db
      .select({ n: count() })
      .from(sessions)
      .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)));
    const providers = await db
      .select({ provider: socialAccounts.provider })
      .from(socialAccounts)
      .where(eq(socialAccounts.userId, user.id));
    const keys = await db
      .select({ key: licenseKeys.key, product: licenseKeys.productCode, registeredAt: licenseKeys.registeredAt })
      .from(licenseKeys)
      .where(eq(licenseKeys.userId, user.id))
      .orderBy(asc(licenseKeys.registeredAt), asc(licenseKeys.key));
    const allDevices = await db
      .select()
      .from(devices)
      .where(eq(devices.userId, user.id))
      .orderBy(asc(devices.activatedAt), asc(devices.id));
    const lostReports = new Map(
      (await db.select().from(lostMachines).where(eq(lostMachines.userId, user.id))).map((r) => [r.deviceId, r]),
    );
    const licenceRows = await db
      .select()
      .from(licences)
      .where(eq(licences.userId, user.id))
      .orderBy(asc(licences.productCode));
    const productOf = new Map(licenceRows.map((l) => [l.id, l.productCode]));
    const page = await this.sections(user, now, keys, allDevices, licenceRows, lostReports);
    return {
      ...toUser(user),
      CreatedAt: user.createdAt.toISOString(),
      ActiveSessions: live?.n ?? 0,
      SocialProviders: providers.map((p) => p.provider),
      SignInLocked: await accounts.signInLocked(user.email),
      Keys: keys.map((k) => ({
        Product: k.product,
        KeyEnding: licenceKeyEnding(k.key),
        RegisteredAt: k.registeredAt?.toISOString() ?? null,
      })),
      Devices: allDevices
        .filter((d) => d.deactivatedAt === null)
        .map((d) => ({
          Id: d.id,
          Product: productOf.get(d.licenceId) ?? '',
          Name: d.name,
          MachineId: d.machineId,
          ActivatedAt: d.activatedAt.toISOString(),
        })),
      ...page,
    };
  }

  private async sections(
    user: UserRow,
    now: Date,
    keys: { key: string; product: string; registeredAt: Date | null }[],
    allDevices: (typeof devices.$inferSelect)[],
    licenceRows: (typeof licences.$inferSelect)[],
    lostReports: Map<string, LostMachineRow>,
  ): Promise<CustomerPage> {
    const { db, ledger, audit } = this.deps;
    const tokenBalance = await ledger.balance(user.id);
    // Offers still open (ADR 0054): pending and not past their time.
    const pending = await db
      .select({ transfer: licenceTransfers, key: licenseKeys.key, product: licenseKeys.productCode })
      .from(licenceTransfers)
      .innerJoin(licenseKeys, eq(licenseKeys.id, licenceTransfers.keyId))
      .where(
        and(
          eq(licenceTransfers.fromUserId, user.id),
          eq(licenceTransfers.state, 'pending'),
          gt(licenceTransfers.expiresAt, now),
        ),
      )
      .orderBy(asc(licenceTransfers.createdAt));
    return {
      SecondFactor: await this.secondFactor(user.id),
      Sessions: await this.liveSessions(user.id, now),
      Licences: await Promise.all(
        licenceRows.map(async (licence) => {
          const held = keys.filter((k) => k.product === licence.productCode);
          const product = productByCode(licence.productCode);
          const registered = held.flatMap((k) => (k.registeredAt ? [k.registeredAt] : []));
          const offers = pending
            .filter((p) => p.product === licence.productCode)
            .map(({ transfer, key }) => ({
              KeyEnding: licenceKeyEnding(key),
              ToEmail: transfer.toEmail,
              CreatedAt: transfer.createdAt.toISOString(),
              ExpiresAt: transfer.expiresAt.toISOString(),
            }));
          return {
            Product: licence.productCode,
            // The licence's seat pool: every key of its product the customer holds.
            KeyEnding: held.map((k) => licenceKeyEnding(k.key)).join(', '),
            RegisteredAt: registered[0]?.toISOString() ?? null,
            Seats: product ? seatsOf(product, held.length, licence, now, tokenBalance).max : 0,
            DeactivationsUsed: await deactivationsInWindow(db, licence, now),
            DeactivationsAllowed: DEVICE_DEACTIVATION_LIMIT,
            ...(offers.length > 0 ? { PendingTransfers: offers } : {}),
            Devices: allDevices
              .filter((d) => d.licenceId === licence.id)
              .map((d) => ({
                Id: d.id,
                Name: d.name,
                MachineId: d.machineId,
                ActivatedAt: d.activatedAt.toISOString(),
                DeactivatedAt: d.deactivatedAt?.toISOString() ?? null,
                DeactivationCause: d.deactivationCause,
                LostReport: lostReportOf(lostReports.get(d.id)),
                LastSeenAt: d.lastSeenAt?.toISOString() ?? null,
                AppVersion: d.appVersion,
                Os: d.os,
              })),
          };
        }),
      ),
      Trials: licenceRows.flatMap((l) =>
        l.trialStartedAt && l.trialEndsAt
          ? [{ Product: l.productCode, StartedAt: l.trialStartedAt.toISOString(), EndsAt: l.trialEndsAt.toISOString() }]
          : [],
      ),
      TokenBalance: tokenBalance,
      TokenLots: await this.tokenLots(user.id),
      TokenUsage: await this.tokenUsage(user.id),
      CardPayments: await this.cardPayments(user.id),
      // Keys masked as everywhere on this page (ASVS 14.2.6); AdminStorefrontOrders has them whole.
      StorefrontOrders: (
        await storefrontOrderSummaries(
          db,
          { email: user.email, userId: user.id },
          { newestFirst: true, limit: CUSTOMER_PAGE_LIST_SIZE },
        )
      ).map((order) => ({
        ...order,
        Keys: order.Keys.map((k) => ({ ...k, Key: maskLicenseKey(normalizeLicenseKey(k.Key)) })),
      })),
      Mails: await this.mails(user.id),
      Audit: (await audit.search({ customerId: user.id, limit: CUSTOMER_PAGE_LIST_SIZE })).Entries,
    };
  }

  /** Whether two-step verification is on and how much of it is left: counts, never the secrets. */
  private async secondFactor(userId: string): Promise<CustomerPage['SecondFactor']> {
    const { db } = this.deps;
    // The one rule of "TOTP on" (db/second-factor-schema.ts): a row there is an enabled factor.
    const [totp] = await db.select({ userId: totpFactors.userId }).from(totpFactors).where(totpEnabledFor(userId));
    const [codes] = await db
      .select({ n: count() })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    const [keys] = await db.select({ n: count() }).from(passkeys).where(eq(passkeys.userId, userId));
    return { Totp: totp !== undefined, RecoveryCodesLeft: codes?.n ?? 0, Passkeys: keys?.n ?? 0 };
  }

  /** The sessions still live, last seen first: when and from what, never their tokens. */
  private async liveSessions(userId: string, now: Date): Promise<CustomerPage['Sessions']> {
    const rows = await this.deps.db
      .select({
        id: sessions.id,
        createdAt: sessions.createdAt,
        lastSeenAt: sessions.lastSeenAt,
        expiresAt: sessions.expiresAt,
        userAgent: sessions.userAgent,
      })
      .from(sessions)
      .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
      .orderBy(desc(sessions.lastSeenAt), desc(sessions.id))
      .limit(CUSTOMER_PAGE_LIST_SIZE);
    return rows.map((s) => ({
      Id: s.id,
      CreatedAt: s.createdAt.toISOString(),
      LastSeenAt: s.lastSeenAt.toISOString(),
      ExpiresAt: s.expiresAt.toISOString(),
      Device: describeDevice(s.userAgent),
    }));
  }

  /** The lots credited, newest first: what credited each (a checkout's invoice tag, a grant's reference). */
  private async tokenLots(userId: string): Promise<CustomerPage['TokenLots']> {
    const rows = await this.deps.db
      .select()
      .from(tokenLots)
      .where(eq(tokenLots.userId, userId))
      .orderBy(desc(tokenLots.purchasedAt), desc(tokenLots.seq))
      .limit(CUSTOMER_PAGE_LIST_SIZE);
    return rows.map((lot) => ({
      Source: lot.cause,
      Amount: lot.amount,
      Remaining: lot.remaining,
      CreatedAt: lot.purchasedAt.toISOString(),
      ExpiresAt: lot.expiresAt.toISOString(),
      Reference: lot.sourceRef,
    }));
  }

  /** The spends, newest first; Type names the kinds of lot that paid (purchase, grant, trial). */
  private async tokenUsage(userId: string): Promise<CustomerPage['TokenUsage']> {
    const { db } = this.deps;
    const spends = await db
      .select()
      .from(tokenSpends)
      .where(eq(tokenSpends.userId, userId))
      .orderBy(desc(tokenSpends.spentAt), desc(tokenSpends.id))
      .limit(CUSTOMER_PAGE_LIST_SIZE);
    const paidFrom =
      spends.length === 0
        ? []
        : await db
            .selectDistinct({ spendId: tokenSpendAllocations.spendId, cause: tokenLots.cause })
            .from(tokenSpendAllocations)
            .innerJoin(tokenLots, eq(tokenLots.id, tokenSpendAllocations.lotId))
            .where(
              inArray(
                tokenSpendAllocations.spendId,
                spends.map((s) => s.id),
              ),
            );
    return spends.map((spend) => ({
      At: spend.spentAt.toISOString(),
      Tokens: spend.tokens,
      Seconds: spend.millis / 1000,
      Type: paidFrom
        .filter((p) => p.spendId === spend.id)
        .map((p) => p.cause)
        .sort()
        .join('+'),
    }));
  }

  /** The card checkouts, newest first, each with what its refunds took back. */
  private async cardPayments(userId: string): Promise<CustomerPage['CardPayments']> {
    const rows = await this.deps.db
      .select({ checkout: checkoutSessions, refunded: paymentRefunds.refundedInCents })
      .from(checkoutSessions)
      .leftJoin(paymentRefunds, eq(paymentRefunds.paymentIntentId, checkoutSessions.paymentIntentId))
      .where(eq(checkoutSessions.userId, userId))
      .orderBy(desc(checkoutSessions.createdAt), desc(checkoutSessions.invoiceTag))
      .limit(CUSTOMER_PAGE_LIST_SIZE);
    return rows.map(({ checkout, refunded }) => ({
      InvoiceTag: checkout.invoiceTag,
      Item: checkout.bundleTitle,
      AmountInCents: checkout.amountInCents,
      RefundedInCents: refunded ?? 0,
      Currency: checkout.currency,
      Status: checkout.status,
      CreatedAt: checkout.createdAt.toISOString(),
    }));
  }

  /** The mails sent about the account (mail_log), newest first: subject, time, outcome; never a body. */
  private async mails(userId: string): Promise<CustomerPage['Mails']> {
    const rows = await this.deps.db
      .select({ subject: mailLog.subject, createdAt: mailLog.createdAt, outcome: mailLog.outcome })
      .from(mailLog)
      .where(eq(mailLog.userId, userId))
      .orderBy(desc(mailLog.id))
      .limit(CUSTOMER_PAGE_LIST_SIZE);
    return rows.map((m) => ({ Subject: m.subject, At: m.createdAt.toISOString(), Status: m.outcome }));
  }
}

function lostReportOf(report: LostMachineRow | undefined) {
  return report
    ? {
        Reason: report.reason,
        Note: report.note,
        ReportedAt: report.reportedAt.toISOString(),
        Standing: report.undoneAt === null,
      }
    : null;
}
