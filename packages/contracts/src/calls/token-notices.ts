import { z } from 'zod';
import { LOW_BALANCE_THRESHOLD_MAX, lowBalanceThresholdProblem } from '../token-notices';
import { callBody, emptyBody } from './common';

/**
 * The customer's voice AI token notices (docs/decisions/0057-token-notices.md), on the profile:
 * expiry notices on or off, low-balance notices on or off and the balance, in tokens, below which
 * a spend is announced.
 */
export const notificationPreferencesSchema = z.object({
  ExpiryNotices: z.boolean(),
  LowBalanceNotices: z.boolean(),
  /** Tokens: a spend that takes the balance from at least this to below it is announced. */
  LowBalanceThreshold: z.number(),
  /** The threshold when the customer has not set one (five minutes of processing). */
  DefaultLowBalanceThreshold: z.number(),
});
export type NotificationPreferences = z.output<typeof notificationPreferencesSchema>;

export const lowBalanceThresholdSchema = z
  .number({ error: lowBalanceThresholdProblem })
  .int({ error: lowBalanceThresholdProblem })
  .positive({ error: lowBalanceThresholdProblem })
  .max(LOW_BALANCE_THRESHOLD_MAX, { error: lowBalanceThresholdProblem });

export const tokenNoticeCalls = {
  GetNotificationPreferences: emptyBody,
  /** All three at once: the panel saves what it shows. Saving the same again changes nothing. */
  SetNotificationPreferences: callBody({
    expiryNotices: z.boolean(),
    lowBalanceNotices: z.boolean(),
    lowBalanceThreshold: lowBalanceThresholdSchema,
  }),
} as const;

export const tokenNoticeResults = {
  GetNotificationPreferences: notificationPreferencesSchema,
  SetNotificationPreferences: notificationPreferencesSchema,
} as const;
