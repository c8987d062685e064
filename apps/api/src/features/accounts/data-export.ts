import {
  DATA_EXPORT_FORMAT,
  DATA_EXPORT_MAX_PER_HOUR,
  type DataExport,
  type DeletionSummary,
  maskLicenseKey,
} from '@soundid/contracts';
import { and, asc, eq, gt, gte, inArray, isNull, or, sql } from 'drizzle-orm';
import { accountEvents } from '../../db/activity-schema';
import type { Database, Queryable } from '../../db/client';
import {
  campaignSerials,
  devices,
  keyDeactivations,
  licences,
  licenceTransfers,
  licenseKeys,
  lostMachines,
  upgradeCodes,
} from '../../db/licences-schema';
import { checkoutSessions, paymentMismatches, paymentRefunds } from '../../db/payments-schema';
import { mailLog, seenDevices, sessions, socialAccounts, users } from '../../db/schema';
import { passkeys, recoveryCodes, totpEnabledFor, totpFactors } from '../../db/second-factor-schema';
import { storefrontOrderKeys, storefrontOrderRefunds, storefrontOrders } from '../../db/storefront-schema';
import { notificationPreferences, tokenNotices } from '../../db/token-notices-schema';
import { tokenLots, tokenSpendAllocations, tokenSpends, tokenWithdrawals } from '../../db/voice-ai-schema';
import type { Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { describeAccountEvent } from '../activity/activity';
import { productByCode } from '../licences/catalogue';
import { formatLicenseKey } from '../licences/codes';
import type { MailLog } from '../mail/mail-log';
import type { AttemptLimiter, LimitRule } from './attempt-limits';
import { describeDevice } from './user-agent';

/** Exports per account and hour (ADR 0038): an export reads every table of the customer. */
export const DATA_EXPORT_LIMIT: LimitRule = { scope: 'data-export', max: DATA_EXPORT_MAX_PER_HOUR, windowMinutes: 60 };

const iso = (at: Date) => at.toISOString();
const isoOrNull = (at: Date | null) => (at ? at.toISOString() : null);
const productName = (code: string) => productByCode(code)?.displayName ?? code;

/**
 * The customer's data export and the pre-deletion summary (ADR 0038, docs/api.md "Your data").
 * Every section is read in one read-only transaction, repeatable read on PostgreSQL, so that the
 * file is one consistent snapshot (a spend made meanwhile shows in both lots and spends, or in
 * neither). Which tables are read, and why others are not: data-export-coverage.ts.
 */
export class DataExportService {
  constructor(private readonly deps: { db: Database; clock: Clock; limiter: AttemptLimiter; mailLog: MailLog }) {}

  async export(userId: string): Promise<DataExport> {
    if (!(await this.deps.limiter.take(DATA_EXPORT_LIMIT, userId))) throw new Fault('AttemptOverLimitDataExport');
    const now = this.deps.clock.now();
    return this.deps.db.transaction((tx) => this.read(tx, userId, now), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
  }

  async deletionSummary(userId: string): Promise<DeletionSummary> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction((tx) => summarise(tx, userId, now), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
  }

  private async read(tx: Queryable, userId: string, now: Date): Promise<DataExport> {
    // One connection under the transaction: the statements run one after the other.
    const [user] = await tx.select().from(users).where(eq(users.id, userId));
    if (!user) throw new Fault('UserNotFound');
    const identities = await tx
      .select()
      .from(socialAccounts)
      .where(eq(socialAccounts.userId, userId))
      .orderBy(asc(socialAccounts.createdAt));
    const passkeyRows = await tx
      .select({
        name: passkeys.name,
        createdAt: passkeys.createdAt,
        lastUsedAt: passkeys.lastUsedAt,
        backedUp: passkeys.backedUp,
      })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt));
    // Only an enabled factor (the one rule, db/second-factor-schema.ts); a pending setup is not on.
    const [factor] = await tx
      .select({ confirmedAt: totpFactors.confirmedAt })
      .from(totpFactors)
      .where(totpEnabledFor(userId));
    const [codesLeft] = await tx
      .select({ n: sql<number>`count(*)::int` })
      .from(recoveryCodes)
      .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
    const sessionRows = await tx
      .select()
      .from(sessions)
      .where(eq(sessions.userId, userId))
      .orderBy(asc(sessions.createdAt));
    const seenDeviceRows = await tx
      .select({
        label: seenDevices.label,
        kind: seenDevices.kind,
        firstSeenAt: seenDevices.firstSeenAt,
        lastSeenAt: seenDevices.lastSeenAt,
        lastIp: seenDevices.lastIp,
        signIns: seenDevices.signIns,
      })
      .from(seenDevices)
      .where(eq(seenDevices.userId, userId))
      .orderBy(asc(seenDevices.firstSeenAt));
    const licenceRows = await tx
      .select()
      .from(licences)
      .where(eq(licences.userId, userId))
      .orderBy(asc(licences.createdAt));
    const keyRows = await tx
      .select()
      .from(licenseKeys)
      .where(eq(licenseKeys.userId, userId))
      .orderBy(asc(licenseKeys.registeredAt), asc(licenseKeys.key));
    const deviceRows = await tx
      .select({ device: devices, productCode: licences.productCode, lost: lostMachines })
      .from(devices)
      .innerJoin(licences, eq(licences.id, devices.licenceId))
      .leftJoin(lostMachines, eq(lostMachines.deviceId, devices.id))
      .where(eq(devices.userId, userId))
      .orderBy(asc(devices.activatedAt));
    const keyIds = keyRows.map((key) => key.id);
    const deactivationRows = keyIds.length
      ? await tx
          .select()
          .from(keyDeactivations)
          .where(inArray(keyDeactivations.keyId, keyIds))
          .orderBy(asc(keyDeactivations.deactivatedAt))
      : [];
    const upgradeRows = await tx
      .select({ upgrade: upgradeCodes, key: licenseKeys.key })
      .from(upgradeCodes)
      .leftJoin(licenseKeys, eq(licenseKeys.id, upgradeCodes.usedOnKeyId))
      .where(eq(upgradeCodes.usedByUserId, userId))
      .orderBy(asc(upgradeCodes.usedAt));
    const transferRows = await tx
      .select({ transfer: licenceTransfers, key: licenseKeys.key, productCode: licenseKeys.productCode })
      .from(licenceTransfers)
      .innerJoin(licenseKeys, eq(licenseKeys.id, licenceTransfers.keyId))
      .where(or(eq(licenceTransfers.fromUserId, userId), eq(licenceTransfers.toUserId, userId)))
      .orderBy(asc(licenceTransfers.createdAt));
    const claimRows = await tx
      .select()
      .from(campaignSerials)
      .where(eq(campaignSerials.claimedByUserId, userId))
      .orderBy(asc(campaignSerials.claimedAt));
    const activityRows = await tx
      .select()
      .from(accountEvents)
      .where(eq(accountEvents.userId, userId))
      .orderBy(asc(accountEvents.at), asc(accountEvents.id));
    const lotRows = await tx
      .select()
      .from(tokenLots)
      .where(eq(tokenLots.userId, userId))
      .orderBy(asc(tokenLots.purchasedAt), asc(tokenLots.seq));
    const spendRows = await tx
      .select()
      .from(tokenSpends)
      .where(eq(tokenSpends.userId, userId))
      .orderBy(asc(tokenSpends.spentAt));
    const withdrawalRows = await tx
      .select()
      .from(tokenWithdrawals)
      .where(eq(tokenWithdrawals.userId, userId))
      .orderBy(asc(tokenWithdrawals.withdrawnAt));
    const allocationRows = await tx
      .select({
        spendId: tokenSpendAllocations.spendId,
        lotId: tokenSpendAllocations.lotId,
        tokens: tokenSpendAllocations.tokens,
      })
      .from(tokenSpendAllocations)
      .where(eq(tokenSpendAllocations.userId, userId))
      .orderBy(asc(tokenSpendAllocations.id));
    const [preferences] = await tx
      .select()
      .from(notificationPreferences)
      .where(eq(notificationPreferences.userId, userId));
    const noticeRows = await tx
      .select()
      .from(tokenNotices)
      .where(eq(tokenNotices.userId, userId))
      .orderBy(asc(tokenNotices.createdAt));
    const checkoutRows = await tx
      .select({ checkout: checkoutSessions, refund: paymentRefunds })
      .from(checkoutSessions)
      .leftJoin(paymentRefunds, eq(paymentRefunds.invoiceTag, checkoutSessions.invoiceTag))
      .where(eq(checkoutSessions.userId, userId))
      .orderBy(asc(checkoutSessions.createdAt));
    const mismatchRows = await tx
      .select()
      .from(paymentMismatches)
      .where(eq(paymentMismatches.userId, userId))
      .orderBy(asc(paymentMismatches.recordedAt));
    const orderRows = await tx
      .select()
      .from(storefrontOrders)
      .where(eq(storefrontOrders.userId, userId))
      .orderBy(asc(storefrontOrders.receivedAt));
    const orderIds = orderRows.map((order) => order.orderId);
    const orderKeyRows = orderIds.length
      ? await tx
          .select({ orderKey: storefrontOrderKeys, key: licenseKeys.key })
          .from(storefrontOrderKeys)
          .innerJoin(licenseKeys, eq(licenseKeys.id, storefrontOrderKeys.licenseKeyId))
          .where(inArray(storefrontOrderKeys.orderId, orderIds))
          .orderBy(asc(storefrontOrderKeys.position))
      : [];
    const orderRefundRows = orderIds.length
      ? await tx
          .select()
          .from(storefrontOrderRefunds)
          .where(inArray(storefrontOrderRefunds.orderId, orderIds))
          .orderBy(asc(storefrontOrderRefunds.receivedAt))
      : [];
    // The record of the mails about the account, whichever address it had then (an earlier one
    // before an e-mail change), and those about no account sent to its address, whatever the
    // transport; none past the retention, even before the daily cleanup has run (ADR 0038).
    const mailRows = await tx
      .select({ subject: mailLog.subject, createdAt: mailLog.createdAt, sentAt: mailLog.sentAt })
      .from(mailLog)
      .where(
        and(
          or(eq(mailLog.userId, userId), and(isNull(mailLog.userId), eq(mailLog.to, user.email))),
          gte(mailLog.createdAt, this.deps.mailLog.keptSince(now)),
        ),
      )
      .orderBy(asc(mailLog.id));
    const summary = await summarise(tx, userId, now);

    const deactivationsOf = groupBy(deactivationRows, (row) => row.keyId);
    const allocationsOf = groupBy(allocationRows, (row) => row.spendId);
    const keysOf = groupBy(orderKeyRows, (row) => row.orderKey.orderId);
    const refundsOf = groupBy(orderRefundRows, (row) => row.orderId);
    const enabled = factor !== undefined;

    return {
      Format: DATA_EXPORT_FORMAT,
      ExportedAt: iso(now),
      Profile: {
        Id: user.id,
        Email: user.email,
        EmailVerifiedAt: isoOrNull(user.emailVerifiedAt),
        AddressLine1: user.addressLine1,
        City: user.city,
        State: user.state,
        PostalCode: user.postalCode,
        Country: user.country,
        CreatedAt: iso(user.createdAt),
        UpdatedAt: iso(user.updatedAt),
        EmailChangesFrozenUntil: isoOrNull(user.emailChangeFrozenUntil),
      },
      SignInMethods: {
        HasPassword: user.passwordHash !== null,
        LinkedIdentities: identities.map((identity) => ({
          Provider: identity.provider,
          Subject: identity.subject,
          Email: identity.email,
          LinkedAt: iso(identity.createdAt),
        })),
        Passkeys: passkeyRows.map((passkey) => ({
          Name: passkey.name,
          CreatedAt: iso(passkey.createdAt),
          LastUsedAt: isoOrNull(passkey.lastUsedAt),
          BackedUp: passkey.backedUp,
        })),
        TwoStepVerification: {
          Enabled: enabled,
          EnabledAt: enabled ? isoOrNull(factor?.confirmedAt ?? null) : null,
          RecoveryCodesLeft: enabled ? (codesLeft?.n ?? 0) : 0,
        },
      },
      Sessions: sessionRows.map((session) => ({
        Device: describeDevice(session.userAgent),
        UserAgent: session.userAgent,
        IpAddress: session.ip,
        KeepMeSignedIn: session.keepMeSignedIn,
        CreatedAt: iso(session.createdAt),
        LastSeenAt: iso(session.lastSeenAt),
        ExpiresAt: iso(session.expiresAt),
        EndedAt: isoOrNull(session.revokedAt),
      })),
      SeenDevices: seenDeviceRows.map((device) => ({
        Device: device.label,
        Kind: device.kind,
        FirstSeenAt: iso(device.firstSeenAt),
        LastSeenAt: iso(device.lastSeenAt),
        LastIpAddress: device.lastIp,
        SignIns: device.signIns,
      })),
      Licences: licenceRows.map((licence) => ({
        Product: licence.productCode,
        ProductName: productName(licence.productCode),
        TrialStartedAt: isoOrNull(licence.trialStartedAt),
        TrialEndsAt: isoOrNull(licence.trialEndsAt),
        TrialSource: licence.trialSource,
        CreatedAt: iso(licence.createdAt),
      })),
      Keys: keyRows.map((key) => ({
        Key: formatLicenseKey(key.key),
        Product: key.productCode,
        ProductName: productName(key.productCode),
        Source: key.source,
        RegisteredAt: isoOrNull(key.registeredAt),
        UsedForUpgradeAt: isoOrNull(key.usedForUpgradeAt),
        RevokedAt: isoOrNull(key.revokedAt),
        Deactivations: (deactivationsOf.get(key.id) ?? []).map((row) => ({
          DeactivatedAt: iso(row.deactivatedAt),
          Cause: row.cause,
        })),
      })),
      Devices: deviceRows.map(({ device, productCode, lost }) => ({
        Product: productCode,
        Name: device.name,
        MachineId: device.machineId,
        Method: device.method,
        ActivatedAt: iso(device.activatedAt),
        DeactivatedAt: isoOrNull(device.deactivatedAt),
        DeactivationCause: device.deactivationCause,
        LastSeenAt: isoOrNull(device.lastSeenAt),
        AppVersion: device.appVersion,
        Os: device.os,
        LostReport: lost
          ? {
              Reason: lost.reason,
              Note: lost.note,
              ReportedAt: iso(lost.reportedAt),
              UndoneAt: isoOrNull(lost.undoneAt),
            }
          : null,
      })),
      Upgrades: upgradeRows.map(({ upgrade, key }) => ({
        TargetProduct: upgrade.targetProductCode,
        FromProducts: upgrade.fromProductCodes,
        UsedAt: isoOrNull(upgrade.usedAt),
        Key: key ? formatLicenseKey(key) : null,
      })),
      LicenceTransfers: transferRows.map(({ transfer, key, productCode }) => ({
        Direction: transfer.fromUserId === userId ? ('sent' as const) : ('received' as const),
        Product: productCode,
        Key: maskLicenseKey(key),
        ToEmail: transfer.toEmail,
        State: transfer.state,
        CreatedAt: iso(transfer.createdAt),
        ExpiresAt: iso(transfer.expiresAt),
        ResolvedAt: isoOrNull(transfer.resolvedAt),
      })),
      CampaignClaims: claimRows.map((claim) => ({
        Campaign: claim.campaign,
        Serial: claim.serial,
        ClaimedAt: isoOrNull(claim.claimedAt),
      })),
      Activity: activityRows.map((entry) => {
        const { text, device } = describeAccountEvent(entry);
        return { Kind: entry.kind, Text: text, At: iso(entry.at), Device: device ?? null, IpAddress: entry.ip };
      }),
      TokenLots: lotRows.map((lot) => ({
        Id: lot.id,
        Cause: lot.cause,
        Amount: lot.amount,
        Remaining: lot.remaining,
        Withdrawn: lot.withdrawn,
        FinanceWithdrawn: lot.financeWithdrawn,
        PurchasedAt: iso(lot.purchasedAt),
        ExpiresAt: iso(lot.expiresAt),
        RefundedAt: isoOrNull(lot.refundedAt),
      })),
      TokenSpends: spendRows.map((spend) => ({
        RequestId: spend.requestId,
        Millis: spend.millis,
        Tokens: spend.tokens,
        BalanceAfter: spend.balanceAfter,
        SpentAt: iso(spend.spentAt),
        PaidFrom: (allocationsOf.get(spend.id) ?? []).map((row) => ({ LotId: row.lotId, Tokens: row.tokens })),
      })),
      TokenWithdrawals: withdrawalRows.map((withdrawal) => ({
        Tokens: withdrawal.amount,
        BalanceAfter: withdrawal.balanceAfter,
        WithdrawnAt: iso(withdrawal.withdrawnAt),
        TakenFrom: withdrawal.takenFrom.map((part) => ({ LotId: part.lotId, Tokens: part.tokens })),
      })),
      NotificationPreferences: preferences
        ? {
            ExpiryNotices: preferences.expiryNotices,
            LowBalanceNotices: preferences.lowBalanceNotices,
            LowBalanceThreshold: preferences.lowBalanceThreshold,
            UpdatedAt: iso(preferences.updatedAt),
          }
        : null,
      TokenNotices: noticeRows.map((notice) => ({
        Kind: notice.kind,
        LotId: notice.lotId,
        Tokens: notice.tokens,
        ExpiresAt: isoOrNull(notice.expiresAt),
        Threshold: notice.threshold,
        Mailed: notice.mailed,
        CreatedAt: iso(notice.createdAt),
      })),
      Checkouts: checkoutRows.map(({ checkout, refund }) => ({
        Bundle: checkout.bundleTitle,
        Tokens: checkout.tokenAmount,
        AmountInCents: checkout.amountInCents,
        Currency: checkout.currency,
        Provider: checkout.provider,
        PaymentId: checkout.paymentIntentId,
        Status: checkout.status,
        FailureReason: checkout.failureReason,
        AnalyticsMetadata: checkout.analyticsMetadata,
        CreatedAt: iso(checkout.createdAt),
        ExpiresAt: iso(checkout.expiresAt),
        CompletedAt: isoOrNull(checkout.completedAt),
        Refund: refund
          ? {
              RefundedInCents: refund.refundedInCents,
              Currency: refund.currency,
              TokensWithdrawn: refund.tokensWithdrawn,
              ReceivedAt: iso(refund.receivedAt),
            }
          : null,
      })),
      PaymentMismatches: mismatchRows.map((row) => ({
        ExpectedAmountInCents: row.expectedAmountInCents,
        ExpectedCurrency: row.expectedCurrency,
        ReceivedAmountInCents: row.receivedAmountInCents,
        ReceivedCurrency: row.receivedCurrency,
        RecordedAt: iso(row.recordedAt),
      })),
      StorefrontOrders: orderRows.map((order) => ({
        OrderId: order.orderId,
        Name: order.name,
        Source: order.source,
        Email: order.email,
        Status: order.status,
        Quantity: order.quantity,
        RefundedQuantity: order.refundedQuantity,
        FinancialStatus: order.financialStatus,
        Currency: order.currency,
        TotalPrice: order.totalPrice,
        ReceiptUrl: order.statusUrl,
        OrderedAt: isoOrNull(order.orderedAt),
        ReceivedAt: iso(order.receivedAt),
        FulfilledAt: isoOrNull(order.fulfilledAt),
        Keys: (keysOf.get(order.orderId) ?? []).map(({ orderKey, key }) => ({
          Position: orderKey.position,
          Key: formatLicenseKey(key),
          RevokedAt: isoOrNull(orderKey.revokedAt),
        })),
        Refunds: (refundsOf.get(order.orderId) ?? []).map((row) => ({
          Quantity: row.quantity,
          ReceivedAt: iso(row.receivedAt),
        })),
      })),
      Mails: mailRows.map((mail) => ({
        Subject: mail.subject,
        CreatedAt: iso(mail.createdAt),
        SentAt: isoOrNull(mail.sentAt),
      })),
      DeletionSummary: summary,
    };
  }
}

/**
 * What deleting the account takes away: the products held (registered keys, a trial still
 * running) and the tokens left in lots not yet expired.
 */
async function summarise(tx: Queryable, userId: string, now: Date): Promise<DeletionSummary> {
  const keyCounts = await tx
    .select({ productCode: licenseKeys.productCode, n: sql<number>`count(*)::int` })
    .from(licenseKeys)
    .where(and(eq(licenseKeys.userId, userId), isNull(licenseKeys.revokedAt)))
    .groupBy(licenseKeys.productCode);
  const trials = await tx
    .select({ productCode: licences.productCode, trialEndsAt: licences.trialEndsAt })
    .from(licences)
    .where(and(eq(licences.userId, userId), gt(licences.trialEndsAt, now)));
  const lots = await tx
    .select({ remaining: tokenLots.remaining, expiresAt: tokenLots.expiresAt })
    .from(tokenLots)
    .where(and(eq(tokenLots.userId, userId), gt(tokenLots.remaining, 0), gt(tokenLots.expiresAt, now)))
    .orderBy(asc(tokenLots.expiresAt), asc(tokenLots.seq));

  const products = new Map<string, { keys: number; trialEndsAt: Date | null }>();
  for (const row of keyCounts) products.set(row.productCode, { keys: row.n, trialEndsAt: null });
  for (const row of trials) {
    const held = products.get(row.productCode) ?? { keys: 0, trialEndsAt: null };
    products.set(row.productCode, { ...held, trialEndsAt: row.trialEndsAt });
  }
  return {
    Licences: [...products.entries()]
      .map(([code, held]) => ({
        Product: code,
        ProductName: productName(code),
        Keys: held.keys,
        TrialEndsAt: isoOrNull(held.trialEndsAt),
      }))
      .sort((a, b) => a.ProductName.localeCompare(b.ProductName)),
    UnspentTokens: lots.map((lot) => ({ Tokens: lot.remaining, ExpiresAt: iso(lot.expiresAt) })),
  };
}

function groupBy<T>(rows: T[], keyOf: (row: T) => string): Map<string, T[]> {
  const groups = new Map<string, T[]>();
  for (const row of rows) {
    const group = groups.get(keyOf(row));
    if (group) group.push(row);
    else groups.set(keyOf(row), [row]);
  }
  return groups;
}
