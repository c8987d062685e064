import { z } from 'zod';
import { faultSchema } from '../fault-schema';

/**
 * The answer envelope of every call (docs/api.md, Typed results): `{Success: true, Result}`,
 * the sign-in calls with `Token` beside it, or `{Success: false, Fault}` with an HTTP status
 * of 4xx or 5xx.
 */
export type ResultEnvelope<R extends z.ZodType> = z.ZodObject<{ Success: z.ZodLiteral<true>; Result: R }>;
export function resultEnvelope<R extends z.ZodType>(result: R): ResultEnvelope<R> {
  return z.object({ Success: z.literal(true), Result: result });
}

/** A sign-in's answer: `Token` only for API clients (a browser gets the cookie alone, ADR 0029). */
export type SignInEnvelope<R extends z.ZodType> = z.ZodObject<{
  Success: z.ZodLiteral<true>;
  Token: z.ZodOptional<z.ZodString>;
  Result: R;
}>;
export function signInEnvelope<R extends z.ZodType>(result: R): SignInEnvelope<R> {
  return z.object({ Success: z.literal(true), Token: z.string().optional(), Result: result });
}

/** An answer without a Result (the client-report collector). */
export const successOnlyEnvelope = z.object({ Success: z.literal(true) });

export const faultEnvelopeSchema = z
  .object({ Success: z.literal(false), Fault: faultSchema })
  .meta({ id: 'FaultEnvelope', description: 'A refusal or a failure: the Fault of the error catalogue.' });

/**
 * A route's `schema.response`: the success answer under its status, and the shared Fault envelope
 * for every 4xx and 5xx (written by the error handler).
 */
export type Replies<S extends z.ZodType, C extends number = 200> = { [K in C]: S } & {
  '4xx': typeof faultEnvelopeSchema;
  '5xx': typeof faultEnvelopeSchema;
};
export function replies<S extends z.ZodType, C extends number = 200>(success: S, status: C = 200 as C): Replies<S, C> {
  return { [status]: success, '4xx': faultEnvelopeSchema, '5xx': faultEnvelopeSchema } as Replies<S, C>;
}

/** A route's `schema.response` when it answers a file (an installer, a receipt): its bytes, or a Fault. */
export function fileReplies(contentType: string, description: string) {
  return {
    200: { description, content: { [contentType]: { schema: z.string().meta({ format: 'binary' }) } } },
    '4xx': faultEnvelopeSchema,
    '5xx': faultEnvelopeSchema,
  };
}
