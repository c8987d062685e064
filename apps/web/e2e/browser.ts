import { mkdirSync } from 'node:fs';
import path from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Browser, BrowserContext, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, inject, onTestFailed } from 'vitest';
import { webDir } from './api-server';
import { DESKTOP, launchChromium } from './chromium';

export { DESKTOP, MOBILE } from './chromium';

const resultsDir = path.join(webDir, 'test-results');

/**
 * Chromium, started once per worker process and kept for every spec file it runs (the suite's
 * files share modules, vitest.e2e.config.ts): a start costs about 1.3 s and as much CPU, 27
 * times over (docs/benchmarks.md, test time). Started again if it went away.
 */
let shared: Promise<Browser> | undefined;
async function sharedBrowser(): Promise<Browser> {
  const running = await shared?.catch(() => undefined);
  if (running?.isConnected()) return running;
  shared = launchChromium();
  return shared;
}

/**
 * The worker's browser for a spec file; each test gets a fresh context (no cookies) unless it
 * asks to keep the previous one, and the file's last context closes after it. A failing test
 * leaves a screenshot in apps/web/test-results/.
 */
export function useBrowser() {
  const baseUrl = inject('baseUrl');
  const demoAccount = inject('demoAccount');
  let browser: Browser;
  let context: BrowserContext | undefined;
  beforeAll(async () => {
    browser = await sharedBrowser();
  });
  afterAll(async () => {
    await context?.close();
    context = undefined;
  });

  return {
    baseUrl,
    /** The customer the service seeds on its empty database (licences, devices, a voice AI licence). */
    demoAccount,
    async newPage(viewport = DESKTOP): Promise<Page> {
      await context?.close();
      context = await browser.newContext({ baseURL: baseUrl, viewport });
      const page = await context.newPage();
      onTestFailed(async ({ task }) => {
        mkdirSync(resultsDir, { recursive: true });
        const name = task.name.replace(/[^a-z0-9]+/gi, '-').toLowerCase();
        await page.screenshot({ path: path.join(resultsDir, `${name}.png`), fullPage: true }).catch(() => undefined);
      });
      return page;
    },
  };
}

/**
 * Waits until the app runs on the page. A screen the service sends rendered (ADR 0024) is on
 * screen before that, and its buttons do nothing yet; typing into its form is kept.
 */
export async function appStarted(page: Page): Promise<void> {
  await page.locator('html[data-app="started"]').waitFor({ state: 'attached' });
  // React hydrates a sent screen in slices after that: a click on a control it has not reached
  // yet can be lost (CI saw it). Every control on the page owned by React (its props attached).
  await page.waitForFunction(() =>
    [...document.querySelectorAll('#root button, #root a[href], #root input, #root select, #root textarea')].every(
      (element) => Object.keys(element).some((key) => key.startsWith('__reactProps$')),
    ),
  );
}

/**
 * Waits until React has taken over one element of a sent screen (its props are attached), so a
 * key pressed on it reaches its handler. `appStarted` only says hydration has begun; React
 * hydrates in slices, and a key pressed on a part not yet reached can go unanswered.
 */
export async function untilHydrated(locator: Locator): Promise<void> {
  await locator.evaluate(
    (element) =>
      new Promise<void>((resolve) => {
        const check = () =>
          Object.keys(element).some((key) => key.startsWith('__reactProps$')) ? resolve() : setTimeout(check, 10);
        check();
      }),
  );
}

/** axe-core on the current screen: serious and critical violations fail the test. */
export async function expectAccessible(page: Page, screenName: string): Promise<void> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  const blocking = violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
  if (blocking.length === 0) return;
  mkdirSync(resultsDir, { recursive: true });
  await page.screenshot({ path: path.join(resultsDir, `axe-${screenName}.png`), fullPage: true });
  const summary = blocking
    .map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.map((n) => n.target.join(' ')).join('\n  ')}`)
    .join('\n');
  throw new Error(`Accessibility violations on ${screenName}:\n${summary}`);
}
