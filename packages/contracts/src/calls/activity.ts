import { z } from 'zod';
import { ACTIVITY_MAX_PAGE } from '../constants';
import { pageSchema } from '../validators';
import { callBody } from './common';
import { pagedResultSchema } from './voice-ai';

/**
 * My activity (docs/decisions/0055-my-activity.md): the account's timeline, newest first, and
 * "This wasn't me" on one of its entries. The entries' wording is ui-text/activity.ts'.
 */

/** Every kind of entry, in the order the ADR lists them. */
export const ACCOUNT_EVENT_KINDS = [
  'signed_in',
  'session_ended',
  'password_changed',
  'email_changed',
  'two_step_on',
  'two_step_off',
  'passkey_added',
  'passkey_removed',
  'device_activated',
  'device_deactivated',
  'device_idle_released',
  'device_lost',
  'licence_registered',
  'licence_removed',
  'licence_upgraded',
  'licence_passed_on',
  'licence_received',
  'tokens_purchased',
  'tokens_granted',
  'tokens_refunded',
  'tokens_withdrawn',
  'support_action',
  'not_me_reported',
] as const;
export type AccountEventKind = (typeof ACCOUNT_EVENT_KINDS)[number];

/**
 * What a customer may report as not theirs: what someone signed in as them could have done.
 * Not what the service or SoundID's staff did (idle releases, grants, refunds, withdrawals,
 * support's actions, a seat freed by support), nor a licence received, nor a report itself.
 */
export const DISPUTABLE_ACCOUNT_EVENT_KINDS = [
  'signed_in',
  'session_ended',
  'password_changed',
  'email_changed',
  'two_step_on',
  'two_step_off',
  'passkey_added',
  'passkey_removed',
  'device_activated',
  'device_deactivated',
  'device_lost',
  'licence_registered',
  'licence_removed',
  'licence_upgraded',
  'licence_passed_on',
  'tokens_purchased',
] as const satisfies readonly AccountEventKind[];

/** Why a device's activation ended (the devices table's causes) that were not the customer's doing. */
const SERVICE_DEACTIVATION_CAUSES = ['support', 'licence-removed'];

/** Whether an entry of this kind (and detail) can be reported; an entry already reported cannot. */
export function isDisputable(kind: AccountEventKind, detail: string | null): boolean {
  if (kind === 'device_deactivated' && detail !== null && SERVICE_DEACTIVATION_CAUSES.includes(detail)) return false;
  return (DISPUTABLE_ACCOUNT_EVENT_KINDS as readonly string[]).includes(kind);
}

/** An entry's id: the decimal of its sequence number, at most 15 digits (exact as a JavaScript number). */
export const accountEventIdSchema = z.string().regex(/^[1-9][0-9]{0,14}$/, 'Not an entry of your activity.');

export const activityCalls = {
  GetMyActivity: callBody({ page: pageSchema.max(ACTIVITY_MAX_PAGE) }),
  /** Session auth only: no step-up, since the customer may be a thief's victim; rate-limited. */
  ReportNotMe: callBody({ eventId: accountEventIdSchema }),
} as const;

export const accountEventSchema = z.object({
  Id: z.string(),
  Kind: z.enum(ACCOUNT_EVENT_KINDS),
  /** What happened, in the customer's words (ui-text/activity.ts). */
  Text: z.string(),
  /** Epoch ms. */
  At: z.number(),
  /** The browser, app or machine, where the entry knows it. */
  Device: z.string().optional(),
  Ip: z.string().optional(),
  /** Whether "This wasn't me" is offered: a disputable kind, not yet reported. */
  CanDispute: z.boolean(),
});
export type AccountEvent = z.infer<typeof accountEventSchema>;

export const activityResults = {
  GetMyActivity: pagedResultSchema(accountEventSchema),
  /** Every session has ended (the cookie is cleared); `FrozenUntil`: epoch ms. */
  ReportNotMe: z.object({ FrozenUntil: z.number() }),
} as const satisfies Record<keyof typeof activityCalls, z.ZodType>;
