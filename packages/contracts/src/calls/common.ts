import { z } from 'zod';

/**
 * A call's body: the named fields plus the client's optional `silent` flag
 * (a silent request's fault is not shown globally). Unknown fields are a 400.
 */
export function callBody<T extends z.ZodRawShape>(shape: T) {
  return z.strictObject({ ...shape, silent: z.boolean().optional() });
}

export const emptyBody = callBody({});

/** An opaque action token from a mail link: url-safe base64, bounded. */
export const actionTokenSchema = z
  .string()
  .trim()
  .min(16)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/);
