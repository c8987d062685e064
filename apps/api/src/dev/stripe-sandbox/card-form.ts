import {
  formatPrice,
  SANDBOX_TEST_CARDS,
  type SandboxCheckoutPayResult,
  type SandboxCheckoutRefundResult,
  type SandboxCheckoutSessionResult,
} from '@soundid/contracts';
import { and, eq } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { type CheckoutSessionRow, checkoutSessions } from '../../db/payments-schema';
import { users } from '../../db/schema';
import { type CheckoutService, INVOICE_TAG_KEY } from '../../features/voice-ai/checkout';
import type { Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { clientSecretMatches, type SandboxCheckoutProvider, sandboxSessionIdOf } from './provider';

export interface SandboxCardFormDeps {
  db: Database;
  clock: Clock;
  provider: SandboxCheckoutProvider;
  /** Where the sandbox's signed, Stripe-shaped events go: the card checkout's webhook handler. */
  checkout: Pick<CheckoutService, 'handleWebhook'>;
}

/**
 * The sandbox card form's side of the card checkout (outside production, without STRIPE_*):
 * what Stripe's embedded form and dashboard do, ending in the same webhook handler.
 */
export class SandboxCardForm {
  constructor(private readonly deps: SandboxCardFormDeps) {}

  /** The sandbox session behind a client secret, for the sandbox card form. */
  async sandboxSession(clientSecret: string): Promise<SandboxCheckoutSessionResult> {
    const row = await this.sandboxRow(clientSecret);
    const [owner] = await this.deps.db.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
    const isExpired =
      row.status === 'expired' || (row.status !== 'succeeded' && row.expiresAt <= this.deps.clock.now());
    return {
      InvoiceTag: row.invoiceTag,
      TokenBundle: {
        SKU: row.priceId,
        Title: row.bundleTitle,
        Currency: row.currency,
        PriceAmountInCents: row.amountInCents,
      },
      PriceText: formatPrice(row.amountInCents / 100, row.currency),
      Email: owner?.email ?? '',
      Status: row.status === 'succeeded' ? 'complete' : isExpired ? 'expired' : 'open',
      TestCards: SANDBOX_TEST_CARDS,
    };
  }

  /**
   * Pays a sandbox session with a test card. The outcome travels as a signed, Stripe-shaped
   * event through handleWebhook, exactly as a Stripe delivery would.
   */
  async sandboxPay(request: {
    clientSecret: string;
    cardNumber: string;
    expiry: string;
    cvc: string;
  }): Promise<SandboxCheckoutPayResult> {
    const { provider } = this.deps;
    const row = await this.sandboxRow(request.clientSecret);
    const paid: SandboxCheckoutPayResult = {
      Outcome: 'succeeded',
      InvoiceTag: row.invoiceTag,
      ReturnUrl: row.returnUrl.replace('{CHECKOUT_SESSION_ID}', row.providerSessionId),
    };
    if (row.status === 'succeeded') return paid;
    const now = this.deps.clock.now();
    if (row.status === 'expired' || row.status === 'failed' || row.expiresAt <= now) {
      throw new Fault('CheckoutSessionExpired');
    }

    const decision = provider.decideCard(request, now);
    const paymentIntentId = row.paymentIntentId ?? provider.newPaymentIntentId();
    const delivery =
      decision.outcome === 'succeeded'
        ? provider.signEvent('checkout.session.completed', sandboxSessionObject(row, paymentIntentId), now)
        : provider.signEvent(
            'payment_intent.payment_failed',
            sandboxDeclinedIntent(row, paymentIntentId, decision.declineCode),
            now,
          );
    await this.deps.checkout.handleWebhook(delivery.rawBody, delivery.signature);
    if (decision.outcome === 'declined') {
      throw new Fault('CardDeclined', { DeclineCode: decision.declineCode, InvoiceTag: row.invoiceTag });
    }
    return paid;
  }

  /**
   * A refund in Stripe's dashboard, the merchant's own (SandboxCheckoutRefund): the sandbox
   * processor's refund, the one AdminRefundPayment asks for through the provider, whose
   * charge.refunded alone tells this service (ADR 0032). Random idempotency: each is a new refund.
   */
  async sandboxRefund(request: { invoiceTag: string; amountInCents?: number }): Promise<SandboxCheckoutRefundResult> {
    const { provider } = this.deps;
    const [row] = await this.deps.db
      .select()
      .from(checkoutSessions)
      .where(and(eq(checkoutSessions.provider, 'sandbox'), eq(checkoutSessions.invoiceTag, request.invoiceTag)))
      .limit(1);
    if (!row) throw new Fault('PaymentNotFound');
    if (!row.paymentIntentId) throw new Fault('PaymentNotPaid');
    const refund = await provider.refund({
      paymentIntentId: row.paymentIntentId,
      amountInCents: request.amountInCents,
      idempotencyKey: `dashboard-${provider.newPaymentIntentId()}`,
      metadata: { [INVOICE_TAG_KEY]: row.invoiceTag },
    });
    return {
      InvoiceTag: row.invoiceTag,
      RefundedInCents: refund.refundedInCents,
      AmountInCents: refund.chargedInCents,
    };
  }

  private async sandboxRow(clientSecret: string): Promise<CheckoutSessionRow> {
    const sessionId = sandboxSessionIdOf(clientSecret);
    const [row] = sessionId
      ? await this.deps.db
          .select()
          .from(checkoutSessions)
          .where(and(eq(checkoutSessions.provider, 'sandbox'), eq(checkoutSessions.providerSessionId, sessionId)))
          .limit(1)
      : [];
    if (!row || !clientSecretMatches(clientSecret, row.clientSecretHash)) throw new Fault('CheckoutSessionNotFound');
    return row;
  }
}

/** A Checkout Session object as Stripe sends it in checkout.session.completed (the fields we read and a few more). */
function sandboxSessionObject(row: CheckoutSessionRow, paymentIntentId: string): Record<string, unknown> {
  return {
    id: row.providerSessionId,
    object: 'checkout.session',
    mode: 'payment',
    ui_mode: 'embedded_page',
    status: 'complete',
    payment_status: 'paid',
    client_reference_id: row.invoiceTag,
    amount_total: row.amountInCents,
    currency: row.currency.toLowerCase(),
    payment_intent: paymentIntentId,
    metadata: { ...row.analyticsMetadata, [INVOICE_TAG_KEY]: row.invoiceTag },
    livemode: false,
  };
}

/** A PaymentIntent as Stripe sends it in payment_intent.payment_failed after a card decline. */
function sandboxDeclinedIntent(
  row: CheckoutSessionRow,
  paymentIntentId: string,
  declineCode: string,
): Record<string, unknown> {
  return {
    id: paymentIntentId,
    object: 'payment_intent',
    status: 'requires_payment_method',
    amount: row.amountInCents,
    currency: row.currency.toLowerCase(),
    metadata: { [INVOICE_TAG_KEY]: row.invoiceTag },
    last_payment_error: { type: 'card_error', code: 'card_declined', decline_code: declineCode },
    livemode: false,
  };
}
