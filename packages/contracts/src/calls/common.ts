import { z } from 'zod';

/**
 * A call's body: the named fields plus the client's optional `silent` flag
 * (a silent request's fault is not shown globally). Unknown fields are a 400.
 */
export function callBody<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject({ ...shape, silent: z.boolean().optional() });
}

export const emptyBody = callBody({});

/**
 * An opaque action token from a mail link, bounded. Its shape is not checked here: a link cut
 * short or mangled by a mail client is an invalid link, and the call answers with that link's
 * own fault (EmailValidationTokenNotFound, AccountDeletionTokenNotFound, …), not RequestInvalid.
 * Only hashes are looked up, so any string is safe to look up.
 */
export const actionTokenSchema = z.string().max(200);
