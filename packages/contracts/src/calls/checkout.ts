import { z } from 'zod';
import type { TOKEN_BUNDLE_ITEM_CATEGORY } from '../constants';
import { callBody } from './common';
import { auditReasonSchema } from './operators';

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

export const invoiceTagSchema = z
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
    /** An operator's change carries its reason (ADR 0045). */
    reason: auditReasonSchema,
  }),
} as const;

export const keyValueSchema = z.object({ Key: z.string(), Value: z.string() });
export type KeyValue = z.infer<typeof keyValueSchema>;

/** A bundle as the product list shows it (docs/requirements.md §3, Token bundle (list)). */
export const tokenBundleSchema = z.object({
  PriceId: z.string(),
  PriceText: z.string(),
  PriceAmount: z.number(),
  PriceAmountInCents: z.number(),
  Currency: z.string(),
  /** Title, Contents, Description, UiFlags (comma-separated, e.g. IsMostPopular). */
  Metadata: z.array(keyValueSchema),
  /** NewPriceText when the bundle is on offer. */
  PriceMetadata: z.array(keyValueSchema),
});
export type TokenBundle = z.infer<typeof tokenBundleSchema>;

/** A bundle as the checkout screen shows it (docs/requirements.md §3, Token bundle (checkout)). */
export const checkoutTokenBundleSchema = z.object({
  SKU: z.string(),
  Title: z.string(),
  Currency: z.string(),
  PriceAmountInCents: z.number(),
});
export type CheckoutTokenBundle = z.infer<typeof checkoutTokenBundleSchema>;

export const prepareTokenPurchaseCheckoutResultSchema = z.object({
  /** The client secret of the embedded checkout session. */
  CheckoutSession: z.string(),
  InvoiceTag: z.string(),
  StripePublicKey: z.string(),
  TokenBundle: checkoutTokenBundleSchema,
});
export type PrepareTokenPurchaseCheckoutResult = z.infer<typeof prepareTokenPurchaseCheckoutResultSchema>;

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

export const sandboxCheckoutSessionResultSchema = z.object({
  InvoiceTag: z.string(),
  TokenBundle: checkoutTokenBundleSchema,
  PriceText: z.string(),
  Email: z.string(),
  /** 'open' until paid, then 'complete'; 'expired' after 24 hours. */
  Status: z.enum(['open', 'complete', 'expired']),
  TestCards: z.object({ succeeds: z.string(), declined: z.string(), insufficientFunds: z.string() }),
});
export type SandboxCheckoutSessionResult = z.infer<typeof sandboxCheckoutSessionResultSchema>;

export const sandboxCheckoutRefundResultSchema = z.object({
  InvoiceTag: z.string(),
  /** The payment's refunded amount so far (this refund included). */
  RefundedInCents: z.number(),
  AmountInCents: z.number(),
});
export type SandboxCheckoutRefundResult = z.infer<typeof sandboxCheckoutRefundResultSchema>;

/** GetPaymentStatus: 'none' while the payment is pending, 'succeeded', or the failure status. */
export const paymentStatusResultSchema = z.object({
  PaymentIntentStatus: z.string(),
  AnalyticsMetadata: z.record(z.string(), z.unknown()).nullable(),
});
export type PaymentStatusResult = z.infer<typeof paymentStatusResultSchema>;

/** A payment that did not match its checkout session (`npm run admin -- payment-mismatches`, ADR 0032). */
export const paymentMismatchSummarySchema = z.object({
  EventId: z.string(),
  Provider: z.string(),
  InvoiceTag: z.string(),
  /** The customer's e-mail (null after the account's deletion). */
  Customer: z.string().nullable(),
  ExpectedAmountInCents: z.number(),
  ExpectedCurrency: z.string(),
  ReceivedAmountInCents: z.number().nullable(),
  ReceivedCurrency: z.string().nullable(),
  RecordedAt: z.string(),
});
export type PaymentMismatchSummary = z.infer<typeof paymentMismatchSummarySchema>;

export const sandboxCheckoutPayResultSchema = z.object({
  Outcome: z.literal('succeeded'),
  InvoiceTag: z.string(),
  /** Where the SPA goes next (the post-checkout screen of the session's return URL). */
  ReturnUrl: z.string(),
});
export type SandboxCheckoutPayResult = z.infer<typeof sandboxCheckoutPayResultSchema>;

/** What a payment provider's webhook delivery did (Stripe, ADR 0032). */
export const stripeWebhookResultSchema = z.object({ EventId: z.string(), Duplicate: z.boolean(), Outcome: z.string() });

export const checkoutResults = {
  PrepareTokenPurchaseCheckout: prepareTokenPurchaseCheckoutResultSchema,
  GetPaymentStatus: paymentStatusResultSchema,
  SandboxCheckoutSession: sandboxCheckoutSessionResultSchema,
  SandboxCheckoutPay: sandboxCheckoutPayResultSchema,
  SandboxCheckoutRefund: sandboxCheckoutRefundResultSchema,
} as const satisfies Record<keyof typeof checkoutCalls, z.ZodType>;
