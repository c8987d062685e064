/**
 * `npm run bench:web`: Lighthouse (mobile preset: simulated slow 4G, 4x CPU slowdown, phone
 * screen) against the service as `npm start` runs it, on /login signed out and /products as the
 * demo customer, 3 runs each, medians against the front-end bars of ADR 0020 and 0024. Writes its section of
 * docs/benchmarks.md (between the bench:web markers) and prints the same. Not part of `npm test`.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import { kib, LOGIN_JS_BUDGET_BYTES, LOGIN_SCREEN_MODULE, routeScripts } from '../apps/web/scripts/route-scripts';
import { freePort, repoRoot } from './services';

const RUNS = Number(process.env.BENCH_WEB_RUNS ?? 3);
const CHROME_PATH = process.env.CHROME_PATH ?? '/usr/bin/chromium';
const DOCS = path.join(repoRoot, 'docs', 'benchmarks.md');
const START = '<!-- bench:web:start -->';
const END = '<!-- bench:web:end -->';

/** The front-end bars (ADR 0020, ADR 0024: Lighthouse score, LCP, TBT, CLS on the mobile preset). */
const BARS = { score: 95, lcpMs: 1500, tbtMs: 100, cls: 0.02 };

interface Sample {
  score: number;
  fcpMs: number;
  lcpMs: number;
  tbtMs: number;
  cls: number;
  scriptBytes: number;
  scriptRequests: number;
}

interface Service {
  baseUrl: string;
  output(): string;
  stop(): Promise<void>;
}

/** `npm start` (builds the SPA, then the service) on a free port with a fresh embedded database. */
async function startService(): Promise<Service> {
  const port = await freePort();
  const baseUrl = `http://localhost:${port}`;
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'soundid-bench-web-'));
  const log: string[] = [];
  const child: ChildProcess = spawn('npm', ['start'], {
    cwd: repoRoot,
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, PUBLIC_URL: baseUrl, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true, // its own process group: stopping it stops what npm started
  });
  child.stdout?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => log.push(chunk.toString()));
  const stop = async () => {
    if (child.exitCode === null && child.pid) {
      const exited = new Promise((resolve) => child.once('exit', resolve));
      process.kill(-child.pid, 'SIGTERM');
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5000))]);
      if (child.exitCode === null) process.kill(-child.pid, 'SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const deadline = Date.now() + 180_000;
  while (!/running on/.test(log.join(''))) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start did not come up:\n${log.join('').slice(-3000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return { baseUrl, output: () => log.join(''), stop };
}

/** Signs the demo customer in (the e-mail and password `npm start` prints) and returns its cookie. */
async function demoCookie(service: Service): Promise<string> {
  const match = /e-mail (\S+@\S+)\s+password (\S+)/.exec(service.output());
  if (!match) throw new Error('npm start printed no demo customer');
  const response = await fetch(`${service.baseUrl}/api/accounts/LoginByEmail`, {
    method: 'POST',
    headers: {
      Accept: 'application/json',
      'Content-Type': 'application/json',
      Branding: 'SoundID',
      Software: 'MySoundID-Web/1.0',
    },
    body: JSON.stringify({ email: match[1], password: match[2], keepMeSignedIn: true }),
  });
  const cookies = response.headers.getSetCookie().map((c) => c.split(';')[0]);
  if (!response.ok || cookies.length === 0) throw new Error(`Demo sign-in failed: ${response.status}`);
  return cookies.join('; ');
}

/**
 * Lighthouse failures of its own trace recording ("Please run Lighthouse again"): such a run
 * measured nothing, so it is run again, at most twice. Any other failure stops the benchmark.
 */
const TRACE_RECORDING_FAILURES = new Set(['NO_NAVSTART']);
const TRACE_RETRIES = 2;

async function measure(url: string, port: number, cookie?: string, retriesLeft = TRACE_RETRIES): Promise<Sample> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance'],
    ...(cookie ? { extraHeaders: { Cookie: cookie } } : {}),
  });
  if (!result) throw new Error(`Lighthouse returned nothing for ${url}`);
  const { lhr } = result;
  if (lhr.runtimeError && TRACE_RECORDING_FAILURES.has(lhr.runtimeError.code) && retriesLeft > 0) {
    console.log(`${url}: ${lhr.runtimeError.code}, Lighthouse recorded no trace; running it again`);
    return measure(url, port, cookie, retriesLeft - 1);
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

interface ResourceRow {
  resourceType: string;
  transferSize: number;
  requestCount: number;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? (sorted[mid] as number) : ((sorted[mid - 1] as number) + (sorted[mid] as number)) / 2;
}

function medianSample(samples: Sample[]): Sample {
  const of = (key: keyof Sample) => median(samples.map((s) => s[key]));
  return {
    score: of('score'),
    fcpMs: of('fcpMs'),
    lcpMs: of('lcpMs'),
    tbtMs: of('tbtMs'),
    cls: of('cls'),
    scriptBytes: of('scriptBytes'),
    scriptRequests: of('scriptRequests'),
  };
}

const verdict = (ok: boolean) => (ok ? 'meets' : '**misses**');

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

async function main(): Promise<void> {
  const service = await startService();
  let chrome: chromeLauncher.LaunchedChrome | undefined;
  try {
    const cookie = await demoCookie(service);
    const budget = routeScripts(path.join(repoRoot, 'apps', 'web', 'dist'), LOGIN_SCREEN_MODULE);
    chrome = await chromeLauncher.launch({
      chromePath: CHROME_PATH,
      chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage'],
    });
    const pages = [
      { name: '/login (signed out)', url: `${service.baseUrl}/login` },
      { name: '/products (demo customer)', url: `${service.baseUrl}/products`, cookie },
    ];
    const rows: string[] = [];
    const runs: string[] = [];
    for (const page of pages) {
      const samples: Sample[] = [];
      for (let run = 1; run <= RUNS; run++) {
        const sample = await measure(page.url, chrome.port, page.cookie);
        samples.push(sample);
        const line = `${page.name} run ${run}: score ${sample.score}, LCP ${Math.round(sample.lcpMs)} ms, TBT ${Math.round(sample.tbtMs)} ms, CLS ${sample.cls.toFixed(3)}`;
        console.log(line);
        runs.push(`- ${line}`);
      }
      const m = medianSample(samples);
      rows.push(
        `| ${page.name} | ${m.score} (${verdict(m.score >= BARS.score)}) | ${Math.round(m.lcpMs)} ms (${verdict(m.lcpMs <= BARS.lcpMs)}) | ${Math.round(m.tbtMs)} ms (${verdict(m.tbtMs <= BARS.tbtMs)}) | ${m.cls.toFixed(3)} (${verdict(m.cls <= BARS.cls)}) | ${Math.round(m.fcpMs)} ms | ${kib(m.scriptBytes)} in ${m.scriptRequests} |`,
      );
    }
    const lighthouseVersion = JSON.parse(
      readFileSync(path.join(repoRoot, 'node_modules', 'lighthouse', 'package.json'), 'utf8'),
    ).version;
    const cpus = os.cpus();
    const section = [
      `Command: \`npm run bench:web\` (Lighthouse ${lighthouseVersion}, mobile preset with simulated throttling, ${RUNS} runs per page, medians; \`CHROME_PATH\`, \`BENCH_WEB_RUNS\`).`,
      `Machine: ${cpus.length} × ${cpus[0]?.model.trim() ?? 'CPU'}, ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${chromiumVersion()}.`,
      `Run: ${new Date().toISOString()}.`,
      '',
      `JavaScript /login loads (import graph of the build, gzip): **${kib(budget.gzipBytes)}** (budget ${kib(LOGIN_JS_BUDGET_BYTES)}, ${verdict(budget.gzipBytes <= LOGIN_JS_BUDGET_BYTES)}; checked in \`npm test\` by \`apps/web/e2e/bundle-budget.spec.ts\`).`,
      '',
      `| Page | Performance (>= ${BARS.score}) | LCP (<= ${BARS.lcpMs} ms) | TBT (<= ${BARS.tbtMs} ms) | CLS (<= ${BARS.cls}) | FCP | Scripts transferred |`,
      '|---|---|---|---|---|---|---|',
      ...rows,
      '',
      'Runs:',
      ...runs,
    ].join('\n');
    writeSection(section);
    console.log(`\n${section}\n\nWritten to docs/benchmarks.md.`);
  } finally {
    chrome?.kill();
    await service.stop();
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
