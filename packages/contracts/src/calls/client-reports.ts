import { z } from 'zod';
import { CLIENT_REPORT_LIMITS, TRACE_TIMING_MAX_MS, TRACE_TIMING_NAME } from '../client-reports';

const timingsSchema = z
  .record(z.string().regex(TRACE_TIMING_NAME), z.number().finite().min(0).max(TRACE_TIMING_MAX_MS))
  .refine((timings) => Object.keys(timings).length <= CLIENT_REPORT_LIMITS.timings, {
    message: `at most ${CLIENT_REPORT_LIMITS.timings} timings`,
  });

/** What the browser reports to the service's error-report collector (client-reports.ts, ADR 0026). */
export const clientReportSchema = z.discriminatedUnion('kind', [
  z.strictObject({
    kind: z.literal('error'),
    message: z.string().max(CLIENT_REPORT_LIMITS.message),
    stack: z.string().max(CLIENT_REPORT_LIMITS.stack).optional(),
    /** The page's path, never its query (which may hold a link's token). */
    path: z.string().max(CLIENT_REPORT_LIMITS.path),
  }),
  z.strictObject({
    kind: z.literal('trace'),
    path: z.string().max(CLIENT_REPORT_LIMITS.path),
    timings: timingsSchema,
  }),
]);
export type ClientReport = z.infer<typeof clientReportSchema>;
