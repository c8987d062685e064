// The profile's voice AI token notices panel (ADR 0057): apart from core.ts so that only the
// profile loads its words (ADR 0020).
import { lowBalanceThresholdProblem } from '../token-notices';
import { processingTimeText } from '../tokens';

export const tokenNoticesText = {
  heading: 'Voice AI token emails',
  intro: 'We can email you before your SoundID VoiceAI tokens expire and when your balance runs low.',
  expiryNotices: 'Email me 30, 7 and 1 day before tokens expire',
  lowBalanceNotices: 'Email me when my token balance runs low',
  threshold: 'Low balance threshold (tokens)',
  thresholdHint: (tokens: number) =>
    `About ${processingTimeText(tokens)} of processing. We email you once each time a spend takes your balance below it.`,
  thresholdInvalid: lowBalanceThresholdProblem,
  defaultThreshold: (tokens: number) => `Default: ${tokens.toLocaleString('en-US')} tokens (5 minutes of processing).`,
  save: 'Update email preferences',
  saved: 'Your email preferences have been saved.',
  loadFailed: 'Your email preferences could not be loaded. Please try again later.',
} as const;
