/**
 * The error-reporting service the front end uses (docs/requirements.md §7, both specs
 * docs/requirements.md §9): the browser sends a sample of its errors (ERROR_REPORT_SAMPLE_RATE) and of its page-load
 * traces (ERROR_TRACE_SAMPLE_RATE) to the account service, which logs them (ADR 0026). Kept free
 * of zod: the app's entry imports these, and /login loads no schema library (ADR 0020).
 */
export const CLIENT_REPORT_PATH = '/api/client-reports';

/** Reports kept per client address and minute; more are refused (429) before anything is logged. */
export const CLIENT_REPORTS_PER_MINUTE = 30;

/** Reports one page sends at most in its life: an error repeating in a loop is reported once or twice. */
export const CLIENT_REPORTS_PER_PAGE = 10;

export const CLIENT_REPORT_LIMITS = { message: 1000, stack: 8000, path: 300, timings: 12 } as const;

/** A page-load trace's timing names: milliseconds since the navigation started. */
export const TRACE_TIMING_NAME = /^[a-zA-Z]{1,40}$/;
export const TRACE_TIMING_MAX_MS = 600_000;
