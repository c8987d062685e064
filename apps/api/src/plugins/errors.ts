import { ExceptionType, faults } from '@soundid/contracts';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { Fault } from '../lib/fault';
import { setSecurityHeaders } from './security-headers';

/** Errors that mean the database cannot be reached right now: a 503, not a 500. */
const UNAVAILABLE_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'EPIPE',
  '57P01',
  '57P03',
  '53300',
  '08006',
  '08001',
  '08003',
]);

/** Walks the cause chain too: Drizzle wraps the driver's error in its own. */
function anyCause(error: unknown, test: (e: ErrorLike) => boolean): boolean {
  for (let e = error as ErrorLike | undefined, depth = 0; e && depth < 5; e = e.cause, depth++) {
    if (test(e)) return true;
  }
  return false;
}

const isDatabaseUnavailable = (error: unknown) =>
  anyCause(
    error,
    (e) => (e.code !== undefined && UNAVAILABLE_CODES.has(e.code)) || UNAVAILABLE_MESSAGES.test(e.message ?? ''),
  );

/**
 * Text PostgreSQL cannot store (a NUL character, found by the fuzz suite in a query string):
 * the input is bad, not the service.
 */
const UNSTORABLE_TEXT_CODES = new Set(['22021', '22P05']);
const isUnstorableText = (error: unknown) =>
  anyCause(error, (e) => e.code !== undefined && UNSTORABLE_TEXT_CODES.has(e.code));

interface ErrorLike {
  code?: string;
  message?: string;
  cause?: ErrorLike;
}

const UNAVAILABLE_MESSAGES =
  /Connection terminated|timeout exceeded when trying to connect|Client has encountered a connection error|Connection refused|the database system is (starting up|shutting down)/i;

/** Turns anything thrown into the contract's Fault envelope; details of a 5xx stay in the log. */
export function toFault(error: unknown): Fault {
  if (error instanceof Fault) return error;
  if (hasZodFastifySchemaValidationErrors(error)) {
    const issues = error.validation;
    const variables: Record<string, string> = {};
    for (const issue of issues) {
      const field = issue.instancePath.replace(/^\//, '').replace(/\//g, '.') || 'body';
      variables[field] ??= issue.message ?? 'invalid';
    }
    return new Fault('RequestInvalid', variables, issues[0]?.message ?? undefined);
  }
  const fastifyError = error as FastifyError;
  if (fastifyError.code === 'FST_ERR_CTP_BODY_TOO_LARGE') return new Fault('RequestTooLarge');
  if (isDatabaseUnavailable(error)) return new Fault('ServiceUnavailable');
  if (isUnstorableText(error)) return new Fault('RequestInvalid');
  const status = fastifyError.statusCode;
  if (status && status >= 400 && status < 500) {
    const fault = new Fault(
      'RequestInvalid',
      {},
      status === 415 ? 'Send the request body as application/json.' : undefined,
    );
    return Object.assign(fault, { status: status === 404 ? 404 : 400 });
  }
  return new Fault('Unknown');
}

export function sendFault(reply: FastifyReply, fault: Fault): FastifyReply {
  const spec = faults[fault.faultName];
  if ('retryAfterSeconds' in spec) reply.header('retry-after', String(spec.retryAfterSeconds));
  return reply.code(fault.status).type('application/json').send({ Success: false, Fault: fault.toBody() });
}

/**
 * Fastify's own refusals before routing (a malformed URL, a path parameter longer than the
 * router takes): the same 400 Fault as any bad input, not Fastify's default body.
 */
export function answerFrameworkError(_error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  setSecurityHeaders(reply);
  sendFault(reply, new Fault('RequestInvalid'));
}

export function registerErrorHandling(app: FastifyInstance, onSessionFault: (reply: FastifyReply) => void): void {
  app.setErrorHandler((error, request: FastifyRequest, reply) => {
    const fault = toFault(error);
    if (fault.status >= 500) request.log.error({ err: error }, 'request failed');
    else request.log.info({ fault: fault.faultName }, 'request refused');
    if (fault.type === ExceptionType.Session) onSessionFault(reply);
    return sendFault(reply, fault);
  });
}
