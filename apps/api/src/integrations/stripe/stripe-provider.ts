import Stripe from 'stripe';
import { Fault } from '../../lib/fault';
import type {
  BundlePrice,
  CheckoutProvider,
  CreateCheckoutSessionInput,
  CreatedCheckoutSession,
  PaymentEvent,
  ProviderRefund,
  RefundRequest,
} from './types';

export interface StripeProviderOptions {
  secretKey: string;
  publishableKey: string;
  webhookSecret: string;
  /** Another Stripe API base (a local stand-in or stripe-mock): its host, port and protocol are used. */
  apiUrl?: string;
}

/** The metadata key (on the Price or its Product) that makes a Stripe Price a token bundle. */
export const TOKENS_METADATA_KEY = 'soundid_tokens';

/** Seconds a signed delivery stays acceptable (Stripe's default tolerance). */
const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Stripe embedded Checkout (stripe-node 23, API version 2026-10-28). Bundles are the active
 * one-time Prices whose Price or Product carries `metadata.soundid_tokens`.
 */
export class StripeCheckoutProvider implements CheckoutProvider {
  readonly kind = 'stripe' as const;
  readonly publishableKey: string;
  private readonly stripe: Stripe;
  private readonly webhookSecret: string;

  constructor(options: StripeProviderOptions) {
    this.publishableKey = options.publishableKey;
    this.webhookSecret = options.webhookSecret;
    this.stripe = new Stripe(options.secretKey, {
      maxNetworkRetries: 2,
      timeout: 20_000,
      appInfo: { name: 'My SoundID' },
      ...apiLocation(options.apiUrl),
    });
  }

  async listPrices(): Promise<BundlePrice[]> {
    const bundles: BundlePrice[] = [];
    try {
      for await (const price of this.stripe.prices.list({ active: true, expand: ['data.product'], limit: 100 })) {
        const bundle = toBundlePrice(price);
        if (bundle) bundles.push(bundle);
      }
    } catch (error) {
      throw unavailable(error);
    }
    return bundles.sort((a, b) => a.tokens - b.tokens);
  }

  async createSession(input: CreateCheckoutSessionInput): Promise<CreatedCheckoutSession> {
    try {
      const session = await this.stripe.checkout.sessions.create(
        {
          ui_mode: 'embedded_page',
          mode: 'payment',
          line_items: [{ price: input.price.priceId, quantity: 1 }],
          customer_email: input.customerEmail,
          client_reference_id: input.invoiceTag,
          metadata: input.metadata,
          // Declines arrive as payment_intent.payment_failed: the invoice tag links them back.
          payment_intent_data: { metadata: { invoice_tag: input.invoiceTag } },
          return_url: input.returnUrl,
          redirect_on_completion: 'if_required',
        },
        { idempotencyKey: `checkout-${input.invoiceTag}` },
      );
      if (!session.client_secret) throw new Error('Stripe returned a session without a client secret');
      return {
        sessionId: session.id,
        clientSecret: session.client_secret,
        expiresAt: new Date(session.expires_at * 1000),
      };
    } catch (error) {
      if (error instanceof Stripe.errors.StripeInvalidRequestError && error.code === 'resource_missing') {
        throw new Fault('PriceNotFound');
      }
      throw unavailable(error);
    }
  }

  verifyWebhook(rawBody: Buffer, signatureHeader: string | undefined, receivedAt: Date): PaymentEvent {
    return verifyStripeSignature(rawBody, signatureHeader, this.webhookSecret, receivedAt);
  }

  /** POST /v1/refunds with the payment intent and an Idempotency-Key, the charge expanded. */
  async refund(request: RefundRequest): Promise<ProviderRefund> {
    let refund: Stripe.Refund;
    try {
      refund = await this.stripe.refunds.create(
        {
          payment_intent: request.paymentIntentId,
          ...(request.amountInCents === undefined ? {} : { amount: request.amountInCents }),
          reason: 'requested_by_customer',
          metadata: request.metadata,
          expand: ['charge'],
        },
        { idempotencyKey: request.idempotencyKey },
      );
    } catch (error) {
      // The same key while its first request is in flight (409), or again with other parameters:
      // Stripe's idempotency refusals (docs.stripe.com/idempotency); the first request stands.
      if (
        error instanceof Stripe.errors.StripeIdempotencyError ||
        (error instanceof Stripe.errors.StripeError && error.statusCode === 409)
      ) {
        throw new Fault('PaymentRefundInProgress');
      }
      if (error instanceof Stripe.errors.StripeInvalidRequestError) {
        if (error.code === 'resource_missing') throw new Fault('PaymentNotFound');
        // Already refunded in full, or more asked than is left on the charge.
        if (error.code === 'charge_already_refunded' || error.param === 'amount') {
          throw new Fault('PaymentRefundInvalid');
        }
      }
      throw unavailable(error);
    }
    const charge = typeof refund.charge === 'object' ? refund.charge : null;
    if (refund.status === 'failed' || refund.status === 'canceled') {
      throw new Fault(
        'PaymentRefundInvalid',
        { RefundStatus: refund.status },
        `The payment provider answered the refund ${refund.status}: nothing was refunded.`,
      );
    }
    if (!charge) throw unavailable(new Error('Stripe returned a refund without its charge'));
    return {
      refundId: refund.id,
      amountInCents: refund.amount,
      chargedInCents: charge.amount,
      refundedInCents: charge.amount_refunded,
      currency: charge.currency.toUpperCase(),
    };
  }
}

/** Stripe's signature check (HMAC-SHA256 over `t.body`, within the tolerance), for both providers. */
export function verifyStripeSignature(
  rawBody: Buffer,
  signatureHeader: string | undefined,
  secret: string,
  receivedAt: Date,
): PaymentEvent {
  if (!signatureHeader) throw new Fault('WebhookSignatureInvalid');
  let event: PaymentEvent;
  try {
    event = Stripe.webhooks.constructEvent(
      rawBody,
      signatureHeader,
      secret,
      SIGNATURE_TOLERANCE_SECONDS,
      undefined,
      receivedAt.getTime(),
    ) as unknown as PaymentEvent;
  } catch {
    throw new Fault('WebhookSignatureInvalid');
  }
  if (typeof event?.id !== 'string' || typeof event.type !== 'string' || typeof event.data?.object !== 'object') {
    throw new Fault('RequestInvalid', {}, 'The webhook event is not a Stripe event.');
  }
  return event;
}

function apiLocation(apiUrl: string | undefined): Pick<Stripe.StripeConfig, 'host' | 'port' | 'protocol'> {
  if (!apiUrl) return {};
  const url = new URL(apiUrl);
  const protocol = url.protocol === 'http:' ? 'http' : 'https';
  return { host: url.hostname, port: url.port || (protocol === 'http' ? 80 : 443), protocol };
}

function toBundlePrice(price: Stripe.Price): BundlePrice | undefined {
  const product = typeof price.product === 'object' && !('deleted' in price.product) ? price.product : undefined;
  if (price.type !== 'one_time' || price.unit_amount == null || (product && !product.active)) return undefined;
  const meta = { ...product?.metadata, ...price.metadata };
  const tokens = Number(meta[TOKENS_METADATA_KEY]);
  if (!Number.isSafeInteger(tokens) || tokens <= 0) return undefined;
  return {
    priceId: price.id,
    tokens,
    title: meta.title || product?.name || price.nickname || `${tokens.toLocaleString('en-US')} tokens`,
    contents: meta.contents || `${tokens.toLocaleString('en-US')} tokens`,
    description: meta.description || product?.description || '',
    uiFlags: (meta.ui_flags ?? '')
      .split(',')
      .map((flag) => flag.trim())
      .filter(Boolean),
    amountInCents: price.unit_amount,
    currency: price.currency.toUpperCase(),
    ...(meta.new_price_text ? { newPriceText: meta.new_price_text } : {}),
  };
}

function unavailable(error: unknown): Fault {
  if (error instanceof Fault) return error;
  return Object.assign(new Fault('CheckoutUnavailable'), { cause: error });
}
