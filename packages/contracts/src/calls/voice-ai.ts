import { z } from 'zod';
import { pageSchema } from '../validators';
import { callBody } from './common';

/** The largest single processing request an app may bill (one hour of audio). */
export const MAX_SECONDS_PER_REQUEST = 3600;

export const voiceAiCalls = {
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
