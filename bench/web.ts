/**
 * `npm run bench:web`: the front end on a slow phone, against the service as `npm start` runs
 * it (the web build, then the service through the test kit on a fresh embedded database).
 *
 * 1. Real Chromium (playwright-core, Debian's binary, never a downloaded one) on a phone's
 *    screen, /login signed out, /products and the signed-in home (/, which leads to /products)
 *    as the demo customer, `BENCH_WEB_RUNS` cold loads each (default 5), medians; see
 *    bench/web-vitals.ts for the two loads of each:
 *    - with the CPU `BENCH_WEB_CPU` times slower (default 4, Lighthouse's mobile preset) through
 *      the DevTools protocol: TBT, LCP, CLS and FCP on the real timeline;
 *    - unslowed, traced: the main thread's CPU time after the first paint, and the blocking
 *      time it makes at `BENCH_WEB_CPU` and on the slow machine (below).
 *    Each run first loads the reference page (bench/web-reference.ts: fixed work): the pages'
 *    CPU time is given as a ratio to its in the same run, and the slow machine is the one where
 *    the reference takes `BENCH_WEB_SLOW_REFERENCE_MS` of CPU, so the run's slowdown for it is
 *    that over the reference's CPU time here and now (docs/benchmarks.md, Front end). With
 *    `BENCH_WEB_BASE_DIST` (another checkout's built apps/web/dist, `npm install`ed there) a
 *    second service serves that build beside this one, each page is loaded from both in turn,
 *    and the after/before ratio of the same run is given.
 * 2. Lighthouse's mobile preset on /login and /products (`BENCH_WEB_LIGHTHOUSE_RUNS`, default 3,
 *    0 skips it; its CPU multiplier `BENCH_WEB_LIGHTHOUSE_CPU`, default 4): score and figures.
 *
 * Writes its section of docs/benchmarks.md (between the bench:web markers) and prints the same.
 * Not part of `npm test`.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { SESSION_COOKIE_PLAIN } from '@soundid/contracts';
import type { Browser } from 'playwright-core';
import { signIn, startProcess } from '../apps/api/test/kit';
import { buildWeb, demoAccount, type RunningApi } from '../apps/web/e2e/api-server';
import { launchChromium } from '../apps/web/e2e/chromium';
import { kib, LOGIN_JS_BUDGET_BYTES, LOGIN_SCREEN_MODULE, routeScripts } from '../apps/web/scripts/route-scripts';
import { repoRoot } from './services';
import { type LighthouseSample, launchForLighthouse, lighthouseSample } from './web-lighthouse';
import { REFERENCE_HTML, REFERENCE_PATH, SLOW_REFERENCE_DEFAULT_MS } from './web-reference';
import { blockingTimeAt, loadAndMeasure, type VitalsSample } from './web-vitals';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 5);
const CPU_RATE = Number(process.env.BENCH_WEB_CPU ?? 4);
/**
 * The slow machine, by how long the reference work's main thread takes there, slowdown included
 * (ms of CPU): on the machine at hand, each run's tasks are slowed by this over the same run's
 * reference CPU time, so that the figure does not move with how busy the machine is.
 */
const SLOW_REFERENCE_MS = Number(process.env.BENCH_WEB_SLOW_REFERENCE_MS ?? SLOW_REFERENCE_DEFAULT_MS);
const BASE_DIST = process.env.BENCH_WEB_BASE_DIST;
const LIGHTHOUSE_RUNS = Number(process.env.BENCH_WEB_LIGHTHOUSE_RUNS ?? 3);
const LIGHTHOUSE_CPU = Number(process.env.BENCH_WEB_LIGHTHOUSE_CPU ?? 4);
const CHROME_PATH = process.env.CHROMIUM_PATH ?? process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DOCS = path.join(repoRoot, 'docs', 'benchmarks.md');
const START = '<!-- bench:web:start -->';
const END = '<!-- bench:web:end -->';

/** The front-end bars (ADR 0020, ADR 0024: Lighthouse score, LCP, TBT, CLS on the mobile preset). */
const BARS = { score: 95, lcpMs: 1500, tbtMs: 100, cls: 0.02 };

interface Service {
  name: string;
  api: RunningApi;
  cookie: { name: string; value: string };
}

interface PageToLoad {
  name: string;
  path: string;
  signedIn: boolean;
  html?: string;
}

const REFERENCE: PageToLoad = {
  name: 'reference work (bench/web-reference.ts)',
  path: REFERENCE_PATH,
  signedIn: false,
  html: REFERENCE_HTML,
};
const PAGES: PageToLoad[] = [
  { name: '/login (signed out)', path: '/login', signedIn: false },
  { name: '/products (demo customer)', path: '/products', signedIn: true },
  { name: '/ (demo customer: home, leads to /products)', path: '/', signedIn: true },
];

/** The service as `npm start` runs it (production hashing cost, the demo customer seeded). */
async function startService(name: string, env: Record<string, string> = {}): Promise<Service> {
  const started = await startProcess({ hostname: 'localhost', env: { LOG_LEVEL: 'warn', ...env }, timeoutMs: 120_000 });
  const api: RunningApi = { baseUrl: started.url, output: started.output, stop: started.stop };
  // The session token is what the service's cookie carries (over http, its plain name).
  const cookie = { name: SESSION_COOKIE_PLAIN, value: await signIn(api.baseUrl, await demoAccount(api)) };
  return { name, api, cookie };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

const ms = (value: number) => `${Math.round(value)} ms`;
const ratio = (value: number) => (Number.isFinite(value) ? `${value.toFixed(2)}x` : 'n/a');
const verdict = (ok: boolean) => (ok ? 'meets' : '**misses**');
const load = () => os.loadavg()[0]?.toFixed(1) ?? '?';
const loadAverages = () =>
  os
    .loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');

function chromiumVersion(): string {
  try {
    return execFileSync(CHROME_PATH, ['--version'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
  } catch {
    return CHROME_PATH;
  }
}

function writeSection(section: string): void {
  const docs = readFileSync(DOCS, 'utf8');
  const start = docs.indexOf(START);
  const end = docs.indexOf(END);
  const block = `${START}\n${section}\n${END}`;
  const next =
    start >= 0 && end > start
      ? docs.slice(0, start) + block + docs.slice(end + END.length)
      : `${docs.trimEnd()}\n\n## Front end (\`npm run bench:web\`)\n\n${block}\n`;
  writeFileSync(DOCS, next);
}

/** A load, with the blocking time its tasks make on the slow machine (reference-scaled, see above). */
type Measured = VitalsSample & { slowTbtMs: number; slowRate: number };
type Samples = Map<string, Measured[]>;
const key = (page: PageToLoad, service: Service) => `${page.path} ${service.name}`;

async function measureRuns(browser: Browser, services: Service[], lines: string[]): Promise<Samples> {
  const samples: Samples = new Map();
  for (let run = 1; run <= RUNS; run++) {
    // Alternate which build goes first, so that neither always meets the machine as the other left it.
    const order = run % 2 ? services : [...services].reverse();
    let slowRate = Number.NaN;
    for (const page of [REFERENCE, ...PAGES]) {
      for (const service of page === REFERENCE ? [services[0] as Service] : order) {
        const loaded = await loadAndMeasure(browser, `${service.api.baseUrl}${page.path}`, {
          cpuRate: CPU_RATE,
          cookies: page.signedIn ? [service.cookie] : undefined,
          html: page.html,
        });
        if (page.signedIn && loaded.finalPath === '/login') throw new Error(`${page.path}: not signed in`);
        // The reference comes first in every run: it sets the slowdown the slow machine means now.
        if (page === REFERENCE) slowRate = SLOW_REFERENCE_MS / loaded.cpuMs;
        const sample = { ...loaded, slowRate, slowTbtMs: blockingTimeAt(loaded.taskCpuMs, slowRate) };
        samples.set(key(page, service), [...(samples.get(key(page, service)) ?? []), sample]);
        const line = `run ${run}, ${page.name}${services.length > 1 ? ` [${service.name}]` : ''}: TBT ${ms(sample.tbtMs)} (${sample.longTasks} long tasks, ${ms(sample.longTaskMs)}), FCP ${ms(sample.fcpMs)}, LCP ${ms(sample.lcpMs)}, CLS ${sample.cls.toFixed(3)}; CPU ${ms(sample.cpuMs)}, blocking ${ms(sample.cpuTbtMs)} at ${CPU_RATE}x, ${ms(sample.slowTbtMs)} on the slow machine (${slowRate.toFixed(1)}x); load ${load()}`;
        console.log(line);
        lines.push(`- ${line}`);
      }
    }
  }
  return samples;
}

/** The median of per-run ratios of `field` (each load of `of` against the same run's of `to`). */
function medianRatio(of: Measured[], to: Measured[], field: 'cpuMs'): number {
  return median(of.map((sample, i) => sample[field] / (to[i]?.[field] ?? Number.NaN)));
}

type Figure = keyof Omit<Measured, 'finalPath' | 'taskCpuMs'>;
const medianOf = (list: Measured[], field: Figure) => median(list.map((s) => s[field]));

/** The bars on the real timeline, at the slowdown. */
function timelineTable(samples: Samples, head: Service): string[] {
  const rows = [
    `| Page | TBT (<= ${BARS.tbtMs} ms) | LCP (<= ${BARS.lcpMs} ms) | CLS (<= ${BARS.cls}) | FCP | Long tasks (their time) | Scripts transferred |`,
    '|---|---|---|---|---|---|---|',
  ];
  for (const page of [REFERENCE, ...PAGES]) {
    const list = samples.get(key(page, head)) ?? [];
    const of = (field: Figure) => medianOf(list, field);
    const bar = (ok: boolean) => (page === REFERENCE ? '' : ` (${verdict(ok)})`);
    rows.push(
      `| ${page.name} | ${ms(of('tbtMs'))}${bar(of('tbtMs') <= BARS.tbtMs)} | ${ms(of('lcpMs'))}${bar(of('lcpMs') <= BARS.lcpMs)} | ${of('cls').toFixed(3)}${bar(of('cls') <= BARS.cls)} | ${ms(of('fcpMs'))} | ${of('longTasks')} (${ms(of('longTaskMs'))}) | ${page === REFERENCE ? '' : `${kib(of('scriptBytes'))} in ${of('scriptRequests')}`} |`,
    );
  }
  return rows;
}

/** The main thread's work from CPU time, beside the reference and (with a base build) before. */
function cpuTable(samples: Samples, services: Service[]): string[] {
  const [head, base] = services as [Service, Service | undefined];
  const reference = samples.get(key(REFERENCE, head)) ?? [];
  const rows = [
    `| Page | CPU after FCP | CPU / reference | TBT at ${CPU_RATE}x (<= ${BARS.tbtMs} ms) | TBT on the slow machine |${base ? ` Before: CPU, TBT at ${CPU_RATE}x, on the slow machine | CPU after / before |` : ''}`,
    `|---|---|---|---|---|${base ? '---|---|' : ''}`,
  ];
  for (const page of [REFERENCE, ...PAGES]) {
    const list = samples.get(key(page, head)) ?? [];
    const of = (field: Figure) => medianOf(list, field);
    const before = base && page !== REFERENCE ? (samples.get(key(page, base)) ?? []) : undefined;
    const comparison = !base
      ? ''
      : before
        ? ` ${ms(medianOf(before, 'cpuMs'))}, ${ms(medianOf(before, 'cpuTbtMs'))}, ${ms(medianOf(before, 'slowTbtMs'))} | ${ratio(medianRatio(list, before, 'cpuMs'))} |`
        : ' | |';
    const bar = page === REFERENCE ? '' : ` (${verdict(of('cpuTbtMs') <= BARS.tbtMs)})`;
    rows.push(
      `| ${page.name} | ${ms(of('cpuMs'))} | ${ratio(medianRatio(list, reference, 'cpuMs'))} | ${ms(of('cpuTbtMs'))}${bar} | ${ms(of('slowTbtMs'))} |${comparison}`,
    );
  }
  return rows;
}

async function lighthouseTable(service: Service, lines: string[]): Promise<string[]> {
  const chrome = await launchForLighthouse(CHROME_PATH);
  const rows = [
    `| Page | Performance (>= ${BARS.score}) | LCP (<= ${BARS.lcpMs} ms) | TBT (<= ${BARS.tbtMs} ms) | CLS (<= ${BARS.cls}) | FCP | Scripts transferred |`,
    '|---|---|---|---|---|---|---|',
  ];
  try {
    const cookie = `${service.cookie.name}=${service.cookie.value}`;
    for (const page of PAGES.slice(0, 2)) {
      const samples: LighthouseSample[] = [];
      for (let run = 1; run <= LIGHTHOUSE_RUNS; run++) {
        const url = `${service.api.baseUrl}${page.path}`;
        const sample = await lighthouseSample(url, chrome.port, page.signedIn ? cookie : undefined, LIGHTHOUSE_CPU);
        samples.push(sample);
        const line = `Lighthouse ${page.name} run ${run}: score ${sample.score}, LCP ${ms(sample.lcpMs)}, TBT ${ms(sample.tbtMs)}, CLS ${sample.cls.toFixed(3)}, load ${load()}`;
        console.log(line);
        lines.push(`- ${line}`);
      }
      const of = (field: keyof LighthouseSample) => median(samples.map((s) => s[field]));
      rows.push(
        `| ${page.name} | ${of('score')} (${verdict(of('score') >= BARS.score)}) | ${ms(of('lcpMs'))} (${verdict(of('lcpMs') <= BARS.lcpMs)}) | ${ms(of('tbtMs'))} (${verdict(of('tbtMs') <= BARS.tbtMs)}) | ${of('cls').toFixed(3)} (${verdict(of('cls') <= BARS.cls)}) | ${ms(of('fcpMs'))} | ${kib(of('scriptBytes'))} in ${of('scriptRequests')} |`,
      );
    }
  } finally {
    chrome.kill();
  }
  return rows;
}

async function main(): Promise<void> {
  buildWeb();
  const services: Service[] = [];
  let browser: Browser | undefined;
  try {
    services.push(await startService('after'));
    if (BASE_DIST) services.push(await startService('before', { WEB_DIST_DIR: path.resolve(BASE_DIST) }));
    browser = await launchChromium();
    const startLoad = loadAverages();
    const runLines: string[] = [];
    const samples = await measureRuns(browser, services, runLines);
    await browser.close();
    browser = undefined;
    const lighthouse = LIGHTHOUSE_RUNS > 0 ? await lighthouseTable(services[0] as Service, runLines) : [];
    const budget = routeScripts(path.join(repoRoot, 'apps', 'web', 'dist'), LOGIN_SCREEN_MODULE);
    const lighthouseVersion = JSON.parse(
      readFileSync(path.join(repoRoot, 'node_modules', 'lighthouse', 'package.json'), 'utf8'),
    ).version;
    const cpus = os.cpus();
    const section = [
      `Command: \`npm run bench:web\` (${RUNS} runs per page, medians; CPU ${CPU_RATE}x slower through the DevTools protocol; the slow machine: the reference work's main thread at ${SLOW_REFERENCE_MS} ms of CPU; Lighthouse ${lighthouseVersion} mobile preset, ${LIGHTHOUSE_RUNS} runs, CPU multiplier ${LIGHTHOUSE_CPU}).`,
      `Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${chromiumVersion()}; load average ${startLoad} at the start, ${loadAverages()} at the end.`,
      `Run: ${new Date().toISOString()}.`,
      '',
      `JavaScript /login loads (import graph of the build, gzip): **${kib(budget.gzipBytes)}** (budget ${kib(LOGIN_JS_BUDGET_BYTES)}, ${verdict(budget.gzipBytes <= LOGIN_JS_BUDGET_BYTES)}; checked in \`npm test\` by \`apps/web/e2e/bundle-budget.spec.ts\`).`,
      '',
      `Chromium, CPU ${CPU_RATE}x slower, phone screen (412 × 823), network not slowed; TBT from the first contentful paint until 3 s without a long task, as Lighthouse counts it; real timeline, so on a busy machine it includes waiting for a core:`,
      '',
      ...timelineTable(samples, services[0] as Service),
      '',
      `The main thread's work, from its CPU time in an unslowed load: each task's CPU time times the slowdown, beyond 50 ms, is the blocking time it makes; on the slow machine the slowdown is ${SLOW_REFERENCE_MS} ms over the same run's reference CPU time (median ${medianOf(samples.get(key(REFERENCE, services[0] as Service)) ?? [], 'slowRate').toFixed(1)}x here)${services.length > 1 ? `; before: the build in \`${BASE_DIST}\`, loaded in turn with this one` : ''}:`,
      '',
      ...cpuTable(samples, services),
      ...(lighthouse.length
        ? ['', `Lighthouse (mobile preset, simulated slow 4G, CPU multiplier ${LIGHTHOUSE_CPU}):`, '', ...lighthouse]
        : []),
      '',
      'Runs:',
      ...runLines,
    ].join('\n');
    writeSection(section);
    console.log(`\n${section}\n\nWritten to docs/benchmarks.md.`);
  } finally {
    await browser?.close();
    for (const service of services) await service.api.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
