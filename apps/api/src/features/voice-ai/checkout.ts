import {
  type KeyValue,
  type PaymentStatusResult,
  POST_CHECKOUT_PATH,
  type PrepareTokenPurchaseCheckoutResult,
  type PurchaseAnalytics,
  TOKEN_BUNDLE_ITEM_CATEGORY,
} from '@soundid/contracts';
import { and, desc, eq, inArray, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config';
import type { Database, Queryable, Transaction } from '../../db/client';
import {
  type CheckoutSessionRow,
  type CheckoutStatus,
  checkoutSessions,
  operatorRefunds,
  type PaymentRefundRow,
  paymentMismatches,
  paymentRefunds,
  paymentWebhookEvents,
  type WebhookOutcome,
} from '../../db/payments-schema';
import type { PaymentEvent } from '../../integrations/stripe';
import type { Clock, Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { TokenLedger } from '../tokens/ledger';
import type { CardCheckout } from './bundles';
import { toCheckoutTokenBundle } from './bundles';
import { receiptPartiesAt } from './receipts';

/** Our keys in the provider's metadata; a client's key of the same name is overridden. */
export const INVOICE_TAG_KEY = 'invoice_tag';

/** What GetPaymentStatus answers for each state (docs/requirements.md §4: 'none' means ask again). */
const PAYMENT_INTENT_STATUS: Record<CheckoutStatus, string> = {
  pending: 'none',
  processing: 'none',
  succeeded: 'succeeded',
  declined: 'requires_payment_method',
  failed: 'requires_payment_method',
  expired: 'canceled',
  mismatched: 'requires_payment_method',
};

export interface WebhookResult {
  EventId: string;
  /** A replay of an event already handled: nothing changed. */
  Duplicate: boolean;
  Outcome: WebhookOutcome;
}

interface EventEffect {
  outcome: WebhookOutcome;
  invoiceTag?: string;
  reason?: string;
}

/** A refund finance asked for, as the provider made it, for the audit entry. */
export interface OperatorRefund {
  userId: string;
  refundId: string;
  reference: string;
  amountInCents: number;
  refundedBeforeInCents: number;
  refundedInCents: number;
  chargedInCents: number;
  currency: string;
  /** Tokens taken back from the payment's lot so far (its refunds, this one included). */
  tokensWithdrawn: number;
}

export interface CheckoutServiceDeps {
  db: Database;
  clock: Clock;
  random: Random;
  config: Config;
  ledger: TokenLedger;
  checkout: CardCheckout | undefined;
  log: FastifyBaseLogger;
  /** Before a webhook's transaction: makes ready what onPaid needs (the job queue started). */
  prepare?(): Promise<void>;
  /**
   * Called in the transaction that credits a payment: queues the purchase mail with its receipt
   * (ADR 0058), so that it goes if and only if the payment was credited.
   */
  onPaid?(tx: Transaction, paid: { invoiceTag: string; userId: string }): Promise<void>;
}

/**
 * Card checkout of token bundles. Sessions are prepared here; they are fulfilled only by
 * signed webhook events (Stripe's, or the sandbox's built the same way), each event id once,
 * the status change and the ledger credit in the transaction that records the event.
 */
export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceDeps) {}

  private get checkout(): CardCheckout {
    if (!this.deps.checkout) throw new Fault('CheckoutUnavailable');
    return this.deps.checkout;
  }

  async prepare(
    user: { id: string; email: string },
    request: { priceId: string; metadata?: KeyValue[]; returnUrl?: string },
  ): Promise<PrepareTokenPurchaseCheckoutResult> {
    const { provider, catalogue } = this.checkout;
    const price = await catalogue.find(request.priceId);
    if (!price) throw new Fault('PriceNotFound', { PriceId: request.priceId });

    const now = this.deps.clock.now();
    const invoiceTag = `inv_${this.deps.random.bytes(18).toString('base64url')}`;
    const returnUrl = resolveReturnUrl(request.returnUrl, this.deps.config, invoiceTag);
    const analyticsMetadata = Object.fromEntries((request.metadata ?? []).map((entry) => [entry.Key, entry.Value]));
    const created = await provider.createSession({
      invoiceTag,
      price,
      customerEmail: user.email,
      metadata: { ...analyticsMetadata, [INVOICE_TAG_KEY]: invoiceTag, soundid_tokens: String(price.tokens) },
      returnUrl,
      now,
    });
    await this.deps.db.insert(checkoutSessions).values({
      invoiceTag,
      userId: user.id,
      priceId: price.priceId,
      bundleTitle: price.title,
      tokenAmount: price.tokens,
      amountInCents: price.amountInCents,
      currency: price.currency,
      provider: provider.kind,
      providerSessionId: created.sessionId,
      clientSecretHash: created.clientSecretHash ?? null,
      analyticsMetadata,
      returnUrl,
      createdAt: now,
      expiresAt: created.expiresAt,
    });
    return {
      CheckoutSession: created.clientSecret,
      InvoiceTag: invoiceTag,
      StripePublicKey: provider.publishableKey,
      TokenBundle: toCheckoutTokenBundle(price),
    };
  }

  /** The owner's payment only; another customer's invoice tag is not found. */
  async paymentStatus(userId: string, invoiceTag: string): Promise<PaymentStatusResult> {
    const [row] = await this.deps.db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.invoiceTag, invoiceTag), eq(checkoutSessions.userId, userId)))
      .limit(1);
    if (!row) throw new Fault('PaymentNotFound');
    const isLapsed = row.status === 'pending' && row.expiresAt <= this.deps.clock.now();
    return {
      PaymentIntentStatus: isLapsed ? 'canceled' : PAYMENT_INTENT_STATUS[row.status],
      AnalyticsMetadata: row.status === 'succeeded' ? { ...purchaseAnalytics(row) } : null,
    };
  }

  /** Verifies and applies one webhook delivery; a replayed event id changes nothing. */
  async handleWebhook(rawBody: Buffer, signatureHeader: string | undefined): Promise<WebhookResult> {
    const { provider } = this.checkout;
    const receivedAt = this.deps.clock.now();
    const event = provider.verifyWebhook(rawBody, signatureHeader, receivedAt);
    await this.deps.prepare?.();
    try {
      return await this.deps.db.transaction(async (tx) => {
        // Claims the event id; a concurrent delivery of the same event waits here on the key
        // and then finds it taken. An event whose handling failed earlier may be claimed again.
        const claimed = await tx
          .insert(paymentWebhookEvents)
          .values({ eventId: event.id, provider: provider.kind, type: event.type, outcome: 'processing', receivedAt })
          .onConflictDoUpdate({
            target: paymentWebhookEvents.eventId,
            set: { outcome: 'processing', attempts: sql`${paymentWebhookEvents.attempts} + 1`, receivedAt },
            setWhere: eq(paymentWebhookEvents.outcome, 'error'),
          })
          .returning({ eventId: paymentWebhookEvents.eventId });
        if (claimed.length === 0) {
          const [prior] = await tx
            .select({ outcome: paymentWebhookEvents.outcome })
            .from(paymentWebhookEvents)
            .where(eq(paymentWebhookEvents.eventId, event.id));
          return { EventId: event.id, Duplicate: true, Outcome: prior?.outcome ?? 'ignored' };
        }
        const effect = await this.applyEvent(tx, event);
        await tx
          .update(paymentWebhookEvents)
          .set({ outcome: effect.outcome, invoiceTag: effect.invoiceTag ?? null, failureReason: effect.reason ?? null })
          .where(eq(paymentWebhookEvents.eventId, event.id));
        return { EventId: event.id, Duplicate: false, Outcome: effect.outcome };
      });
    } catch (error) {
      this.deps.log.error({ err: error, eventId: event.id, type: event.type }, 'payment webhook failed');
      await this.recordEventError(event, provider.kind, receivedAt, error);
      throw error instanceof Fault ? error : new Fault('ServiceUnavailable');
    }
  }

  private async applyEvent(tx: Transaction, event: PaymentEvent): Promise<EventEffect> {
    const object = event.data.object;
    switch (event.type) {
      case 'checkout.session.completed':
      case 'checkout.session.async_payment_succeeded':
      case 'checkout.session.async_payment_failed':
      case 'checkout.session.expired': {
        // A refund of this payment may be handled at the same moment: one at a time per payment.
        const paymentIntent = text(object.payment_intent);
        if (paymentIntent) await lockPayment(tx, paymentIntent);
        const row = await this.lockSession(tx, eq(checkoutSessions.providerSessionId, text(object.id) ?? ''));
        if (!row) return { outcome: 'ignored', reason: 'unknown_session' };
        if (event.type === 'checkout.session.expired') {
          return this.transition(tx, row, 'expired', ['pending', 'declined'], { reason: 'expired' });
        }
        if (event.type === 'checkout.session.async_payment_failed') {
          return this.transition(tx, row, 'failed', ['pending', 'processing', 'declined'], {
            reason: 'async_payment_failed',
          });
        }
        const paymentStatus = text(object.payment_status);
        const isPaid =
          event.type === 'checkout.session.async_payment_succeeded' ||
          paymentStatus === 'paid' ||
          paymentStatus === 'no_payment_required';
        const paymentIntentId = text(object.payment_intent);
        if (!isPaid) return this.transition(tx, row, 'processing', ['pending', 'declined'], { paymentIntentId });
        return this.fulfil(tx, event.id, row, paymentIntentId, object);
      }
      case 'charge.refunded':
        return this.refund(tx, event.id, object);
      case 'payment_intent.payment_failed': {
        const invoiceTag = text(record(object.metadata)?.[INVOICE_TAG_KEY]);
        if (!invoiceTag) return { outcome: 'ignored', reason: 'unknown_session' };
        const row = await this.lockSession(tx, eq(checkoutSessions.invoiceTag, invoiceTag));
        if (!row) return { outcome: 'ignored', reason: 'unknown_session' };
        const error = record(object.last_payment_error);
        const reason = text(error?.decline_code) ?? text(error?.code) ?? 'payment_failed';
        return this.transition(tx, row, 'declined', ['pending', 'declined'], {
          reason,
          paymentIntentId: text(object.id),
        });
      }
      default:
        return { outcome: 'ignored', reason: 'unhandled_type' };
    }
  }

  /**
   * Marks the session paid and credits its tokens, once: the ledger keys the lot on the invoice
   * tag. Only a payment of exactly the amount and currency fixed on the session credits (ASVS
   * 2.2.3, 2.3.1): anything else is recorded as a mismatch for operators and credits nothing.
   */
  private async fulfil(
    tx: Transaction,
    eventId: string,
    row: CheckoutSessionRow,
    paymentIntentId: string | undefined,
    object: Record<string, unknown>,
  ): Promise<EventEffect> {
    if (row.status === 'succeeded') return { outcome: 'ignored', invoiceTag: row.invoiceTag, reason: 'already_paid' };
    if (row.status === 'mismatched')
      return { outcome: 'ignored', invoiceTag: row.invoiceTag, reason: 'status_mismatched' };
    const now = this.deps.clock.now();
    const received = paidAmount(object);
    if (received.amountInCents !== row.amountInCents || received.currency !== row.currency) {
      await tx
        .update(checkoutSessions)
        .set({
          status: 'mismatched',
          completedAt: now,
          failureReason: 'amount_mismatch',
          paymentIntentId: paymentIntentId ?? row.paymentIntentId,
        })
        .where(eq(checkoutSessions.invoiceTag, row.invoiceTag));
      await tx
        .insert(paymentMismatches)
        .values({
          provider: row.provider,
          eventId,
          invoiceTag: row.invoiceTag,
          userId: row.userId,
          expectedAmountInCents: row.amountInCents,
          expectedCurrency: row.currency,
          receivedAmountInCents: received.amountInCents ?? null,
          receivedCurrency: received.currency ?? null,
          recordedAt: now,
        })
        .onConflictDoNothing();
      this.deps.log.warn(
        { invoiceTag: row.invoiceTag, eventId, expected: [row.amountInCents, row.currency], received },
        'checkout paid another amount or currency than offered: not credited',
      );
      return {
        outcome: 'mismatched',
        invoiceTag: row.invoiceTag,
        reason: `paid ${received.amountInCents ?? '?'} ${received.currency ?? '?'}`,
      };
    }
    const paidWith = paymentIntentId ?? row.paymentIntentId;
    const receiptParties = await receiptPartiesAt(tx, this.deps.config.seller, row.userId);
    await tx
      .update(checkoutSessions)
      .set({ status: 'succeeded', completedAt: now, failureReason: null, paymentIntentId: paidWith, receiptParties })
      .where(eq(checkoutSessions.invoiceTag, row.invoiceTag));
    const credited = await this.deps.ledger.credit(tx, {
      userId: row.userId,
      amount: row.tokenAmount,
      cause: 'purchase',
      sourceRef: lotSourceOf(row),
    });
    // A refund that arrived before this credit was kept; it applies now, in the same transaction.
    const [refund] = paidWith
      ? await tx.select().from(paymentRefunds).where(eq(paymentRefunds.paymentIntentId, paidWith)).for('update')
      : [];
    if (credited) await this.deps.onPaid?.(tx, { invoiceTag: row.invoiceTag, userId: row.userId });
    if (refund) {
      const applied = await this.applyRefund(tx, { ...row, status: 'succeeded' }, refund);
      return { ...applied, outcome: credited ? 'credited' : applied.outcome };
    }
    return { outcome: credited ? 'credited' : 'recorded', invoiceTag: row.invoiceTag };
  }

  /**
   * charge.refunded: the payment's refunded amount (cumulative, so the largest seen counts and an
   * older event arriving late changes nothing) is kept by payment intent, then applied to the lot
   * the payment credited. Before that credit it waits, and the credit applies it (ADR 0032).
   */
  private async refund(tx: Transaction, eventId: string, object: Record<string, unknown>): Promise<EventEffect> {
    const paymentIntentId = text(object.payment_intent);
    const charged = wholeCents(object.amount);
    const refunded = wholeCents(object.amount_refunded);
    const currency = currencyOf(object.currency);
    // Input validation of what the signed event says (ASVS 2.2.1): a shape we do not expect changes nothing.
    if (
      !paymentIntentId ||
      paymentIntentId.length > 255 ||
      charged === undefined ||
      refunded === undefined ||
      !currency
    ) {
      return { outcome: 'ignored', reason: 'unreadable_refund' };
    }
    if (refunded > charged) return { outcome: 'ignored', reason: 'refund_over_amount' };
    return this.keepRefund(tx, eventId, { paymentIntentId, charged, refunded, currency });
  }

  /**
   * A payment's refunded amount as the provider reported it (its webhook, or its answer to our
   * own refund): kept by payment intent, the largest seen, then applied to the lot the payment
   * credited; before that credit it waits (ADR 0032). `source` names what reported it.
   */
  private async keepRefund(
    tx: Transaction,
    source: string,
    refund: { paymentIntentId: string; charged: number; refunded: number; currency: string },
  ): Promise<EventEffect> {
    const { paymentIntentId, charged, refunded, currency } = refund;
    await lockPayment(tx, paymentIntentId);
    const now = this.deps.clock.now();
    const [kept] = await tx
      .insert(paymentRefunds)
      .values({
        paymentIntentId,
        provider: this.checkout.provider.kind,
        refundedInCents: refunded,
        chargedInCents: charged,
        currency,
        lastEventId: source,
        receivedAt: now,
      })
      .onConflictDoUpdate({
        target: paymentRefunds.paymentIntentId,
        set: {
          refundedInCents: sql`greatest(${paymentRefunds.refundedInCents}, excluded.refunded_in_cents)`,
          lastEventId: source,
          receivedAt: now,
        },
      })
      .returning();
    if (!kept) throw new Error(`refund of ${paymentIntentId} not kept`);
    const row = await this.lockSession(tx, eq(checkoutSessions.paymentIntentId, paymentIntentId));
    if (!row) return { outcome: 'recorded', reason: 'refund_before_payment' };
    return this.applyRefund(tx, row, kept);
  }

  /**
   * Finance refunds a card payment (AdminRefundPayment, ADR 0032): through the provider, which
   * refunds it and then sends its charge.refunded as for any refund. Without an amount, what is
   * left. Once per reference: the operator's, else one made of what was refunded before and the
   * amount (so a retry or a double click that the first has not answered yet refunds once too);
   * it is also the provider's idempotency key. What the provider answers is kept and applied at
   * once (the lot's tokens taken back; its webhook then finds it done), in the transaction of
   * the audit entry that `record` writes.
   */
  async refundPayment(
    request: { invoiceTag: string; amountInCents?: number | undefined; reference: string },
    operator: { id: string; email: string },
    record: (tx: Transaction, refunded: OperatorRefund) => Promise<void>,
  ): Promise<{ InvoiceTag: string; RefundedInCents: number; AmountInCents: number }> {
    const { provider } = this.checkout;
    const { db } = this.deps;
    const [row] = await db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.provider, provider.kind), eq(checkoutSessions.invoiceTag, request.invoiceTag)))
      .limit(1);
    if (!row) throw new Fault('PaymentNotFound');
    const paymentIntentId = row.paymentIntentId;
    if (!paymentIntentId || (row.status !== 'succeeded' && row.status !== 'mismatched')) {
      throw new Fault('PaymentNotPaid');
    }
    const charged = await chargedAmountOf(db, row);
    const refundedNow = async (tx: Queryable) =>
      (
        await tx
          .select({ refunded: paymentRefunds.refundedInCents })
          .from(paymentRefunds)
          .where(eq(paymentRefunds.paymentIntentId, paymentIntentId))
      )[0]?.refunded ?? 0;
    const answer = (refunded: number) => ({
      InvoiceTag: row.invoiceTag,
      RefundedInCents: refunded,
      AmountInCents: charged,
    });
    const { reference } = request;
    const [made] = await db
      .select({ id: operatorRefunds.id })
      .from(operatorRefunds)
      .where(and(eq(operatorRefunds.invoiceTag, row.invoiceTag), eq(operatorRefunds.reference, reference)));
    if (made) return answer(await refundedNow(db));
    const before = await refundedNow(db);
    const amount = request.amountInCents ?? charged - before;
    if (amount <= 0 || before + amount > charged) {
      throw new Fault('PaymentRefundInvalid', { RefundableInCents: String(Math.max(0, charged - before)) });
    }
    const refund = await provider.refund({
      paymentIntentId,
      amountInCents: amount,
      idempotencyKey: `refund-${row.invoiceTag}-${reference}`,
      metadata: { [INVOICE_TAG_KEY]: row.invoiceTag, operator: operator.email },
    });
    return db.transaction(async (tx) => {
      await this.keepRefund(tx, `refund:${refund.refundId}`, {
        paymentIntentId,
        charged: refund.chargedInCents,
        refunded: refund.refundedInCents,
        currency: refund.currency,
      });
      // The same reference at once: the provider made one refund; the first to get here audits it.
      const [written] = await tx
        .insert(operatorRefunds)
        .values({
          invoiceTag: row.invoiceTag,
          reference,
          refundId: refund.refundId,
          amountInCents: refund.amountInCents,
          refundedInCents: refund.refundedInCents,
          operatorId: operator.id,
          createdAt: this.deps.clock.now(),
        })
        .onConflictDoNothing()
        .returning({ id: operatorRefunds.id });
      if (written) {
        const [kept] = await tx
          .select({ tokensWithdrawn: paymentRefunds.tokensWithdrawn })
          .from(paymentRefunds)
          .where(eq(paymentRefunds.paymentIntentId, paymentIntentId));
        await record(tx, {
          userId: row.userId,
          refundId: refund.refundId,
          reference,
          amountInCents: refund.amountInCents,
          refundedBeforeInCents: before,
          refundedInCents: refund.refundedInCents,
          chargedInCents: refund.chargedInCents,
          currency: refund.currency,
          tokensWithdrawn: kept?.tokensWithdrawn ?? 0,
        });
      }
      return answer(await refundedNow(tx));
    });
  }

  /** What the payment charged: the session's price, or what a mismatched payment paid instead. */

  /**
   * Takes back from the session's lot what the refunded fraction of its price calls for:
   * all its tokens for a full refund, floor(tokens × refunded / paid) for a partial one, never
   * more than the lot still holds (the spent part is recorded, the balance never below zero).
   */
  private async applyRefund(tx: Transaction, row: CheckoutSessionRow, refund: PaymentRefundRow): Promise<EventEffect> {
    const invoiceTag = row.invoiceTag;
    if (row.status !== 'succeeded') {
      await tx
        .update(paymentRefunds)
        .set({ invoiceTag })
        .where(eq(paymentRefunds.paymentIntentId, refund.paymentIntentId));
      return { outcome: 'recorded', invoiceTag, reason: `refund_not_credited_${row.status}` };
    }
    if (refund.currency !== row.currency) return { outcome: 'ignored', invoiceTag, reason: 'refund_currency_mismatch' };
    const target =
      refund.refundedInCents >= row.amountInCents
        ? row.tokenAmount
        : Math.floor((row.tokenAmount * refund.refundedInCents) / row.amountInCents);
    const withdrawal = await this.deps.ledger.withdraw(tx, row.userId, lotSourceOf(row), target);
    if (!withdrawal) return { outcome: 'ignored', invoiceTag, reason: 'no_lot' };
    await tx
      .update(paymentRefunds)
      .set({
        invoiceTag,
        tokensWithdrawn: withdrawal.withdrawnTotal,
        tokensSpent: withdrawal.spent,
        appliedAt: this.deps.clock.now(),
      })
      .where(eq(paymentRefunds.paymentIntentId, refund.paymentIntentId));
    return {
      outcome: withdrawal.withdrawn > 0 ? 'withdrawn' : 'recorded',
      invoiceTag,
      reason: `refunded ${refund.refundedInCents}/${row.amountInCents}: ${withdrawal.withdrawn} withdrawn, ${withdrawal.spent} spent before`,
    };
  }

  /** A status change allowed only from the listed states; anything else is recorded as ignored. */
  private async transition(
    tx: Transaction,
    row: CheckoutSessionRow,
    to: CheckoutStatus,
    from: CheckoutStatus[],
    details: { reason?: string; paymentIntentId?: string | undefined },
  ): Promise<EventEffect> {
    if (!from.includes(row.status)) {
      return { outcome: 'ignored', invoiceTag: row.invoiceTag, reason: `status_${row.status}` };
    }
    await tx
      .update(checkoutSessions)
      .set({
        status: to,
        failureReason: details.reason ?? null,
        paymentIntentId: row.paymentIntentId ?? details.paymentIntentId ?? null,
        ...(to === 'failed' || to === 'expired' ? { completedAt: this.deps.clock.now() } : {}),
      })
      .where(and(eq(checkoutSessions.invoiceTag, row.invoiceTag), inArray(checkoutSessions.status, from)));
    return { outcome: 'recorded', invoiceTag: row.invoiceTag, ...(details.reason ? { reason: details.reason } : {}) };
  }

  /** The session an event is about, locked for the rest of the transaction; this provider's only. */
  private async lockSession(tx: Transaction, match: ReturnType<typeof eq>): Promise<CheckoutSessionRow | undefined> {
    const [row] = await tx
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.provider, this.checkout.provider.kind), match))
      .limit(1)
      .for('update');
    return row;
  }

  /** After a failed attempt: remembered as an error, so that Stripe's retry may claim it again. */
  private async recordEventError(
    event: PaymentEvent,
    provider: CheckoutSessionRow['provider'],
    receivedAt: Date,
    error: unknown,
  ): Promise<void> {
    const reason = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    try {
      await this.deps.db
        .insert(paymentWebhookEvents)
        .values({ eventId: event.id, provider, type: event.type, outcome: 'error', failureReason: reason, receivedAt })
        .onConflictDoUpdate({
          target: paymentWebhookEvents.eventId,
          set: { failureReason: reason, receivedAt },
          setWhere: eq(paymentWebhookEvents.outcome, 'error'),
        });
    } catch (recordError) {
      this.deps.log.error({ err: recordError, eventId: event.id }, 'payment webhook error not recorded');
    }
  }
}

/** A refund of a payment that was never paid (nothing to give back). */
/**
 * What a payment charged: its checkout's price, or for a payment that did not match its checkout
 * what the provider received (ADR 0032). Refunds are bounded by it, here and in the sandbox.
 */
export async function chargedAmountOf(db: Queryable, row: CheckoutSessionRow): Promise<number> {
  if (row.status !== 'mismatched') return row.amountInCents;
  const [mismatch] = await db
    .select({ received: paymentMismatches.receivedAmountInCents })
    .from(paymentMismatches)
    .where(eq(paymentMismatches.invoiceTag, row.invoiceTag))
    .orderBy(desc(paymentMismatches.recordedAt))
    .limit(1);
  return mismatch?.received ?? row.amountInCents;
}

/**
 * The return URL of the payment provider. The SPA sends one only when it is not on the main
 * production host; it must then be on PUBLIC_URL's origin (outside production, localhost on
 * any port too, for the Vite dev server). Anything else is refused: no open redirect.
 */
export function resolveReturnUrl(requested: string | undefined, config: Config, invoiceTag: string): string {
  const base = requested ?? `${config.publicUrl}${POST_CHECKOUT_PATH}`;
  if (!URL.canParse(base)) throw new Fault('CheckoutReturnUrlNotAllowed');
  const url = new URL(base);
  if (requested && !isAllowedReturnUrl(url, config)) throw new Fault('CheckoutReturnUrlNotAllowed');
  url.hash = '';
  url.searchParams.set('invoice_tag', invoiceTag);
  // Stripe fills in the session id; the braces must stay unencoded.
  return `${url.toString()}&session_id={CHECKOUT_SESSION_ID}`;
}

function isAllowedReturnUrl(url: URL, config: Config): boolean {
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return false;
  if (url.username || url.password) return false;
  if (url.origin === new URL(config.publicUrl).origin) return true;
  return !config.isProduction && ['localhost', '127.0.0.1', '[::1]'].includes(url.hostname);
}

/** The data layer's purchase event (docs/requirements.md §7: price in units with 2 decimals, item category One-off). */
function purchaseAnalytics(row: CheckoutSessionRow): PurchaseAnalytics {
  const value = Number((row.amountInCents / 100).toFixed(2));
  return {
    TransactionId: row.invoiceTag,
    Value: value,
    Currency: row.currency,
    Items: [
      {
        ItemId: row.priceId,
        ItemName: row.bundleTitle,
        Price: value,
        ItemCategory: TOKEN_BUNDLE_ITEM_CATEGORY,
        Quantity: 1,
      },
    ],
  };
}

const LOT_SOURCE_PREFIX = 'checkout:';

/** The lot a checkout credits (one per payment, whatever the events). */
function lotSourceOf(row: CheckoutSessionRow): string {
  return `${LOT_SOURCE_PREFIX}${row.invoiceTag}`;
}

/** The invoice tag of the checkout that credited a lot, by the lot's source; none for grants and trials. */
export function invoiceTagOfLot(sourceRef: string): string | undefined {
  return sourceRef.startsWith(LOT_SOURCE_PREFIX) ? sourceRef.slice(LOT_SOURCE_PREFIX.length) : undefined;
}

/**
 * One payment's webhook effects at a time (the completion that credits and the refunds that
 * withdraw), even before the payment's session is known: a transaction-scoped lock on its id.
 */
async function lockPayment(tx: Transaction, paymentIntentId: string): Promise<void> {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`payment:${paymentIntentId}`}, 0))`);
}

/** What a Checkout Session event says was paid (Stripe: amount_total in cents, currency lower-case). */
function paidAmount(object: Record<string, unknown>): { amountInCents?: number; currency?: string } {
  const amountInCents = wholeCents(object.amount_total);
  const currency = currencyOf(object.currency);
  return { ...(amountInCents === undefined ? {} : { amountInCents }), ...(currency ? { currency } : {}) };
}

function wholeCents(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0 ? value : undefined;
}

/** ISO 4217, upper case, as the session keeps it. */
function currencyOf(value: unknown): string | undefined {
  return typeof value === 'string' && /^[a-zA-Z]{3}$/.test(value) ? value.toUpperCase() : undefined;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

function record(value: unknown): Record<string, unknown> | undefined {
  return value && typeof value === 'object' ? (value as Record<string, unknown>) : undefined;
}
