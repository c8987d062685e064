import { messages } from '@soundid/contracts';
import { isFault } from '../../../lib/api-errors';

/**
 * What a form choosing a new password shows under itself for a fault it has no message of its
 * own for: 'Unknown error' (docs/requirements.md §8), except a breached new password, whose
 * message says why it was refused (ADR 0042).
 */
export function newPasswordFaultText(error: unknown): string {
  return isFault(error, 'UserPasswordBreached') ? error.message : messages.unknownErrorShort;
}
