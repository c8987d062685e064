import {
  CLIENT_REPORT_LIMITS,
  CLIENT_REPORT_PATH,
  CLIENT_REPORTS_PER_MINUTE,
  clientReportSchema,
  redactUrl,
  replies,
  successOnlyEnvelope,
} from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Fault } from '../../lib/fault';
import type { AttemptLimiter, LimitRule } from '../accounts/attempt-limits';

/** Per client address, counted in the database: every replica refuses past the same limit. */
const REPORT_LIMIT: LimitRule = { scope: 'client-report', max: CLIENT_REPORTS_PER_MINUTE, windowMinutes: 1 };

/** A report is small; a larger body is refused before it is parsed. */
const REPORT_BODY_LIMIT = 2 * (CLIENT_REPORT_LIMITS.message + CLIENT_REPORT_LIMITS.stack + CLIENT_REPORT_LIMITS.path);

/**
 * The error-reporting service of the front end (ADR 0026): the browser's sampled errors and
 * page-load traces go to the service log, with the rest of its faults, where operators read them.
 * Anyone may report (an error can happen before sign-in); nothing of the report is trusted
 * beyond being logged, and the path is redacted as request addresses are.
 */
export const clientReportRoutes: FastifyPluginAsyncZod<{ limiter: AttemptLimiter }> = async (app, { limiter }) => {
  app.post(
    CLIENT_REPORT_PATH,
    { schema: { body: clientReportSchema, response: replies(successOnlyEnvelope) }, bodyLimit: REPORT_BODY_LIMIT },
    async (request) => {
      if (await limiter.isLocked(REPORT_LIMIT, request.ip)) throw new Fault('AttemptOverLimit');
      await limiter.record(REPORT_LIMIT, request.ip);
      const report = request.body;
      const client = { path: redactUrl(report.path), userAgent: request.headers['user-agent']?.slice(0, 300) };
      if (report.kind === 'error') {
        request.log.warn({ clientError: { ...client, message: report.message, stack: report.stack } }, 'client error');
      } else {
        request.log.info({ clientTrace: { ...client, timings: report.timings } }, 'client page-load trace');
      }
      return { Success: true as const };
    },
  );
};
