import type { CheckoutProviderKind } from '../../db/payments-schema';

/** A price of a token bundle as the payment provider offers it. */
export interface BundlePrice {
  priceId: string;
  tokens: number;
  title: string;
  contents: string;
  description: string;
  /** e.g. IsMostPopular */
  uiFlags: string[];
  amountInCents: number;
  /** ISO 4217, upper case. */
  currency: string;
  /** Display text of an offer (e.g. 'Save 20%'); the amount charged is always amountInCents. */
  newPriceText?: string;
}

export interface CreateCheckoutSessionInput {
  invoiceTag: string;
  price: BundlePrice;
  customerEmail: string;
  /** Sent to the provider with the session (analytics, affiliate, our own references). */
  metadata: Record<string, string>;
  /** May contain {CHECKOUT_SESSION_ID}. */
  returnUrl: string;
  now: Date;
}

export interface CreatedCheckoutSession {
  sessionId: string;
  /** What the embedded checkout is initialised with. */
  clientSecret: string;
  /** Sandbox only: the session is paid by presenting the secret, so only its hash is kept. */
  clientSecretHash?: string;
  expiresAt: Date;
}

/** A refund asked of the provider (AdminRefundPayment). */
export interface RefundRequest {
  /** The payment's id at the provider (Stripe's payment intent). */
  paymentIntentId: string;
  /** Cents to refund; without it, what is left of the payment. */
  amountInCents?: number | undefined;
  /** The same key makes the same refund once (Stripe's Idempotency-Key). */
  idempotencyKey: string;
  /** Kept with the refund at the provider (our invoice tag, the operator). */
  metadata: Record<string, string>;
}

/** The refund the provider made, and where the payment stands after it. */
export interface ProviderRefund {
  refundId: string;
  /** This refund's amount. */
  amountInCents: number;
  /** The payment: what was charged and what is refunded of it in all, this refund included. */
  chargedInCents: number;
  refundedInCents: number;
  /** ISO 4217, upper case. */
  currency: string;
}

/** The fields of a Stripe event this service reads (the rest is ignored). */
export interface PaymentEvent {
  id: string;
  type: string;
  data: { object: Record<string, unknown> };
}

/**
 * Card checkout behind one interface: Stripe embedded Checkout, or the built-in sandbox.
 * Both hand over signed, Stripe-shaped webhook events that one handler fulfils.
 */
export interface CheckoutProvider {
  readonly kind: CheckoutProviderKind;
  /** What the SPA initialises the checkout with; `pk_sandbox_…` selects the sandbox form. */
  readonly publishableKey: string;
  listPrices(): Promise<BundlePrice[]>;
  createSession(input: CreateCheckoutSessionInput): Promise<CreatedCheckoutSession>;
  /** The event in a webhook delivery, or a WebhookSignatureInvalid fault. */
  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAt: Date): PaymentEvent;
  /**
   * Refunds (part of) a payment; its charge.refunded webhook follows, as for any refund.
   * PaymentNotFound: no such payment; PaymentRefundInvalid: nothing or less left to refund.
   */
  refund(request: RefundRequest): Promise<ProviderRefund>;
}
