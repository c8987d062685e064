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
 * expired: the session closed unpaid.
 */
export const CHECKOUT_STATUSES = ['pending', 'processing', 'declined', 'succeeded', 'failed', 'expired'] as const;
export type CheckoutStatus = (typeof CHECKOUT_STATUSES)[number];

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
  },
  (t) => [
    uniqueIndex('checkout_sessions_provider_session_key').on(t.provider, t.providerSessionId),
    index('checkout_sessions_user_idx').on(t.userId, t.createdAt),
    check('checkout_sessions_amounts_positive', sql`${t.tokenAmount} > 0 and ${t.amountInCents} >= 0`),
  ],
);

export const WEBHOOK_OUTCOMES = ['processing', 'credited', 'recorded', 'ignored', 'error'] as const;
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
    /** credited: tokens added · recorded: a status change · ignored: nothing of ours · error: retry allowed. */
    outcome: text('outcome').$type<WebhookOutcome>().notNull(),
    failureReason: text('failure_reason'),
    attempts: integer('attempts').notNull().default(1),
    receivedAt: ts('received_at').notNull(),
  },
  (t) => [index('payment_webhook_events_invoice_idx').on(t.invoiceTag)],
);

export type CheckoutSessionRow = typeof checkoutSessions.$inferSelect;
