import { z } from 'zod';
import { pageSchema } from '../validators';
import { tokenBundleSchema } from './checkout';
import { callBody, emptyBody } from './common';
import { actionButtonSchema, expiringTokensSchema } from './licences';

/**
 * Where a card purchase's receipt is served (ADR 0058): `GET RECEIPT_PATH<invoiceTag>.pdf`, the
 * signed-in buyer only.
 */
export const RECEIPT_PATH = '/api/voiceai/receipts/';

/** The receipt of a card purchase, by its invoice tag (the invoice number). */
export function receiptPathOf(invoiceTag: string): string {
  return `${RECEIPT_PATH}${encodeURIComponent(invoiceTag)}.pdf`;
}

/** The largest single processing request an app may bill (one hour of audio). */
export const MAX_SECONDS_PER_REQUEST = 3600;

export const voiceAiCalls = {
  GetProducts: emptyBody,
  GetPurchaseHistory: callBody({ page: pageSchema.max(100_000) }),
  GetActionHistory: callBody({ page: pageSchema.max(100_000) }),
  ConsumeTokens: callBody({
    seconds: z.number().positive().max(MAX_SECONDS_PER_REQUEST),
    requestId: z.string().trim().min(1).max(100),
  }),
} as const;

export const TOKEN_LOT_CAUSES = ['purchase', 'grant', 'trial'] as const;
export type TokenLotCause = (typeof TOKEN_LOT_CAUSES)[number];

/** A page of a history (docs/requirements.md §3): the items and where the page stands. */
export function pagedResultSchema<T extends z.ZodType>(item: T) {
  return z.object({ PageItems: z.array(item), PageNumber: z.number(), PageCount: z.number() });
}
export interface PagedResult<T> {
  PageItems: T[];
  PageNumber: number;
  PageCount: number;
}

/** Purchase history entry (epoch milliseconds). */
export const purchaseHistoryEntrySchema = z.object({
  TokenAmount: z.number(),
  Type: z.string(),
  OrderDate: z.number(),
  ExpiryDate: z.number(),
  TokenBalance: z.number(),
  /** A refunded purchase (ADR 0032): when the refund was applied. */
  RefundDate: z.number().optional(),
  /** Tokens of the lot taken back, by its refund and by finance (AdminWithdrawTokens); never spent ones. */
  TokensWithdrawn: z.number().optional(),
  /** Tokens of the lot that processing spent (ADR 0056). */
  TokensSpent: z.number(),
  /** The lot is past its expiry date: what it held then is lost (TokensExpired). */
  IsExpired: z.boolean(),
  /** Tokens the lot still held when it expired; present once it has expired. */
  TokensExpired: z.number().optional(),
  /**
   * Where the purchase's receipt is (ADR 0058): for a card purchase, this service's PDF
   * (RECEIPT_PATH, signed in as the buyer); absent for grants and trials.
   */
  ReceiptUrl: z.string().optional(),
});
export type PurchaseHistoryEntry = z.infer<typeof purchaseHistoryEntrySchema>;

/** A lot that paid part of a processing job (ADR 0056): its Type, when it was credited, and how much it paid. */
export const usagePayerSchema = z.object({ Type: z.string(), OrderDate: z.number(), Tokens: z.number() });
export type UsagePayer = z.infer<typeof usagePayerSchema>;

/**
 * Usage entry (epoch milliseconds): one processing job (ADR 0056). TokenAmount is its whole cost,
 * Type the Types of the lots that paid (usageTypeOf), Seconds the processing time the app
 * reported, Payers the lots that paid, earliest first, whose Tokens add up to TokenAmount.
 */
export const usageHistoryEntrySchema = z.object({
  TokenAmount: z.number(),
  Type: z.string(),
  Date: z.number(),
  Seconds: z.number(),
  Payers: z.array(usagePayerSchema),
});
export type UsageHistoryEntry = z.infer<typeof usageHistoryEntrySchema>;

/** A job's Type: the Types of the lots that paid it, each once, in the order they paid. */
export function usageTypeOf(payerTypes: readonly string[]): string {
  return [...new Set(payerTypes)].join(' + ');
}

export const consumeTokensResultSchema = z.object({ TokensSpent: z.number(), TokenBalance: z.number() });
export type ConsumeTokensResult = z.infer<typeof consumeTokensResultSchema>;

/**
 * GetProducts: what the buy page offers this customer (docs/requirements.md §3, Voice AI product list).
 * ActionButtons holds the start-trial button (a DeepLink with its server action) while
 * CanStartTrial; TokenStatus is the buy page's token line (the balance once, ADR 0056; else the
 * licence list's status) and StatusWarning the licence list's warning.
 */
export const voiceAiProductListSchema = z.object({
  ActionButtons: z.array(actionButtonSchema),
  /** The 7-day voice AI trial has never been started and no perpetual licence is registered. */
  CanStartTrial: z.boolean(),
  TokenStatus: z.string(),
  StatusWarning: z.string().nullable(),
  /**
   * A perpetual licence is registered (ADR 0056): the page says Perpetual mode is active instead
   * of offering it, and still shows the customer's tokens.
   */
  IsPerpetual: z.boolean(),
  /** The customer's live lots that expire within TOKEN_EXPIRY_WARNING_DAYS, earliest first. */
  ExpiringTokens: z.array(expiringTokensSchema),
  TokenBundles: z.array(tokenBundleSchema),
  /** Stripe's publishable key, `pk_sandbox_…` for the sandbox card form, '' when no card checkout. */
  StripePublicKey: z.string(),
});
export type VoiceAiProductList = z.infer<typeof voiceAiProductListSchema>;

export const voiceAiResults = {
  GetProducts: voiceAiProductListSchema,
  GetPurchaseHistory: pagedResultSchema(purchaseHistoryEntrySchema),
  GetActionHistory: pagedResultSchema(usageHistoryEntrySchema),
  ConsumeTokens: consumeTokensResultSchema,
} as const satisfies Record<keyof typeof voiceAiCalls, z.ZodType>;
