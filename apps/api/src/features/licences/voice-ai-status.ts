import {
  type ExpiringTokens,
  type LicenceNotification,
  runwayText,
  tokenOutlookText,
  voiceAiStatusText,
} from '@soundid/contracts';
import type { LicenceRow } from '../../db/licences-schema';
import type { TokenHoldings } from '../tokens/ledger';
import type { TokenOutlook } from '../tokens/outlook';
import type { Product } from './catalogue';
import type { Seats } from './service';

const DAY_MS = 86_400_000;

/** Whole days left until a moment, at least 1 while it is still ahead. */
export function daysLeft(until: Date, now: Date): number {
  return Math.max(1, Math.ceil((until.getTime() - now.getTime()) / DAY_MS));
}

export interface VoiceAiStatus {
  TokenStatus: string;
  StatusWarning: string | null;
  Notifications: LicenceNotification[];
}

/**
 * The voice AI status line, the same on the licence list and the buy page (GetProducts):
 * perpetual is unlimited; otherwise the token balance (pay-as-you-go) and how long it lasts at
 * the customer's pace (ADR 0056), a running trial or nothing; the warning names tokens that
 * expire soon, else an ended trial without seats.
 */
export function voiceAiStatus(
  product: Product,
  seats: Seats,
  licence: LicenceRow | undefined,
  tokens: TokenHoldings,
  outlook: TokenOutlook,
  now: Date,
): VoiceAiStatus {
  const text = voiceAiStatusText;
  if (seats.kind === 'Perpetual') {
    return {
      TokenStatus: text.perpetual,
      StatusWarning: null,
      Notifications: [{ Message: text.perpetualActive, Importance: 'Low', Action: null }],
    };
  }
  const hasTrialEnded = seats.kind !== 'Trial' && Boolean(licence?.trialEndsAt);
  const notifications: LicenceNotification[] = [];
  if (seats.kind === 'Trial' && seats.trialEndsAt) {
    const message = text.trialEndsIn(product.displayName, daysLeft(seats.trialEndsAt, now));
    notifications.push({ Message: message, Importance: 'Medium', Action: null });
  } else if (seats.kind === 'Tokens') {
    notifications.push({ Message: text.payAsYouGoActive, Importance: 'Low', Action: null });
  } else if (hasTrialEnded) {
    notifications.push({ Message: text.trialEnded, Importance: 'High', Action: null });
  }

  let tokenStatus: string = hasTrialEnded ? text.noLicenceAfterTrial : text.noLicence;
  if (tokens.balance > 0) tokenStatus = withRunway(text.tokens(tokens.balance), outlook);
  else if (seats.kind === 'Trial' && seats.trialEndsAt) tokenStatus = text.trial(daysLeft(seats.trialEndsAt, now));

  const expiring = tokens.expiringSoon;
  let statusWarning: string | null = null;
  if (expiring) statusWarning = text.tokensExpiring(expiring.tokens, daysLeft(expiring.expiresAt, now));
  else if (seats.kind === 'None' && hasTrialEnded) statusWarning = text.trialEnded;

  return { TokenStatus: tokenStatus, StatusWarning: statusWarning, Notifications: notifications };
}

/** A balance line and, when the customer spent tokens in the window, how long the balance lasts. */
function withRunway(line: string, outlook: TokenOutlook): string {
  return outlook.runwayDays === null ? line : `${line} ${runwayText(outlook.runwayDays)}`;
}

/**
 * The buy page's token line (ADR 0056): the balance once ("Your tokens: 4,110 (about 6 minutes
 * of processing)") and its runway, for a Perpetual owner too; without tokens, the status line.
 */
export function buyPageTokenStatus(status: VoiceAiStatus, outlook: TokenOutlook): string {
  if (outlook.balance === 0) return status.TokenStatus;
  return withRunway(`${tokenOutlookText.balance(outlook.balance)}.`, outlook);
}

/** The lots that expire soon, as the licence list and the buy page send them. */
export function expiringTokensOf(outlook: TokenOutlook): ExpiringTokens[] {
  return outlook.expiring.map((lot) => ({ Tokens: lot.tokens, ExpiryDate: lot.expiresAt.getTime() }));
}
