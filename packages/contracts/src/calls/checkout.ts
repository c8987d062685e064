import { z } from 'zod';
import type { TOKEN_BUNDLE_ITEM_CATEGORY } from '../constants';
import { callBody } from './common';

/**
 * Card checkout of voice-AI token bundles (docs/requirements.md §2, docs/requirements.md §7): Stripe
 * embedded Checkout when configured, otherwise the service's own sandbox checkout.
 */

/** A StripePublicKey starting with this tells the SPA to show the sandbox card form. */
export const SANDBOX_PUBLISHABLE_KEY_PREFIX = 'pk_sandbox_';

/** Metadata keys of a bundle in the product list (docs/requirements.md §3, Token bundle (list)). */
export const TokenBundleMetadataKey = {
  Title: 'Title',
  Contents: 'Contents',
  Description: 'Description',
  UiFlags: 'UiFlags',
} as const;
export const NEW_PRICE_TEXT_KEY = 'NewPriceText';
export const MOST_POPULAR_FLAG = 'IsMostPopular';

/** The public test cards the sandbox accepts (the same numbers Stripe's test mode takes). */
export const SANDBOX_TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
  insufficientFunds: '4000000000009995',
} as const;

/** Stripe metadata: keys up to 40 characters without brackets, values up to 500. */
const metadataEntrySchema = z.strictObject({
  Key: z
    .string()
    .trim()
    .min(1)
    .max(40)
    .regex(/^[A-Za-z0-9_.:-]+$/),
  Value: z.string().max(500),
});

const invoiceTagSchema = z
  .string()
  .trim()
  .min(8)
  .max(100)
  .regex(/^[A-Za-z0-9_-]+$/);

export const checkoutCalls = {
  PrepareTokenPurchaseCheckout: callBody({
    priceId: z.string().trim().min(1).max(255),
    /** Analytics and affiliate identifiers from the cookies; passed on to the payment. */
    metadata: z.array(metadataEntrySchema).max(20).optional(),
    /** Sent by the SPA only when it is not on the main production host. */
    returnUrl: z.string().trim().max(2000).optional(),
  }),
  GetPaymentStatus: callBody({ invoiceTag: invoiceTagSchema }),
  /** Sandbox only: the session behind a client secret, for the sandbox card form. */
  SandboxCheckoutSession: callBody({ clientSecret: z.string().trim().min(1).max(300) }),
  /** Sandbox only: pays a sandbox session with a test card. */
  SandboxCheckoutPay: callBody({
    clientSecret: z.string().trim().min(1).max(300),
    cardNumber: z.string().trim().min(1).max(30),
    /** MM/YY or MM/YYYY. */
    expiry: z.string().trim().min(1).max(10),
    cvc: z.string().trim().min(1).max(10),
  }),
  /**
   * Sandbox only, operator token: refunds a paid sandbox session as the merchant would in
   * Stripe's dashboard (a signed charge.refunded through the webhook handler, ADR 0032).
   * Without amountInCents, what is left of the payment is refunded.
   */
  SandboxCheckoutRefund: callBody({
    invoiceTag: invoiceTagSchema,
    amountInCents: z.number().int().positive().max(100_000_000).optional(),
  }),
} as const;

export interface KeyValue {
  Key: string;
  Value: string;
}

/** A bundle as the product list shows it (docs/requirements.md §3, Token bundle (list)). */
export interface TokenBundle {
  PriceId: string;
  PriceText: string;
  PriceAmount: number;
  PriceAmountInCents: number;
  Currency: string;
  /** Title, Contents, Description, UiFlags (comma-separated, e.g. IsMostPopular). */
  Metadata: KeyValue[];
  /** NewPriceText when the bundle is on offer. */
  PriceMetadata: KeyValue[];
}

/** A bundle as the checkout screen shows it (docs/requirements.md §3, Token bundle (checkout)). */
export interface CheckoutTokenBundle {
  SKU: string;
  Title: string;
  Currency: string;
  PriceAmountInCents: number;
}

export interface PrepareTokenPurchaseCheckoutResult {
  /** The client secret of the embedded checkout session. */
  CheckoutSession: string;
  InvoiceTag: string;
  StripePublicKey: string;
  TokenBundle: CheckoutTokenBundle;
}

/** The analytics data layer's purchase event (docs/requirements.md §7: price in units, item category One-off). */
export interface PurchaseAnalytics {
  TransactionId: string;
  Value: number;
  Currency: string;
  Items: {
    ItemId: string;
    ItemName: string;
    Price: number;
    ItemCategory: typeof TOKEN_BUNDLE_ITEM_CATEGORY;
    Quantity: 1;
  }[];
}

export interface SandboxCheckoutSessionResult {
  InvoiceTag: string;
  TokenBundle: CheckoutTokenBundle;
  PriceText: string;
  Email: string;
  /** 'open' until paid, then 'complete'; 'expired' after 24 hours. */
  Status: 'open' | 'complete' | 'expired';
  TestCards: typeof SANDBOX_TEST_CARDS;
}

export interface SandboxCheckoutRefundResult {
  InvoiceTag: string;
  /** The payment's refunded amount so far (this refund included). */
  RefundedInCents: number;
  AmountInCents: number;
}

/** A payment that did not match its checkout session (`npm run admin -- payment-mismatches`, ADR 0032). */
export interface PaymentMismatchSummary {
  EventId: string;
  Provider: string;
  InvoiceTag: string;
  /** The customer's e-mail (null after the account's deletion). */
  Customer: string | null;
  ExpectedAmountInCents: number;
  ExpectedCurrency: string;
  ReceivedAmountInCents: number | null;
  ReceivedCurrency: string | null;
  RecordedAt: string;
}

export interface SandboxCheckoutPayResult {
  Outcome: 'succeeded';
  InvoiceTag: string;
  /** Where the SPA goes next (the post-checkout screen of the session's return URL). */
  ReturnUrl: string;
}
