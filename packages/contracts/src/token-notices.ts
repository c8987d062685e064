import { TOKENS_PER_SECOND } from './constants';
import { countOf, processingTimeText, tokenFootnotes } from './tokens';

/**
 * Voice AI token notices by mail (docs/decisions/0057-token-notices.md): a lot with tokens left is
 * announced 30, 7 and 1 day before it expires, once each; a spend that takes the balance below
 * the customer's threshold is announced once per crossing. Each kind can be turned off on the
 * profile (GetNotificationPreferences / SetNotificationPreferences).
 */

/** The expiry notices, by how many days before the lot's expiry each goes out. */
export const TOKEN_EXPIRY_MAIL_DAYS = { 'expiry-30': 30, 'expiry-7': 7, 'expiry-1': 1 } as const;
export type TokenExpiryNoticeKind = keyof typeof TOKEN_EXPIRY_MAIL_DAYS;
export const TOKEN_EXPIRY_NOTICE_KINDS = Object.keys(TOKEN_EXPIRY_MAIL_DAYS) as TokenExpiryNoticeKind[];
export const TOKEN_NOTICE_KINDS = [...TOKEN_EXPIRY_NOTICE_KINDS, 'low-balance'] as const;
export type TokenNoticeKind = (typeof TOKEN_NOTICE_KINDS)[number];

/**
 * The window in which an expiry notice is due: the lot expires after `from` days and at most
 * `to` days from now. A notice whose window passed unseen (the service was down) is not sent
 * late; the next, nearer one is.
 */
export function expiryNoticeWindow(kind: TokenExpiryNoticeKind): { fromDays: number; toDays: number } {
  const toDays = TOKEN_EXPIRY_MAIL_DAYS[kind];
  const nearer = Object.values(TOKEN_EXPIRY_MAIL_DAYS).filter((days) => days < toDays);
  return { fromDays: nearer.length ? Math.max(...nearer) : 0, toDays };
}

/** The low-balance threshold unless the customer sets one: five minutes of processing, in tokens. */
export const LOW_BALANCE_DEFAULT_MINUTES = 5;
export const LOW_BALANCE_DEFAULT_THRESHOLD = LOW_BALANCE_DEFAULT_MINUTES * 60 * TOKENS_PER_SECOND;
/** The highest threshold a customer may set (as the largest grant: AdminWithdrawTokens' bound). */
export const LOW_BALANCE_THRESHOLD_MAX = 10_000_000;
export const lowBalanceThresholdProblem =
  'The low balance threshold must be a whole number of tokens greater than zero (at most 10,000,000).';

/** The scheduled sweep that queues the expiry notices (run by hand with AdminRunJob). */
export const TOKEN_EXPIRY_NOTICES_JOB = 'token-expiry-notices';

/** Where the mails' link goes: the profile's notice preferences. */
export const TOKEN_NOTICES_ANCHOR = 'token-notices';

/** The rule the expiry mails close with: the buy page's own footnote. */
const EXPIRY_RULE = tokenFootnotes[1];

/** The mails' texts (the service renders them in its mail layout). */
export const tokenNoticeMailText = {
  expirySubject: (tokens: number, days: number) =>
    `${countOf(tokens, 'SoundID VoiceAI token')} expire${tokens === 1 ? 's' : ''} in ${countOf(days, 'day')}`,
  expiryHeading: 'Your SoundID VoiceAI tokens expire soon',
  expiryIntro: (tokens: number, expiresOn: string, days: number) => [
    `${countOf(tokens, 'token')} of yours (about ${processingTimeText(tokens)} of processing) expire${tokens === 1 ? 's' : ''} on ${expiresOn}, in ${countOf(days, 'day')}.`,
    EXPIRY_RULE,
  ],
  /** Several lots found due in one sweep go in one mail (ADR 0057, addendum): the total, then each lot. */
  expiryDigestSubject: (tokens: number, days: number) =>
    `${countOf(tokens, 'SoundID VoiceAI token')} expire within ${countOf(days, 'day')}`,
  expiryDigestIntro: (tokens: number, lots: readonly { tokens: number; expiresOn: string; days: number }[]) => [
    `${countOf(tokens, 'token')} of yours (about ${processingTimeText(tokens)} of processing) expire soon:`,
    ...lots.map((lot) => `${countOf(lot.tokens, 'token')} on ${lot.expiresOn}, in ${countOf(lot.days, 'day')}.`),
    EXPIRY_RULE,
  ],
  lowBalanceSubject: 'Your SoundID VoiceAI token balance is low',
  lowBalanceHeading: 'Your token balance is low',
  lowBalanceIntro: (balance: number, threshold: number) => [
    `Your balance is ${countOf(balance, 'token')} (about ${processingTimeText(balance)} of processing), below the ${countOf(threshold, 'token')} you asked us to tell you about.`,
    'Buy tokens to keep processing without a break.',
  ],
  buyAction: 'Buy tokens',
  preferencesOutro: 'You can turn these emails off, or change the balance they warn at, on your profile:',
  preferencesLink: 'Notification preferences',
} as const;
