/**
 * Lighthouse's mobile preset (simulated slow 4G, a CPU `cpuSlowdownMultiplier` times slower, a
 * phone's screen) on one page: its performance score and the figures the score is made of. Used
 * by `npm run bench:web` (bench/web.ts) beside its own measurements on a real timeline.
 */
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';

export interface LighthouseSample {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  scriptRequests: number;
}

interface ResourceRow {
  resourceType: string;
  transferSize: number;
  requestCount: number;
}

/**
 * Lighthouse failures of its own trace recording ("Please run Lighthouse again"): such a run
 * measured nothing, so it is run again, at most twice. Any other failure stops the benchmark.
 */
const TRACE_RECORDING_FAILURES = new Set(['NO_NAVSTART']);
const TRACE_RETRIES = 2;

export async function launchForLighthouse(chromePath: string): Promise<chromeLauncher.LaunchedChrome> {
  return chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
  });
}

export async function lighthouseSample(
  url: string,
  port: number,
  cookie: string | undefined,
  cpuSlowdownMultiplier: number,
  retriesLeft = TRACE_RETRIES,
): Promise<LighthouseSample> {
  const result = await lighthouse(
    url,
    {
      port,
      output: 'json',
      logLevel: 'error',
      onlyCategories: ['performance'],
      ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
    },
    { extends: 'lighthouse:default', settings: { throttling: { cpuSlowdownMultiplier } } },
  );
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError && TRACE_RECORDING_FAILURES.has(lhr.runtimeError.code) && retriesLeft > 0) {
    console.log(`${url}: ${lhr.runtimeError.code}, Lighthouse recorded no trace; running it again`);
    return lighthouseSample(url, port, cookie, cpuSlowdownMultiplier, retriesLeft - 1);
  }
  if (lhr.runtimeError) throw new Error(`${url}: ${lhr.runtimeError.code} ${lhr.runtimeError.message}`);
  const numeric = (id: string) => {
    const value = lhr.audits[id]?.numericValue;
    if (value === undefined) throw new Error(`${url}: no ${id} (${lhr.audits[id]?.errorMessage ?? 'not run'})`);
    return value;
  };
  const summary = (lhr.audits['resource-summary']?.details as { items?: ResourceRow[] } | undefined)?.items ?? [];
  const scripts = summary.find((row) => row.resourceType === 'script');
  return {
    score: Math.round((lhr.categories.performance?.score ?? 0) * 100),
    fcpMs: numeric('first-contentful-paint'),
    lcpMs: numeric('largest-contentful-paint'),
    tbtMs: numeric('total-blocking-time'),
    cls: numeric('cumulative-layout-shift'),
    scriptBytes: scripts?.transferSize ?? 0,
    scriptRequests: scripts?.requestCount ?? 0,
  };
}
