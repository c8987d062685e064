import { z } from 'zod';
import {
  STOREFRONT_ORDER_STATUSES,
  STOREFRONT_REFUND_MAX_QUANTITY,
  storefrontOrderReferenceSchema,
  storefrontOrderSummarySchema,
} from '../storefront';
import { TOKEN_EXPIRY_NOTICES_JOB } from '../token-notices';
import { emailSchema, licenseKeySchema } from '../validators';
import { invoiceTagSchema } from './checkout';
import { callBody } from './common';
import { auditEntrySchema, auditReasonSchema, operatorReferenceSchema } from './operators';

/**
 * The console's customer work (ADR 0047): finding a customer, the customer page, and the
 * support and finance actions on it that the everyday tickets need. Roles for each call are in
 * `operatorCallRoles` (operators.ts), like every operator call.
 */

/** What a customer search looks in: the operator picks one, or leaves it to every kind. */
export const CUSTOMER_SEARCH_KINDS = ['email', 'key', 'device', 'order', 'invoice'] as const;
export type CustomerSearchKind = (typeof CUSTOMER_SEARCH_KINDS)[number];
/** Customers a search answers at once (the operator narrows the query for more). */
export const CUSTOMER_SEARCH_LIMIT = 25;
/** The shortest query a search takes (an e-mail prefix of one letter would list everyone). */
export const CUSTOMER_SEARCH_MIN_LENGTH = 3;
/** The newest entries of each list a customer page shows (usage, mails, audit). */
export const CUSTOMER_PAGE_LIST_SIZE = 50;
/** Bad rows a refused import lists one by one; the rest are counted in one last line. */
export const CSV_BAD_ROWS_LISTED = 100;
/** Rows a serial import takes at once (AdminAddSerials' own bound). */
export const SERIAL_IMPORT_MAX_ROWS = 10_000;

/**
 * The ExceptionVariables key of CsvRowsInvalid: its value is a JSON array of strings, one for
 * each bad row of the file ("Row 3: …"), in the order of the file.
 */
export const CSV_ROWS_VARIABLE = 'Rows';

/** The bad rows a CsvRowsInvalid fault lists (none when it lists none or is another fault). */
export function csvRowsOf(fault: { ExceptionVariables: readonly { Key: string; Value: string }[] }): string[] {
  const value = fault.ExceptionVariables.find((variable) => variable.Key === CSV_ROWS_VARIABLE)?.Value;
  if (!value) return [];
  try {
    const rows: unknown = JSON.parse(value);
    return Array.isArray(rows) ? rows.filter((row): row is string => typeof row === 'string') : [];
  } catch {
    return [];
  }
}

export const backOfficeQueries = {
  /**
   * `q`: an e-mail prefix, a licence key in full or its last group, a device name or machine id
   * (exact), a storefront order number (`#1001` or `1001`), an invoice tag.
   */
  AdminSearchCustomers: z.object({
    q: z.string().trim().min(CUSTOMER_SEARCH_MIN_LENGTH).max(320),
    by: z.enum(CUSTOMER_SEARCH_KINDS).optional(),
  }),
} as const;

/**
 * The scheduled jobs an admin may run at once (docs/decisions/0051-job-queue.md); the service's
 * job queue defines each under this name.
 */
export const RELEASE_IDLE_SEATS_JOB = 'release-idle-seats';
/** Deletes mail records (and dev outbox mails) past MAIL_LOG_RETENTION_DAYS (ADR 0038). */
export const PURGE_MAIL_LOG_JOB = 'purge-mail-log';
export const SCHEDULED_JOBS = [RELEASE_IDLE_SEATS_JOB, PURGE_MAIL_LOG_JOB, TOKEN_EXPIRY_NOTICES_JOB] as const;
export type ScheduledJob = (typeof SCHEDULED_JOBS)[number];

export const backOfficeCalls = {
  /** Admin: queues a scheduled job now (a replica working the queue takes it within seconds). */
  AdminRunJob: callBody({ name: z.enum(SCHEDULED_JOBS), reason: auditReasonSchema }),
  /** Support: gives a licence its whole deactivation allowance back (the counted ones are forgiven, kept in history). */
  AdminResetDeactivations: callBody({ key: licenseKeySchema, reason: auditReasonSchema }),
  /** Support: a machine reported lost or stolen (and found) may use its licence again; the seat is not given back. */
  AdminUndoLostReport: callBody({ deviceId: z.uuid(), reason: auditReasonSchema }),
  /**
   * Finance: takes tokens back (oldest lots first), never below zero. The reference makes it
   * happen once; used again for another customer or amount it is refused (TokenWithdrawalReferenceReused).
   */
  AdminWithdrawTokens: callBody({
    email: emailSchema,
    amount: z.number().int().positive().max(10_000_000),
    reference: operatorReferenceSchema,
    reason: auditReasonSchema,
  }),
  /**
   * Finance: refunds a card payment through the payment provider (Stripe, or its sandbox); the
   * provider's charge.refunded then takes back what the payment bought (ADR 0032). Without
   * amountInCents, what is left of the payment is refunded. The reference makes it happen once
   * (it is the provider's idempotency key too): the same reference again answers the payment as
   * it stands.
   */
  AdminRefundPayment: callBody({
    invoiceTag: invoiceTagSchema,
    amountInCents: z.number().int().positive().max(100_000_000).optional(),
    reference: operatorReferenceSchema,
    reason: auditReasonSchema,
  }),
  /**
   * Finance: refunds the perpetual licences of a storefront order through the store (Shopify's
   * Admin API refundCreate, or the sandbox store); the store's refunds/create then takes the
   * licences back as for any refund (ADR 0032, 0059). `order` is the order's number (`#1001`)
   * or Shopify's order id, as the customer page shows them. Without quantity, every licence of
   * the order not refunded yet. The reference makes it happen once (it is the store's
   * idempotency key too): the same reference again answers the order as it stands.
   */
  AdminRefundStorefrontOrder: callBody({
    order: storefrontOrderReferenceSchema,
    quantity: z.number().int().positive().max(STOREFRONT_REFUND_MAX_QUANTITY).optional(),
    reference: operatorReferenceSchema,
    reason: auditReasonSchema,
  }),
  /**
   * Admin: campaign serials from a CSV file (one serial per row in the first column; a header
   * row `serial` is allowed). Every bad row is reported (Fault CsvRowsInvalid) and then nothing
   * is imported.
   */
  AdminImportSerials: callBody({ csv: z.string().min(1).max(2_000_000), reason: auditReasonSchema }),
} as const;

export const customerSearchHitSchema = z.object({
  Id: z.string(),
  Email: z.string(),
  Name: z.string().nullable(),
  EmailVerified: z.boolean(),
  CreatedAt: z.string(),
  /** What matched: the kind and the matching value (a key shown by its last group only). */
  MatchedBy: z.enum(CUSTOMER_SEARCH_KINDS),
  Matched: z.string(),
});
export type CustomerSearchHit = z.infer<typeof customerSearchHitSchema>;

const customerSessionSchema = z.object({
  Id: z.string(),
  CreatedAt: z.string(),
  LastSeenAt: z.string(),
  ExpiresAt: z.string(),
  Device: z.string(),
});
const customerDeviceSchema = z.object({
  Id: z.string(),
  Name: z.string(),
  MachineId: z.string(),
  ActivatedAt: z.string(),
  /** Null while the device holds a seat. */
  DeactivatedAt: z.string().nullable(),
  /** Why it left its seat: the customer, support, a refund, lost … (null while active). */
  DeactivationCause: z.string().nullable(),
  /** The customer's lost or stolen report (ADR 0050); `Standing` while the machine is refused, until support undoes it. */
  LostReport: z
    .object({ Reason: z.string(), Note: z.string().nullable(), ReportedAt: z.string(), Standing: z.boolean() })
    .nullable(),
  /** When the app last checked in, and what it said of itself (ADR 0049). */
  LastSeenAt: z.string().nullable(),
  AppVersion: z.string().nullable(),
  Os: z.string().nullable(),
});
const customerLicenceSchema = z.object({
  Product: z.string(),
  KeyEnding: z.string(),
  RegisteredAt: z.string().nullable(),
  Seats: z.number(),
  /** Deactivations counted in the current window, and how many the window allows. */
  DeactivationsUsed: z.number(),
  DeactivationsAllowed: z.number(),
  Devices: z.array(customerDeviceSchema),
  /** Offers to pass one of its keys on that wait for their recipient (ADR 0054); absent when none. */
  PendingTransfers: z
    .array(z.object({ KeyEnding: z.string(), ToEmail: z.string(), CreatedAt: z.string(), ExpiresAt: z.string() }))
    .optional(),
});
const customerTrialSchema = z.object({ Product: z.string(), StartedAt: z.string(), EndsAt: z.string() });
const tokenLotSchema = z.object({
  Source: z.string(),
  Amount: z.number(),
  Remaining: z.number(),
  CreatedAt: z.string(),
  ExpiresAt: z.string(),
  Reference: z.string().nullable(),
});
const tokenUsageSchema = z.object({ At: z.string(), Tokens: z.number(), Seconds: z.number(), Type: z.string() });
const cardPaymentSchema = z.object({
  InvoiceTag: z.string(),
  Item: z.string(),
  AmountInCents: z.number(),
  RefundedInCents: z.number(),
  Currency: z.string(),
  Status: z.string(),
  CreatedAt: z.string(),
});
const customerMailSchema = z.object({ Subject: z.string(), At: z.string(), Status: z.string() });

/** Everything support and finance see of a customer, never a secret (ASVS 8.3.1). */
export const customerPageSchema = z.object({
  SecondFactor: z.object({ Totp: z.boolean(), RecoveryCodesLeft: z.number(), Passkeys: z.number() }),
  Sessions: z.array(customerSessionSchema),
  Licences: z.array(customerLicenceSchema),
  Trials: z.array(customerTrialSchema),
  TokenBalance: z.number(),
  TokenLots: z.array(tokenLotSchema),
  TokenUsage: z.array(tokenUsageSchema),
  CardPayments: z.array(cardPaymentSchema),
  StorefrontOrders: z.array(storefrontOrderSummarySchema),
  Mails: z.array(customerMailSchema),
  Audit: z.array(auditEntrySchema),
});
export type CustomerPage = z.infer<typeof customerPageSchema>;

export const jobSummarySchema = z.object({
  Name: z.string(),
  /** Its cron schedule (UTC), or null for a job queued by the service's own changes (a mail). */
  Schedule: z.string().nullable(),
  /** Jobs waiting, running, and failed for good, as kept (7 days after they end). */
  Queued: z.number(),
  Active: z.number(),
  Failed: z.number(),
  Completed: z.number(),
  /** ISO 8601, the last completion kept; null if none. */
  LastCompletedAt: z.string().nullable(),
});

export const backOfficeResults = {
  AdminJobs: z.object({ Jobs: z.array(jobSummarySchema) }),
  /** JobId null: one was queued or running already (a sweep runs one at a time). */
  AdminRunJob: z.object({ Name: z.string(), JobId: z.string().nullable() }),
  AdminSearchCustomers: z.object({ Customers: z.array(customerSearchHitSchema), More: z.boolean() }),
  AdminResetDeactivations: z.object({ Product: z.string(), KeyEnding: z.string(), Forgiven: z.number() }),
  AdminUndoLostReport: z.object({ Device: z.string(), Product: z.string(), Customer: z.string() }),
  AdminWithdrawTokens: z.object({ Withdrawn: z.boolean(), Amount: z.number(), TokenBalance: z.number() }),
  AdminRefundPayment: z.object({
    InvoiceTag: z.string(),
    RefundedInCents: z.number(),
    AmountInCents: z.number(),
  }),
  /** The order as it stands after the refund: its licences, how many are refunded in all, its status. */
  AdminRefundStorefrontOrder: z.object({
    OrderId: z.string(),
    Name: z.string(),
    Quantity: z.number(),
    RefundedQuantity: z.number(),
    Status: z.enum(STOREFRONT_ORDER_STATUSES),
  }),
  AdminImportSerials: z.object({ Rows: z.number(), Added: z.number(), AlreadyPresent: z.number() }),
} as const;
