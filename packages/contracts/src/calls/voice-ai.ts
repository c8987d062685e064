import { z } from 'zod';
import { pageSchema } from '../validators';
import type { TokenBundle } from './checkout';
import { callBody, emptyBody } from './common';
import type { ActionButton } from './licences';

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

export interface PagedResult<T> {
  PageItems: T[];
  PageNumber: number;
  PageCount: number;
}

/** Purchase history entry (epoch milliseconds). */
export interface PurchaseHistoryEntry {
  TokenAmount: number;
  Type: string;
  OrderDate: number;
  ExpiryDate: number;
  TokenBalance: number;
  /** A refunded purchase (ADR 0032): when the refund was applied and the tokens it took back. */
  RefundDate?: number;
  TokensWithdrawn?: number;
}

/** Usage entry (epoch milliseconds). */
export interface UsageHistoryEntry {
  TokenAmount: number;
  Type: string;
  Date: number;
}

export interface ConsumeTokensResult {
  TokensSpent: number;
  TokenBalance: number;
}

/** GetPaymentStatus: 'none' while the payment is pending, 'succeeded', or the failure status. */
export interface PaymentStatusResult {
  PaymentIntentStatus: string;
  AnalyticsMetadata: Record<string, unknown> | null;
}

/**
 * GetProducts: what the buy page offers this customer (docs/requirements.md §3, Voice AI product list).
 * ActionButtons holds the start-trial button (a DeepLink with its server action) while
 * CanStartTrial; TokenStatus and StatusWarning are the licence list's status line.
 */
export interface VoiceAiProductList {
  ActionButtons: ActionButton[];
  TokenBundles: TokenBundle[];
  /** Stripe's publishable key, `pk_sandbox_…` for the sandbox card form, '' when no card checkout. */
  StripePublicKey: string;
  /** The 7-day voice AI trial has never been started and no perpetual licence is registered. */
  CanStartTrial: boolean;
  StatusWarning: string | null;
  TokenStatus: string;
}
