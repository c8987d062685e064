import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { SANDBOX_PUBLISHABLE_KEY_PREFIX } from '@soundid/contracts';
import { and, eq, ne } from 'drizzle-orm';
import Stripe from 'stripe';
import type { Database } from '../../db/client';
import {
  type CheckoutSessionRow,
  checkoutSessions,
  paymentRefunds,
  paymentWebhookEvents,
} from '../../db/payments-schema';
import { chargedAmountOf } from '../../features/voice-ai/checkout';
import { verifyStripeSignature } from '../../integrations/stripe/stripe-provider';
import type {
  BundlePrice,
  CheckoutProvider,
  CreateCheckoutSessionInput,
  CreatedCheckoutSession,
  PaymentEvent,
  ProviderRefund,
  RefundRequest,
} from '../../integrations/stripe/types';
import type { Clock, Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';

/** Sandbox sessions stay open as long as Stripe's (24 hours). */
const SESSION_LIFETIME_MS = 24 * 60 * 60 * 1000;

/** Stripe's public test cards that succeed (cards.stripe docs, "Testing"). */
const SUCCEEDING_CARDS = new Set([
  '4242424242424242',
  '4000056655665556',
  '5555555555554444',
  '2223003122003222',
  '5200828282828210',
  '378282246310005',
  '6011111111111117',
]);

/** Stripe's public test cards that are declined, with their decline code. */
const DECLINED_CARDS: Record<string, string> = {
  '4000000000000002': 'generic_decline',
  '4000000000009995': 'insufficient_funds',
  '4000000000009987': 'lost_card',
  '4000000000009979': 'stolen_card',
  '4000000000000069': 'expired_card',
  '4000000000000127': 'incorrect_cvc',
};

export type CardOutcome = { outcome: 'succeeded' } | { outcome: 'declined'; declineCode: string };

export interface SandboxProviderOptions {
  prices: BundlePrice[];
  webhookSecret: string;
  random: Random;
}

/**
 * What the sandbox's card processor reads and where it delivers (connected once the webhook
 * handler exists): its payments live in this service's database, and its events go to the
 * card checkout's webhook handler, signed as Stripe signs them.
 */
export interface SandboxProcessor {
  db: Database;
  clock: Clock;
  deliver(rawBody: Buffer, signature: string): Promise<unknown>;
}

/**
 * The built-in stand-in for Stripe when STRIPE_* is not set (never in production): sessions
 * live in this service, the card form takes Stripe's public test cards, and the outcome is
 * delivered as a Stripe-shaped event signed like Stripe signs it, to the same webhook handler.
 */
export class SandboxCheckoutProvider implements CheckoutProvider {
  readonly kind = 'sandbox' as const;
  readonly publishableKey: string;
  private readonly prices: BundlePrice[];
  private readonly webhookSecret: string;
  private readonly random: Random;
  private processor: SandboxProcessor | undefined;
  /** Refunds by idempotency key, for a repeated request (as Stripe keeps them for 24 hours). */
  private readonly refunds = new Map<string, ProviderRefund>();
  /** One refund of a payment at a time, as Stripe's own ledger. */
  private readonly refunding = new Map<string, Promise<unknown>>();

  constructor(options: SandboxProviderOptions) {
    this.prices = options.prices;
    this.webhookSecret = options.webhookSecret;
    this.random = options.random;
    this.publishableKey = `${SANDBOX_PUBLISHABLE_KEY_PREFIX}${createHash('sha256').update(options.webhookSecret).digest('hex').slice(0, 24)}`;
  }

  async listPrices(): Promise<BundlePrice[]> {
    return this.prices;
  }

  async createSession(input: CreateCheckoutSessionInput): Promise<CreatedCheckoutSession> {
    const sessionId = `cs_sandbox_${this.randomId(18)}`;
    const clientSecret = `${sessionId}_secret_${this.randomId(24)}`;
    return {
      sessionId,
      clientSecret,
      clientSecretHash: hashClientSecret(clientSecret),
      expiresAt: new Date(input.now.getTime() + SESSION_LIFETIME_MS),
    };
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAt: Date): PaymentEvent {
    return verifyStripeSignature(rawBody, signatureHeader, this.webhookSecret, receivedAt);
  }

  connect(processor: SandboxProcessor): void {
    this.processor = processor;
  }

  /**
   * What Stripe does on POST /v1/refunds, and on a refund in its dashboard: checks the payment
   * and what is left of it, and delivers charge.refunded (the cumulative amount_refunded) to the
   * webhook handler before answering. The idempotency key names the event, so a repeated
   * request refunds once.
   */
  async refund(request: RefundRequest): Promise<ProviderRefund> {
    const processor = this.processor;
    if (!processor) throw new Fault('CheckoutUnavailable');
    return this.oneRefundAtATime(request.paymentIntentId, async () => {
      const known = this.refunds.get(request.idempotencyKey);
      // Stripe refuses a key used again with other parameters (an idempotency_error).
      if (known && request.amountInCents !== undefined && request.amountInCents !== known.amountInCents) {
        throw new Fault('PaymentRefundInProgress');
      }
      if (known) return known;
      const { db, clock } = processor;
      const [row] = await db
        .select()
        .from(checkoutSessions)
        .where(
          and(eq(checkoutSessions.provider, 'sandbox'), eq(checkoutSessions.paymentIntentId, request.paymentIntentId)),
        )
        .limit(1);
      if (!row) throw new Fault('PaymentNotFound');
      if (row.status !== 'succeeded' && row.status !== 'mismatched') throw new Fault('PaymentNotPaid');
      // What the card was charged: for a payment that did not match its checkout, what was received.
      const charged = await chargedAmountOf(db, row);
      const [prior] = await db
        .select({ refunded: paymentRefunds.refundedInCents })
        .from(paymentRefunds)
        .where(eq(paymentRefunds.paymentIntentId, request.paymentIntentId));
      const before = prior?.refunded ?? 0;
      const name = createHash('sha256').update(request.idempotencyKey).digest('hex').slice(0, 24);
      const eventId = `evt_sandbox_refund_${name}`;
      const [delivered] = await db
        .select({ eventId: paymentWebhookEvents.eventId })
        .from(paymentWebhookEvents)
        .where(and(eq(paymentWebhookEvents.eventId, eventId), ne(paymentWebhookEvents.outcome, 'error')));
      const amount = request.amountInCents ?? charged - before;
      const refund: ProviderRefund = {
        refundId: `re_sandbox_${name}`,
        amountInCents: amount,
        chargedInCents: charged,
        refundedInCents: delivered ? before : before + amount,
        currency: row.currency,
      };
      // Made before this process started (the answers are kept in memory only): made once.
      if (delivered) return refund;
      if (amount <= 0 || before + amount > charged) throw new Fault('PaymentRefundInvalid');
      const charge = refundedCharge(row, request.paymentIntentId, charged, refund.refundedInCents);
      const delivery = this.signEvent('charge.refunded', charge, clock.now(), eventId);
      await processor.deliver(delivery.rawBody, delivery.signature);
      this.refunds.set(request.idempotencyKey, refund);
      return refund;
    });
  }

  private async oneRefundAtATime<T>(paymentIntentId: string, work: () => Promise<T>): Promise<T> {
    const queued = this.refunding.get(paymentIntentId) ?? Promise.resolve();
    const run = queued.then(work, work);
    const settled = run.catch(() => undefined);
    this.refunding.set(paymentIntentId, settled);
    try {
      return await run;
    } finally {
      if (this.refunding.get(paymentIntentId) === settled) this.refunding.delete(paymentIntentId);
    }
  }

  /** A Stripe-shaped event, serialised and signed as Stripe would deliver it. */
  signEvent(
    type: string,
    object: Record<string, unknown>,
    now: Date,
    eventId = `evt_sandbox_${this.randomId(18)}`,
  ): { rawBody: Buffer; signature: string } {
    const created = Math.floor(now.getTime() / 1000);
    const payload = JSON.stringify({
      id: eventId,
      object: 'event',
      api_version: Stripe.API_VERSION,
      created,
      livemode: false,
      type,
      data: { object },
    });
    const signature = Stripe.webhooks.generateTestHeaderString({
      payload,
      secret: this.webhookSecret,
      timestamp: created,
    });
    return { rawBody: Buffer.from(payload), signature };
  }

  newPaymentIntentId(): string {
    return `pi_sandbox_${this.randomId(18)}`;
  }

  /** What the sandbox's card network answers for a card (Stripe's public test numbers only). */
  decideCard(card: { cardNumber: string; expiry: string; cvc: string }, now: Date): CardOutcome {
    const number = card.cardNumber.replace(/[\s-]/g, '');
    const isKnown = SUCCEEDING_CARDS.has(number) || number in DECLINED_CARDS;
    if (!isKnown || !isFutureExpiry(card.expiry, now) || !/^\d{3,4}$/.test(card.cvc)) throw new Fault('CardInvalid');
    const declineCode = DECLINED_CARDS[number];
    return declineCode ? { outcome: 'declined', declineCode } : { outcome: 'succeeded' };
  }

  private randomId(bytes: number): string {
    return this.random.bytes(bytes).toString('base64url').replace(/[-_]/g, 'x');
  }
}

export function hashClientSecret(clientSecret: string): string {
  return createHash('sha256').update(clientSecret).digest('hex');
}

export function clientSecretMatches(clientSecret: string, hash: string | null): boolean {
  if (!hash) return false;
  const given = Buffer.from(hashClientSecret(clientSecret), 'hex');
  const stored = Buffer.from(hash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/** The sandbox session id inside a client secret (`cs_sandbox_…_secret_…`). */
export function sandboxSessionIdOf(clientSecret: string): string | undefined {
  const match = /^(cs_sandbox_[A-Za-z0-9]+)_secret_[A-Za-z0-9]+$/.exec(clientSecret);
  return match?.[1];
}

/**
 * The sandbox's webhook signing secret, derived from the session secret, so that it is stable
 * across restarts and replicas without another file; the sandbox never runs in production.
 */
export function deriveSandboxWebhookSecret(sessionSecret: string): string {
  return `whsec_sandbox_${createHmac('sha256', sessionSecret).update('sandbox-stripe-webhook').digest('base64url')}`;
}

/** A Charge as Stripe sends it in charge.refunded: amount_refunded is the total refunded so far. */
function refundedCharge(row: CheckoutSessionRow, paymentIntentId: string, charged: number, refundedInCents: number) {
  return {
    id: `ch_${paymentIntentId.replace(/^pi_/, '')}`,
    object: 'charge',
    amount: charged,
    amount_captured: charged,
    amount_refunded: refundedInCents,
    currency: row.currency.toLowerCase(),
    paid: true,
    captured: true,
    refunded: refundedInCents >= charged,
    payment_intent: paymentIntentId,
    status: 'succeeded',
    livemode: false,
  };
}

/** MM/YY or MM/YYYY, valid through the end of that month. */
function isFutureExpiry(expiry: string, now: Date): boolean {
  const match = /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(expiry.trim());
  if (!match) return false;
  const month = Number(match[1]);
  const year = match[2]?.length === 2 ? 2000 + Number(match[2]) : Number(match[2]);
  if (month < 1 || month > 12) return false;
  return Date.UTC(year, month, 1) > now.getTime();
}
