import {
  CLIENT_REPORT_LIMITS,
  CLIENT_REPORT_PATH,
  CLIENT_REPORTS_PER_PAGE,
  type ClientReport,
  ERROR_REPORT_SAMPLE_RATE,
  ERROR_TRACE_SAMPLE_RATE,
} from '@soundid/contracts';
import { describe, expect, it, vi } from 'vitest';
import { createErrorReporter, pageLoadTimings, startErrorReports } from './error-reports';

function reporterWith(random: number) {
  const sent: ClientReport[] = [];
  const reporter = createErrorReporter({ random: () => random, send: (r) => sent.push(r), path: () => '/products' });
  return { reporter, sent };
}

/** docs/requirements.md §9: error-report sample rate 0.4, trace rate 0.01 (ADR 0026). */
describe('error reports', () => {
  it('sends an error that falls in the 0.4 sample, with its stack and page path', () => {
    const { reporter, sent } = reporterWith(ERROR_REPORT_SAMPLE_RATE - 0.0001);
    const error = new TypeError('x is undefined');
    reporter.report(error);
    expect(sent).toEqual([
      { kind: 'error', message: 'TypeError: x is undefined', stack: error.stack, path: '/products' },
    ]);
  });

  it('sends nothing for an error outside the sample', () => {
    const { reporter, sent } = reporterWith(ERROR_REPORT_SAMPLE_RATE);
    reporter.report(new Error('not sampled'));
    expect(sent).toEqual([]);
  });

  it('sends the same error once, and at most a handful from one page', () => {
    const { reporter, sent } = reporterWith(0);
    const error = new Error('again');
    reporter.report(error);
    reporter.report(error);
    expect(sent).toHaveLength(1);
    for (let i = 0; i < 2 * CLIENT_REPORTS_PER_PAGE; i++) reporter.report(new Error(`error ${i}`));
    expect(sent).toHaveLength(CLIENT_REPORTS_PER_PAGE);
  });

  it('describes thrown values that are not errors, and cuts long ones to the service limits', () => {
    const { reporter, sent } = reporterWith(0);
    reporter.report('a plain string');
    reporter.report({ code: 42 });
    const long = new Error('m'.repeat(2 * CLIENT_REPORT_LIMITS.message));
    long.stack = 's'.repeat(2 * CLIENT_REPORT_LIMITS.stack);
    reporter.report(long);
    expect(sent.slice(0, 2)).toEqual([
      { kind: 'error', message: 'a plain string', path: '/products' },
      { kind: 'error', message: '{"code":42}', path: '/products' },
    ]);
    const cut = sent[2] as Extract<ClientReport, { kind: 'error' }>;
    expect(cut.message).toHaveLength(CLIENT_REPORT_LIMITS.message);
    expect(cut.stack).toHaveLength(CLIENT_REPORT_LIMITS.stack);
  });

  it('describes a value JSON cannot write without raising an error of its own', () => {
    const { reporter, sent } = reporterWith(0);
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(() => reporter.report(cyclic)).not.toThrow();
    expect(() => reporter.report(10n)).not.toThrow();
    expect(sent.map((r) => (r as { message: string }).message)).toEqual(['[object Object]', '[object BigInt]']);
  });

  it('traces a page load only in the 0.01 sample', () => {
    const timings = () => ({ load: 900 });
    const outside = reporterWith(ERROR_TRACE_SAMPLE_RATE);
    outside.reporter.traceLoad(timings);
    expect(outside.sent).toEqual([]);
    const inside = reporterWith(ERROR_TRACE_SAMPLE_RATE - 0.0001);
    inside.reporter.traceLoad(timings);
    expect(inside.sent).toEqual([{ kind: 'trace', path: '/products', timings: { load: 900 } }]);
  });

  it('reads the load milestones from the navigation and paint entries, rounded', () => {
    const performance = {
      getEntriesByType: () => [
        { responseStart: 101.4, domInteractive: 300.6, domContentLoadedEventEnd: 350, loadEventEnd: 0 },
      ],
      getEntriesByName: () => [{ startTime: 420.2 }],
      now: () => 1234.5,
    } as unknown as Performance;
    expect(pageLoadTimings(performance)).toEqual({
      responseStart: 101,
      domInteractive: 301,
      domContentLoaded: 350,
      load: 0,
      firstContentfulPaint: 420,
      appStarted: 1235,
    });
  });

  it("reports the window's uncaught errors and unhandled rejections, by beacon to the service", async () => {
    const beacons: { url: string; body: unknown }[] = [];
    const sendBeacon = vi.fn((url: string, data: Blob) => {
      void data.text().then((text) => beacons.push({ url, body: JSON.parse(text) }));
      return true;
    });
    vi.stubGlobal('navigator', { ...navigator, sendBeacon });
    startErrorReports([], { random: () => 0.5 * ERROR_TRACE_SAMPLE_RATE });

    window.dispatchEvent(new ErrorEvent('error', { error: new RangeError('out of range'), message: 'out of range' }));
    const rejection = new Event('unhandledrejection') as PromiseRejectionEvent;
    Object.assign(rejection, { reason: new Error('rejected') });
    window.dispatchEvent(rejection);

    await vi.waitFor(() => expect(beacons.filter((b) => (b.body as ClientReport).kind === 'error')).toHaveLength(2));
    expect(beacons.every((b) => b.url === CLIENT_REPORT_PATH)).toBe(true);
    expect(beacons.map((b) => (b.body as { message?: string }).message).filter(Boolean)).toEqual([
      'RangeError: out of range',
      'Error: rejected',
    ]);
    // This page load fell in the trace sample too: its timings follow once it has loaded.
    await vi.waitFor(() => expect(beacons.some((b) => (b.body as ClientReport).kind === 'trace')).toBe(true));
    vi.unstubAllGlobals();
  });
});
