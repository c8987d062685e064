import { sql } from 'drizzle-orm';
import { check, index, integer, jsonb, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';
import { users } from './schema';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const CHECKOUT_PROVIDERS = ['stripe', 'sandbox'] as const;
export type CheckoutProviderKind = (typeof CHECKOUT_PROVIDERS)[number];

/**
 * pending: open, not paid · processing: completed, an asynchronous payment still clearing ·
 * declined: a payment attempt was refused (the customer may try another card) ·
 * succeeded: paid and credited (final) · failed: the asynchronous payment failed ·
 * expired: the session closed unpaid · mismatched: paid, but not the amount or currency offered:
 * nothing credited, the mismatch recorded for operators (final, ADR 0032).
 */
export const CHECKOUT_STATUSES = [
  'pending',
  'processing',
  'declined',
  'succeeded',
  'failed',
  'expired',
  'mismatched',
] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

/** Who sold and who bought, as a receipt prints them. */
export interface ReceiptParties {
  seller: { name: string; address: string[]; taxId?: string };
  buyer: { email: string; address: string[] };
}

/** One card checkout of a token bundle: what was offered, to whom, and how it ended. */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    /** Random and unguessable; the SPA's post-checkout screen asks by it. */
    invoiceTag: text('invoice_tag').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    priceId: text('price_id').notNull(),
    bundleTitle: text('bundle_title').notNull(),
    tokenAmount: integer('token_amount').notNull(),
    amountInCents: integer('amount_in_cents').notNull(),
    /** ISO 4217, upper case. */
    currency: text('currency').notNull(),
    provider: text('provider').$type<CheckoutProviderKind>().notNull(),
    providerSessionId: text('provider_session_id').notNull(),
    /** Sandbox only: SHA-256 of the client secret, which is what pays the session. */
    clientSecretHash: text('client_secret_hash'),
    paymentIntentId: text('payment_intent_id'),
    status: text('status').$type<CheckoutStatus>().notNull().default('pending'),
    /** Decline code or failure reason of the latest failed attempt. */
    failureReason: text('failure_reason'),
    /** The analytics and affiliate identifiers the SPA sent (cookie values), as Key → Value. */
    analyticsMetadata: jsonb('analytics_metadata').$type<Record<string, string>>().notNull().default({}),
    returnUrl: text('return_url').notNull(),
    createdAt: ts('created_at').notNull(),
    expiresAt: ts('expires_at').notNull(),
    completedAt: ts('completed_at'),
    /**
     * Seller and buyer as they stood when the payment was credited, so that the receipt of that
     * payment never changes (docs/decisions/0058-receipts.md, addendum). Null before it is paid,
     * and on payments credited before the column existed (their receipt reads today's).
     */
    receiptParties: jsonb('receipt_parties').$type<ReceiptParties>(),
  },
  (t) => [
    uniqueIndex('checkout_sessions_provider_session_key').on(t.provider, t.providerSessionId),
    index('checkout_sessions_user_idx').on(t.userId, t.createdAt),
    check('checkout_sessions_amounts_positive', sql`${t.tokenAmount} > 0 and ${t.amountInCents} >= 0`),
  ],
);

export const WEBHOOK_OUTCOMES = [
  'processing',
  'credited',
  'recorded',
  'ignored',
  'error',
  'mismatched',
  'withdrawn',
] as const;
export type WebhookOutcome = (typeof WEBHOOK_OUTCOMES)[number];

/**
 * Every payment webhook event handled, by event id: a delivery whose id is here (and did not
 * end in an error) is a replay and changes nothing. Written in the transaction of its effect.
 */
export const paymentWebhookEvents = pgTable(
  'payment_webhook_events',
  {
    eventId: text('event_id').primaryKey(),
    provider: text('provider').$type<CheckoutProviderKind>().notNull(),
    type: text('type').notNull(),
    invoiceTag: text('invoice_tag'),
    /**
     * credited: tokens added · recorded: a status change (or a refund kept for later) · ignored:
     * nothing of ours · error: retry allowed · mismatched: paid amount or currency not as offered,
     * nothing credited · withdrawn: a refund applied to the lot it paid for.
     */
    outcome: text('outcome').$type<WebhookOutcome>().notNull(),
    failureReason: text('failure_reason'),
    attempts: integer('attempts').notNull().default(1),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [index('payment_webhook_events_invoice_idx').on(t.invoiceTag)],
);

/**
 * A payment that completed a checkout with another amount or currency than the session offered
 * (ADR 0032): nothing was credited; operators see it with `npm run admin -- payment-mismatches`.
 */
export const paymentMismatches = pgTable(
  'payment_mismatches',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    provider: text('provider').$type<CheckoutProviderKind>().notNull(),
    /** The webhook event that reported the payment. */
    eventId: text('event_id').notNull(),
    invoiceTag: text('invoice_tag').notNull(),
    /** The customer who opened the session (null after the account's deletion). */
    userId: uuid('user_id').references(() => users.id, { onDelete: 'set null' }),
    expectedAmountInCents: integer('expected_amount_in_cents').notNull(),
    /** ISO 4217, upper case. */
    expectedCurrency: text('expected_currency').notNull(),
    /** What the event says was paid; null when it did not say. */
    receivedAmountInCents: integer('received_amount_in_cents'),
    receivedCurrency: text('received_currency'),
    recordedAt: ts('recorded_at').notNull(),
  },
  (t) => [
    uniqueIndex('payment_mismatches_event_key').on(t.eventId),
    index('payment_mismatches_recorded_idx').on(t.recordedAt),
  ],
);

/**
 * The refunds of one card payment (Stripe's charge.refunded, by payment intent): the refunded
 * amount only grows, whatever order the events arrive in. A refund that arrives before the
 * payment's credit waits here (invoice_tag null, applied_at null) and is applied with the credit.
 */
export const paymentRefunds = pgTable('payment_refunds', {
  /** The provider's payment intent id. */
  paymentIntentId: text('payment_intent_id').primaryKey(),
  provider: text('provider').$type<CheckoutProviderKind>().notNull(),
  /** The checkout session once known. */
  invoiceTag: text('invoice_tag'),
  /** Cumulative refunded amount (the largest the events reported). */
  refundedInCents: integer('refunded_in_cents').notNull(),
  /** The charge's amount and currency as the refund event gave them. */
  chargedInCents: integer('charged_in_cents').notNull(),
  currency: text('currency').notNull(),
  /** Tokens taken back from the lot so far. */
  tokensWithdrawn: integer('tokens_withdrawn').notNull().default(0),
  /** Tokens of the lot already spent when the refund was last applied (not recoverable). */
  tokensSpent: integer('tokens_spent'),
  /** The last webhook event that reported it, or `refund:<id>`: the provider's answer to AdminRefundPayment. */
  lastEventId: text('last_event_id').notNull(),
  receivedAt: ts('received_at').notNull(),
  appliedAt: ts('applied_at'),
});

/**
 * The refunds finance asked the provider for (AdminRefundPayment), one per payment and
 * reference: the same reference again refunds nothing more. What they did to the payment is in
 * payment_refunds, as for any refund.
 */
export const operatorRefunds = pgTable(
  'operator_refunds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    invoiceTag: text('invoice_tag').notNull(),
    /** The operator's reference, or one made of what was refunded before and the amount. */
    reference: text('reference').notNull(),
    /** The provider's refund id. */
    refundId: text('refund_id').notNull(),
    amountInCents: integer('amount_in_cents').notNull(),
    /** The payment's refunded amount after it. */
    refundedInCents: integer('refunded_in_cents').notNull(),
    operatorId: uuid('operator_id'),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [uniqueIndex('operator_refunds_reference_key').on(t.invoiceTag, t.reference)],
);

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
export type PaymentRefundRow = typeof paymentRefunds.$inferSelect;
