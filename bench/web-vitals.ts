/**
 * One page measured in Chromium, in two cold loads (fresh context, empty cache):
 *
 * - with the CPU slowed through the DevTools protocol (`Emulation.setCPUThrottlingRate`), by the
 *   page's own performance observers: Total Blocking Time, LCP, CLS and FCP as Lighthouse
 *   defines them, on a real timeline. On a busy machine these include the time the page waited
 *   for a core, which the slowdown multiplies too.
 * - unslowed, with a trace: the CPU time (thread time) of each of the main thread's tasks. It
 *   moves far less with the machine's other load than wall time (a fixed-work page: 228–238 ms
 *   of CPU at a load average of 24 on 2 cores, when its wall-clock time went from 227 to
 *   1,039 ms), though it does move with it between quieter and busier hours (150 against 215 ms
 *   at load averages of 10 and 23), so bench/web.ts reads it beside a reference loaded in the
 *   same run. The blocking time it makes at a slowdown (each task's CPU time times the slowdown,
 *   beyond 50 ms: Lighthouse's own simulation, with CPU time instead of wall time) is the figure
 *   to compare builds by. (CPU time under the slowdown is no measure: the throttle's own pauses
 *   partly count in it.)
 *
 * Used by `npm run bench:web` (bench/web.ts).
 */
import type { Browser, Page } from 'playwright-core';

/** Lighthouse's mobile screen (a mid-range phone), so that layout and paint cost what they cost there. */
const PHONE = { viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true, hasTouch: true };

/** A task longer than this blocks input; what it runs beyond it is Total Blocking Time. */
const LONG_TASK_MS = 50;
/** The load is over when the network is idle and no long task came for this long (Lighthouse: 5 s unthrottled). */
const QUIET_MS = 3000;
const LOAD_LIMIT_MS = 60_000;

export interface VitalsSample {
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  /** Long tasks after the first contentful paint, and their length in all. */
  longTasks: number;
  longTaskMs: number;
  /** The main thread's CPU time after the first contentful paint, unslowed. */
  cpuMs: number;
  /** The CPU time of each of those tasks. */
  taskCpuMs: number[];
  /** TBT from that CPU time at the slowdown (`blockingTimeAt`). */
  cpuTbtMs: number;
  scriptBytes: number;
  scriptRequests: number;
  /** Where the navigation ended (a signed-in home redirects). */
  finalPath: string;
}

interface Observed {
  longTasks: [start: number, duration: number][];
  lcp: number;
  fcp: number;
  shifts: [start: number, value: number][];
  lastLongTaskEnd: number;
}

/**
 * Runs in the page before its own scripts and records what the observers report. A string: a
 * function would reach the page as tsx compiled it, with helpers the page does not have.
 */
const VITALS_NAME = '__benchVitals';
const VITALS = `window.${VITALS_NAME}`;

const OBSERVE_VITALS = `(() => {
  const seen = { longTasks: [], lcp: 0, fcp: 0, shifts: [], lastLongTaskEnd: 0 };
  window.${VITALS_NAME} = seen;
  const observe = (type, take) =>
    new PerformanceObserver((list) => list.getEntries().forEach(take)).observe({ type, buffered: true });
  observe('longtask', (entry) => {
    seen.longTasks.push([entry.startTime, entry.duration]);
    seen.lastLongTaskEnd = Math.max(seen.lastLongTaskEnd, entry.startTime + entry.duration);
  });
  observe('largest-contentful-paint', (entry) => { seen.lcp = entry.startTime; });
  observe('paint', (entry) => { if (entry.name === 'first-contentful-paint') seen.fcp = entry.startTime; });
  observe('layout-shift', (entry) => { if (!entry.hadRecentInput) seen.shifts.push([entry.startTime, entry.value]); });
})();`;

/**
 * Lighthouse's Total Blocking Time: what each task after the first contentful paint runs beyond
 * 50 ms; a task that began before the paint counts from the paint on.
 */
export function totalBlockingTime(longTasks: Observed['longTasks'], fcp: number): number {
  let sum = 0;
  for (const [start, duration] of longTasks) {
    const end = start + duration;
    if (end <= fcp) continue;
    sum += Math.max(0, end - Math.max(start, fcp) - LONG_TASK_MS);
  }
  return sum;
}

/** CLS as Chromium and Lighthouse report it: the largest session window (1 s gap, 5 s at most). */
export function cumulativeLayoutShift(shifts: Observed['shifts']): number {
  let largest = 0;
  let window = 0;
  let windowStart = -Infinity;
  let previous = -Infinity;
  for (const [start, value] of [...shifts].sort((a, b) => a[0] - b[0])) {
    if (start - previous > 1000 || start - windowStart > 5000) {
      window = 0;
      windowStart = start;
    }
    window += value;
    previous = start;
    largest = Math.max(largest, window);
  }
  return largest;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  tdur?: number;
}

/** What the trace categories below record: the main thread's tasks, with thread (CPU) time, and paints. */
const TRACE_CATEGORIES = ['disabled-by-default-devtools.timeline', 'devtools.timeline', 'loading'];

/**
 * The CPU time of each of the main thread's tasks after the first contentful paint (the thread
 * the paint was reported on), in an unslowed load. A task that began before the paint counts
 * with its share after the paint.
 */
export function mainThreadTasks(events: TraceEvent[]): number[] {
  const paint = events.find((e) => e.name === 'firstContentfulPaint');
  if (!paint) throw new Error('The trace has no first contentful paint');
  const tasks = events
    .filter((e) => e.name === 'RunTask' && e.ph === 'X' && e.pid === paint.pid && e.tid === paint.tid)
    .filter((e) => e.ts + (e.dur ?? 0) > paint.ts)
    .sort((a, b) => a.ts - b.ts);
  const cpu: number[] = [];
  let outerEnd = 0;
  for (const task of tasks) {
    const dur = task.dur ?? 0;
    if (task.ts < outerEnd || dur <= 0) continue; // nested in the previous task
    outerEnd = task.ts + dur;
    const share = Math.min(1, (outerEnd - paint.ts) / dur);
    cpu.push(((task.tdur ?? dur) * share) / 1000);
  }
  return cpu;
}

/** The blocking time tasks of this CPU time make `rate` times slower: each one's excess over 50 ms. */
export function blockingTimeAt(taskCpuMs: number[], rate: number): number {
  return taskCpuMs.reduce((sum, cpu) => sum + Math.max(0, cpu * rate - LONG_TASK_MS), 0);
}

export interface LoadOptions {
  /** The CPU slowdown (1: none; Lighthouse's mobile preset: 4). */
  cpuRate: number;
  /** Cookies for the page's origin (a signed-in customer's session). */
  cookies?: { name: string; value: string }[];
  /** Answers the page's own URL from the bench instead of the service (the reference page). */
  html?: string;
}

/** Loads `url` in a fresh context at `rate` until it is quiet; `measure` reads the loaded page. */
async function coldLoad<T>(
  browser: Browser,
  url: string,
  options: LoadOptions,
  rate: number,
  measure: (page: Page) => Promise<T>,
): Promise<T> {
  const context = await browser.newContext(PHONE);
  try {
    if (options.cookies?.length) {
      await context.addCookies(options.cookies.map((c) => ({ ...c, url, httpOnly: true, sameSite: 'Lax' as const })));
    }
    const { html } = options;
    if (html) await context.route(url, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await context.addInitScript(OBSERVE_VITALS);
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate });
    return await measure(page);
  } finally {
    await context.close();
  }
}

/** Goes to `url` and waits until the network is idle and no long task came for QUIET_MS. */
async function loadUntilQuiet(page: Page, url: string): Promise<void> {
  await page.goto(url, { waitUntil: 'networkidle', timeout: LOAD_LIMIT_MS });
  const deadline = Date.now() + LOAD_LIMIT_MS;
  for (;;) {
    const quietFor = await page.evaluate<number>(`performance.now() - ${VITALS}.lastLongTaskEnd`);
    if (quietFor >= QUIET_MS) break;
    if (Date.now() > deadline) throw new Error(`${url} did not settle within ${LOAD_LIMIT_MS} ms`);
    await page.waitForTimeout(Math.min(QUIET_MS - quietFor + 50, 1000));
  }
  await page.waitForLoadState('networkidle');
}

/** The page's figures at the slowdown, then its main thread's CPU time unslowed (see above). */
export async function loadAndMeasure(browser: Browser, url: string, options: LoadOptions): Promise<VitalsSample> {
  const vitals = await coldLoad(browser, url, options, options.cpuRate, async (page) => {
    await loadUntilQuiet(page, url);
    const seen = await page.evaluate<Observed>(VITALS);
    // Scripts by their path (the app's are modules under /assets/), compressed bytes as sent.
    const scripts = await page.evaluate<number[]>(
      `performance.getEntriesByType('resource').filter((e) => /\\.m?js$/.test(new URL(e.name).pathname)).map((e) => e.transferSize)`,
    );
    const afterPaint = seen.longTasks.filter(([start, duration]) => start + duration > seen.fcp);
    return {
      fcpMs: seen.fcp,
      lcpMs: seen.lcp,
      tbtMs: totalBlockingTime(seen.longTasks, seen.fcp),
      cls: cumulativeLayoutShift(seen.shifts),
      longTasks: afterPaint.length,
      longTaskMs: afterPaint.reduce((sum, [, duration]) => sum + duration, 0),
      scriptBytes: scripts.reduce((sum, bytes) => sum + bytes, 0),
      scriptRequests: scripts.length,
      finalPath: new URL(page.url()).pathname,
    };
  });
  const cpu = await coldLoad(browser, url, options, 1, async (page) => {
    await browser.startTracing(page, { categories: TRACE_CATEGORIES });
    try {
      await loadUntilQuiet(page, url);
    } catch (error) {
      await browser.stopTracing().catch(() => undefined);
      throw error;
    }
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as { traceEvents: TraceEvent[] };
    const tasks = mainThreadTasks(trace.traceEvents);
    return {
      cpuMs: tasks.reduce((sum, cpu) => sum + cpu, 0),
      taskCpuMs: tasks,
      cpuTbtMs: blockingTimeAt(tasks, options.cpuRate),
    };
  });
  return { ...vitals, ...cpu };
}
