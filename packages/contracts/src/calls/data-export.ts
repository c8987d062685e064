import { z } from 'zod';
import { emptyBody } from './common';

/**
 * The customer's data in their hands (ADR 0038): everything the service holds about the
 * signed-in customer, as one JSON document, and what an account deletion would take away.
 * Times are ISO 8601 strings (UTC): the export is a file to keep and read, not a screen's data.
 * Secrets never appear: no password hash, TOTP secret, recovery code, session or link token.
 */

/** Exports a signed-in customer may make in an hour (AttemptOverLimitDataExport past it). */
export const DATA_EXPORT_MAX_PER_HOUR = 10;
/** The version of the export document; a change of its shape that breaks a reader raises it. */
export const DATA_EXPORT_FORMAT = 'my-soundid-data-export/1';

const when = z.string();
const maybeWhen = z.string().nullable();

export const dataExportCalls = {
  ExportMyData: emptyBody,
  GetDeletionSummary: emptyBody,
} as const;

const deletionSummary = z.object({
  /** The products the customer holds: owned keys, or a trial still running. */
  Licences: z.array(
    z.object({
      Product: z.string(),
      ProductName: z.string(),
      /** Keys of the product registered to the account (not revoked). */
      Keys: z.number().int(),
      /** The end of a trial still running, else null. */
      TrialEndsAt: maybeWhen,
    }),
  ),
  /** Lots with tokens left that have not expired, soonest expiry first. */
  UnspentTokens: z.array(z.object({ Tokens: z.number().int(), ExpiresAt: when })),
});

export const dataExportResults = {
  ExportMyData: z.object({
    Format: z.literal(DATA_EXPORT_FORMAT),
    ExportedAt: when,
    Profile: z.object({
      Id: z.string(),
      Email: z.string(),
      EmailVerifiedAt: maybeWhen,
      AddressLine1: z.string(),
      City: z.string(),
      State: z.string(),
      PostalCode: z.string(),
      Country: z.string(),
      CreatedAt: when,
      UpdatedAt: when,
      /** Until when e-mail changes are refused after a "This wasn't me" report (ADR 0041), else null. */
      EmailChangesFrozenUntil: maybeWhen,
    }),
    SignInMethods: z.object({
      HasPassword: z.boolean(),
      LinkedIdentities: z.array(
        z.object({ Provider: z.string(), Subject: z.string(), Email: z.string().nullable(), LinkedAt: when }),
      ),
      /** Names and times only: never the credential or its public key (ADR 0039). */
      Passkeys: z.array(z.object({ Name: z.string(), CreatedAt: when, LastUsedAt: maybeWhen, BackedUp: z.boolean() })),
      TwoStepVerification: z.object({
        Enabled: z.boolean(),
        EnabledAt: maybeWhen,
        RecoveryCodesLeft: z.number().int(),
      }),
    }),
    Sessions: z.array(
      z.object({
        Device: z.string(),
        UserAgent: z.string().nullable(),
        IpAddress: z.string().nullable(),
        KeepMeSignedIn: z.boolean(),
        CreatedAt: when,
        LastSeenAt: when,
        ExpiresAt: when,
        EndedAt: maybeWhen,
      }),
    ),
    /**
     * The browsers and apps that signed in (ADR 0041), as the new-device alerts know them: never
     * the device cookie or its hash.
     */
    SeenDevices: z.array(
      z.object({
        Device: z.string(),
        /** 'browser' (known by its device cookie) or 'app' (by its user-agent family and network). */
        Kind: z.string(),
        FirstSeenAt: when,
        LastSeenAt: when,
        LastIpAddress: z.string().nullable(),
        SignIns: z.number().int(),
      }),
    ),
    Licences: z.array(
      z.object({
        Product: z.string(),
        ProductName: z.string(),
        TrialStartedAt: maybeWhen,
        TrialEndsAt: maybeWhen,
        TrialSource: z.string().nullable(),
        CreatedAt: when,
      }),
    ),
    Keys: z.array(
      z.object({
        Key: z.string(),
        Product: z.string(),
        ProductName: z.string(),
        Source: z.string(),
        RegisteredAt: maybeWhen,
        UsedForUpgradeAt: maybeWhen,
        RevokedAt: maybeWhen,
        /** Counted deactivations of this key (ADR 0030). */
        Deactivations: z.array(z.object({ DeactivatedAt: when, Cause: z.string() })),
      }),
    ),
    Devices: z.array(
      z.object({
        Product: z.string(),
        Name: z.string(),
        MachineId: z.string(),
        Method: z.string(),
        ActivatedAt: when,
        DeactivatedAt: maybeWhen,
        DeactivationCause: z.string().nullable(),
        /** When the app last checked in, and what it said of itself (ADR 0049). */
        LastSeenAt: maybeWhen,
        AppVersion: z.string().nullable(),
        Os: z.string().nullable(),
        /** The customer's lost or stolen report of it, if any (ADR 0050). */
        LostReport: z
          .object({ Reason: z.string(), Note: z.string().nullable(), ReportedAt: when, UndoneAt: maybeWhen })
          .nullable(),
      }),
    ),
    Upgrades: z.array(
      z.object({
        TargetProduct: z.string(),
        FromProducts: z.array(z.string()),
        UsedAt: maybeWhen,
        Key: z.string().nullable(),
      }),
    ),
    /** Offers to pass a key on that the customer made or accepted (ADR 0054); keys masked. */
    LicenceTransfers: z.array(
      z.object({
        Direction: z.enum(['sent', 'received']),
        Product: z.string(),
        Key: z.string(),
        ToEmail: z.string(),
        State: z.string(),
        CreatedAt: when,
        ExpiresAt: when,
        ResolvedAt: maybeWhen,
      }),
    ),
    CampaignClaims: z.array(z.object({ Campaign: z.string(), Serial: z.string(), ClaimedAt: maybeWhen })),
    /** My activity (docs/decisions/0055-my-activity.md), oldest first, in the customer's words. */
    Activity: z.array(
      z.object({
        Kind: z.string(),
        Text: z.string(),
        At: when,
        Device: z.string().nullable(),
        IpAddress: z.string().nullable(),
      }),
    ),
    TokenLots: z.array(
      z.object({
        Id: z.string(),
        Cause: z.string(),
        Amount: z.number().int(),
        Remaining: z.number().int(),
        Withdrawn: z.number().int(),
        /** Taken back by finance (AdminWithdrawTokens), not by a refund. */
        FinanceWithdrawn: z.number().int(),
        PurchasedAt: when,
        ExpiresAt: when,
        RefundedAt: maybeWhen,
      }),
    ),
    TokenSpends: z.array(
      z.object({
        RequestId: z.string(),
        Millis: z.number().int(),
        Tokens: z.number().int(),
        BalanceAfter: z.number().int(),
        SpentAt: when,
        /** Which lots (TokenLots Id) paid for it. */
        PaidFrom: z.array(z.object({ LotId: z.string(), Tokens: z.number().int() })),
      }),
    ),
    /** Tokens finance took back (AdminWithdrawTokens), and from which lots. */
    TokenWithdrawals: z.array(
      z.object({
        Tokens: z.number().int(),
        BalanceAfter: z.number().int(),
        WithdrawnAt: when,
        TakenFrom: z.array(z.object({ LotId: z.string(), Tokens: z.number().int() })),
      }),
    ),
    /** The voice AI token mails chosen on the profile (ADR 0057); null: never chosen, the defaults. */
    NotificationPreferences: z
      .object({
        ExpiryNotices: z.boolean(),
        LowBalanceNotices: z.boolean(),
        LowBalanceThreshold: z.number().int(),
        UpdatedAt: when,
      })
      .nullable(),
    /** The token notices due (ADR 0057): a lot's expiry (LotId) or a spend below the threshold. */
    TokenNotices: z.array(
      z.object({
        Kind: z.string(),
        LotId: z.string().nullable(),
        Tokens: z.number().int(),
        ExpiresAt: maybeWhen,
        Threshold: z.number().int().nullable(),
        Mailed: z.boolean(),
        CreatedAt: when,
      }),
    ),
    Checkouts: z.array(
      z.object({
        Bundle: z.string(),
        Tokens: z.number().int(),
        AmountInCents: z.number().int(),
        Currency: z.string(),
        Provider: z.string(),
        PaymentId: z.string().nullable(),
        Status: z.string(),
        FailureReason: z.string().nullable(),
        AnalyticsMetadata: z.record(z.string(), z.string()),
        CreatedAt: when,
        ExpiresAt: when,
        CompletedAt: maybeWhen,
        Refund: z
          .object({
            RefundedInCents: z.number().int(),
            Currency: z.string(),
            TokensWithdrawn: z.number().int(),
            ReceivedAt: when,
          })
          .nullable(),
      }),
    ),
    PaymentMismatches: z.array(
      z.object({
        ExpectedAmountInCents: z.number().int(),
        ExpectedCurrency: z.string(),
        ReceivedAmountInCents: z.number().int().nullable(),
        ReceivedCurrency: z.string().nullable(),
        RecordedAt: when,
      }),
    ),
    StorefrontOrders: z.array(
      z.object({
        OrderId: z.string(),
        Name: z.string(),
        Source: z.string(),
        Email: z.string().nullable(),
        Status: z.string(),
        Quantity: z.number().int(),
        RefundedQuantity: z.number().int(),
        FinancialStatus: z.string(),
        Currency: z.string().nullable(),
        TotalPrice: z.string().nullable(),
        /** The store's receipt and order status page (ADR 0058). */
        ReceiptUrl: z.string().nullable(),
        OrderedAt: maybeWhen,
        ReceivedAt: when,
        FulfilledAt: maybeWhen,
        Keys: z.array(z.object({ Position: z.number().int(), Key: z.string(), RevokedAt: maybeWhen })),
        Refunds: z.array(z.object({ Quantity: z.number().int(), ReceivedAt: when })),
      }),
    ),
    /**
     * The mails about the account (ADR 0038): subject and times only, from the record kept of
     * each mail for MAIL_LOG_RETENTION_DAYS. `SentAt` is null when the delivery failed.
     */
    Mails: z.array(z.object({ Subject: z.string(), CreatedAt: when, SentAt: maybeWhen })),
    DeletionSummary: deletionSummary,
  }),
  GetDeletionSummary: deletionSummary,
} as const;

export type DataExport = z.infer<typeof dataExportResults.ExportMyData>;
export type DeletionSummary = z.infer<typeof deletionSummary>;
export type DataExportCall = keyof typeof dataExportCalls;
