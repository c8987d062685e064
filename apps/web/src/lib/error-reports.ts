import {
  CLIENT_REPORT_LIMITS,
  CLIENT_REPORT_PATH,
  CLIENT_REPORTS_PER_PAGE,
  type ClientReport,
  ERROR_REPORT_SAMPLE_RATE,
  ERROR_TRACE_SAMPLE_RATE,
  TRACE_TIMING_MAX_MS,
} from '@soundid/contracts';

/**
 * The error-reporting service of docs/requirements.md §7 (docs/requirements.md §9: sample rate 0.4, trace
 * rate 0.01): a sample of the page's uncaught errors, and of page loads' timings, sent to the
 * account service, which logs them (ADR 0026). React hands its render errors and hydration
 * mismatches to the window's error event, so listening there catches them too.
 */
export interface ErrorReportOptions {
  random?: () => number;
  send?: (report: ClientReport) => void;
  /** The page's path only: a query may hold a link's token. */
  path?: () => string;
}

/** sendBeacon outlives the page (an error on the way out still arrives); fetch where it refuses. */
function sendReport(report: ClientReport): void {
  const body = JSON.stringify(report);
  const queued = navigator.sendBeacon?.(CLIENT_REPORT_PATH, new Blob([body], { type: 'application/json' }));
  if (queued) return;
  fetch(CLIENT_REPORT_PATH, { method: 'POST', body, keepalive: true, headers: { 'content-type': 'application/json' } })
    // A report that cannot be sent is dropped: reporting must never raise an error of its own.
    .catch(() => {});
}

function describeError(error: unknown): { message: string; stack?: string } {
  if (error instanceof Error) {
    return { message: `${error.name}: ${error.message}`, ...(error.stack ? { stack: error.stack } : {}) };
  }
  if (typeof error === 'string') return { message: error };
  try {
    return { message: String(JSON.stringify(error) ?? error) };
  } catch {
    // A cyclic object or a BigInt: the report must not raise an error of its own.
    return { message: Object.prototype.toString.call(error) };
  }
}

export function createErrorReporter({
  random = Math.random,
  send = sendReport,
  path = () => window.location.pathname,
}: ErrorReportOptions = {}) {
  const reported = new Set<string>();
  const pagePath = () => path().slice(0, CLIENT_REPORT_LIMITS.path);
  return {
    /** Reports an error when it falls in the sample, once per page for the same error. */
    report(error: unknown): void {
      if (random() >= ERROR_REPORT_SAMPLE_RATE || reported.size >= CLIENT_REPORTS_PER_PAGE) return;
      const { message, stack } = describeError(error);
      const key = `${message}\n${stack ?? ''}`;
      if (reported.has(key)) return;
      reported.add(key);
      send({
        kind: 'error',
        message: message.slice(0, CLIENT_REPORT_LIMITS.message),
        ...(stack ? { stack: stack.slice(0, CLIENT_REPORT_LIMITS.stack) } : {}),
        path: pagePath(),
      });
    },
    /** Decides once per page load whether it is traced; if so, sends its timings. */
    traceLoad(timings: () => Record<string, number>): void {
      if (random() >= ERROR_TRACE_SAMPLE_RATE) return;
      send({ kind: 'trace', path: pagePath(), timings: timings() });
    },
  };
}

/** Milliseconds from the navigation's start to its milestones, rounded. */
export function pageLoadTimings(performance: Performance = window.performance): Record<string, number> {
  const timings: Record<string, number> = {};
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  if (navigation) {
    timings.responseStart = navigation.responseStart;
    timings.domInteractive = navigation.domInteractive;
    timings.domContentLoaded = navigation.domContentLoadedEventEnd;
    timings.load = navigation.loadEventEnd;
  }
  const paint = performance.getEntriesByName('first-contentful-paint')[0];
  if (paint) timings.firstContentfulPaint = paint.startTime;
  timings.appStarted = performance.now();
  for (const [name, value] of Object.entries(timings)) {
    timings[name] = Math.min(Math.max(0, Math.round(value)), TRACE_TIMING_MAX_MS);
  }
  return timings;
}

/**
 * Reports the errors held until now (error-capture.ts), listens for the page's uncaught errors
 * and rejections, and traces this page load in the sample.
 */
export function startErrorReports(held: unknown[] = [], options?: ErrorReportOptions): void {
  const reporter = createErrorReporter(options);
  for (const error of held) reporter.report(error);
  window.addEventListener('error', (event) => reporter.report(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => reporter.report(event.reason));
  // The timings are complete once the load event has run.
  const trace = () => setTimeout(() => reporter.traceLoad(() => pageLoadTimings()), 0);
  if (document.readyState === 'complete') trace();
  else window.addEventListener('load', trace, { once: true });
}
