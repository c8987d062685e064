import { CLIENT_REPORT_PATH } from '@soundid/contracts';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, sessionCookie } from './accounts';
import { useBrowser } from './browser';

/**
 * Opens `url` with the app's entry script held back, and marks the sent element `selector` names
 * (`data-sent`): an element the app drew again would not carry the mark. Returns what lets the
 * app load.
 */
async function openWithAppHeld(page: Page, url: string, selector: string): Promise<() => void> {
  let release = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  await page.route('**/assets/index-*.js', async (route) => {
    await held;
    await route.continue();
  });
  await page.goto(url, { waitUntil: 'commit' });
  const sent = page.locator(selector);
  await sent.waitFor();
  await sent.evaluate((element) => element.setAttribute('data-sent', 'yes'));
  return release;
}

/** What goes wrong on the page (errors, a hydration mismatch among them) and the calls it makes. */
function watch(page: Page): { problems: string[]; apiCalls: string[] } {
  const problems: string[] = [];
  const apiCalls: string[] = [];
  page.on('pageerror', (error) => problems.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error') problems.push(message.text());
  });
  page.on('request', (request) => {
    const { pathname } = new URL(request.url());
    // The error reporter traces one page load in a hundred (ADR 0026): not a call of the app's.
    if (pathname.startsWith('/api/') && pathname !== CLIENT_REPORT_PATH) apiCalls.push(pathname);
  });
  return { problems, apiCalls };
}

/**
 * A sent screen paints styled before any script runs: the page links one stylesheet, the page's
 * (src/styles/index.css), and it holds what the screen needs (ADR 0036). `styles` are computed
 * values of the element `selector` names.
 */
async function expectStyledWithoutScript(page: Page, selector: string, styles: Record<string, string>) {
  expect(await page.locator('link[rel="stylesheet"]').count()).toBe(1);
  const element = page.locator(selector).first();
  const computed = await element.evaluate(
    (node, names) => Object.fromEntries(names.map((name) => [name, getComputedStyle(node).getPropertyValue(name)])),
    Object.keys(styles),
  );
  expect(computed, selector).toEqual(styles);
}

/**
 * The screens the service sends rendered (ADR 0024): sign-in for a visitor without a session
 * cookie, Licenses & Devices for a signed-in customer. In the page, painted before the app's
 * script is fetched, then taken over by the app where they stand.
 */
describe('screens before the app has started', () => {
  const browser = useBrowser();

  it('is in the page itself: with script off, the form is there, its submit disabled', async () => {
    const page = await browser.newPage();
    const context = await page.context().browser()?.newContext({ baseURL: browser.baseUrl, javaScriptEnabled: false });
    if (!context) throw new Error('no browser');
    try {
      const noScript = await context.newPage();
      await noScript.goto('/login');
      expect(await noScript.title()).toBe('My SoundID | Log in');
      await noScript.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
      await noScript.getByLabel('Email').waitFor();
      expect(await noScript.getByRole('button', { name: 'Log in', exact: true }).isDisabled()).toBe(true);
      await expectStyledWithoutScript(noScript, '.card', {
        'border-radius': '10px',
        'background-color': 'rgb(255, 255, 255)',
      });
      await expectStyledWithoutScript(noScript, '.button--primary', { 'background-color': 'rgb(40, 69, 214)' });
    } finally {
      await context.close();
    }
  });

  it('is taken over without being drawn again, keeps what was typed before, and asks nothing at start-up', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'first-paint');
    const page = await browser.newPage();
    const { problems, apiCalls } = watch(page);
    // The customer types into the sent form while the app is on its way.
    const releaseEntry = await openWithAppHeld(page, '/login?nextUrl=%2Fprofile', 'form');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    expect(apiCalls).toEqual([]);
    releaseEntry();

    // Submit comes on with the typed values once the app runs, on the form that was sent.
    await expect.poll(() => page.getByRole('button', { name: 'Log in', exact: true }).isEnabled()).toBe(true);
    expect(await page.locator('form[data-sent="yes"]').count()).toBe(1);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    // No hydration mismatch, no failed request.
    expect(problems).toEqual([]);
    // Neither the configuration nor the session was asked for: the page said both.
    expect(apiCalls).not.toContain('/api/config');
    expect(apiCalls).not.toContain('/api/accounts/LoginByToken');
    expect(apiCalls[0]).toBe('/api/accounts/LoginByEmail');
  });

  it("starts React DOM from a chunk of its own, not in the app's entry (ADR 0043)", async () => {
    const page = await browser.newPage();
    // React DOM's packages call the DevTools hook's checkDCE as their module bodies start: the
    // stack there names the chunk whose evaluation started them. (The loader, after-paint.ts,
    // imports each chunk of its preload list in a task of its own, then the entry; the list
    // names this chunk: e2e/bundle-budget.spec.ts.)
    await page.addInitScript(() => {
      Error.stackTraceLimit = 50;
      const started: string[] = [];
      Object.assign(window, {
        __reactDomStarts: started,
        __REACT_DEVTOOLS_GLOBAL_HOOK__: { checkDCE: () => started.push(new Error().stack ?? '') },
      });
    });
    await page.goto('/login');
    await page.locator('html[data-app="started"]').waitFor({ state: 'attached' });
    const stacks = await page.evaluate(() => (window as unknown as { __reactDomStarts: string[] }).__reactDomStarts);
    // The client's module body (some 200 KB of one function) ran when the start-up chunk was
    // evaluated, not inside the entry's evaluation, the page's longest task.
    expect(
      stacks.some((stack) => /\/assets\/react-dom-start-[\w-]+\.js/.test(stack)),
      stacks.join('\n\n'),
    ).toBe(true);
    expect(stacks.filter((stack) => /\/assets\/index-[\w-]+\.js/.test(stack))).toEqual([]);
  });

  it('sends the sign-in when Enter was pressed before the app started', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'early-enter');
    const page = await browser.newPage();
    const { problems, apiCalls } = watch(page);
    const releaseEntry = await openWithAppHeld(page, '/login?nextUrl=%2Fprofile', 'form');
    // The loader (a module script, run before DOMContentLoaded) is what notes the key.
    await page.waitForLoadState('domcontentloaded');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByLabel('Password', { exact: true }).press('Enter');
    // The sent submit is disabled: the browser sent nothing, and the page stays.
    expect(apiCalls).toEqual([]);
    expect(new URL(page.url()).pathname).toBe('/login');
    releaseEntry();

    await page.waitForURL('**/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    expect(problems).toEqual([]);
    expect(apiCalls.filter((call) => call === '/api/accounts/LoginByEmail')).toHaveLength(1);
  });

  /** The session cookie (`name=value`) of a customer signed in through the API. */
  async function cookieHeader(email: string, password: string): Promise<string> {
    const { name, value } = await sessionCookie(browser.baseUrl, { email, password });
    return `${name}=${value}`;
  }

  /** A context signed in as the demo customer, with script on or off. */
  async function signedInContext(javaScriptEnabled: boolean) {
    const { name, value } = await sessionCookie(browser.baseUrl, browser.demoAccount);
    const page = await browser.newPage();
    const context = await page.context().browser()?.newContext({ baseURL: browser.baseUrl, javaScriptEnabled });
    if (!context) throw new Error('no browser');
    await context.addCookies([{ name, value, url: browser.baseUrl }]);
    return context;
  }

  it("renders each customer's own page while many are rendered at once", async () => {
    const other = await createVerifiedAccount(browser.baseUrl, 'concurrent-page');
    const customers = [
      {
        email: browser.demoAccount.email,
        cookie: await cookieHeader(browser.demoAccount.email, browser.demoAccount.password),
      },
      { email: other.email, cookie: await cookieHeader(other.email, other.password) },
    ];
    const pages = await Promise.all(
      Array.from({ length: 40 }, async (_, i) => {
        const customer = customers[i % 2] as (typeof customers)[number];
        const response = await fetch(`${browser.baseUrl}/products`, { headers: { cookie: customer.cookie } });
        return { customer, html: await response.text() };
      }),
    );
    for (const { customer, html } of pages) {
      const boot = JSON.parse(
        /<script type="application\/json" id="boot-data">(.*?)<\/script>/.exec(html)?.[1] ?? '{}',
      );
      expect(boot.user?.Email).toBe(customer.email);
      const stranger = customers.find((c) => c !== customer) as (typeof customers)[number];
      expect(html).not.toContain(stranger.email);
    }
  });

  it("sends a signed-in customer's Licenses & Devices with their licences in the page", async () => {
    const context = await signedInContext(false);
    try {
      const page = await context.newPage();
      await page.goto('/products');
      expect(await page.title()).toBe('My SoundID | Licenses & Devices');
      await page.getByRole('heading', { level: 1, name: 'Licenses & Devices' }).waitFor();
      await page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' }).waitFor();
      await page.getByText(browser.demoAccount.email).first().waitFor({ state: 'attached' });
      await expectStyledWithoutScript(page, '.licence-card', {
        'border-radius': '10px',
        'background-color': 'rgb(255, 255, 255)',
      });
      await expectStyledWithoutScript(page, '.product-icon', { width: '48px' });
    } finally {
      await context.close();
    }
  });

  it('takes the sent Licenses & Devices over, opens the panel its address names, and asks nothing at start-up', async () => {
    const context = await signedInContext(true);
    try {
      const page = await context.newPage();
      const { problems, apiCalls } = watch(page);
      const releaseEntry = await openWithAppHeld(page, '/products#devices-SoundIDReference', '.licence-sections');
      // With the app's entry still held, the loader fetches the files the page names for its
      // screen (`data-screen`, ADR 0043 addendum): the app, which would find them in its route
      // table, has not run.
      const screenFiles = ((await page.locator('#app-loader').getAttribute('data-screen')) ?? '').split(' ');
      expect(screenFiles.filter((href) => href.endsWith('.js')).length).toBeGreaterThan(1);
      expect(screenFiles.some((href) => href.endsWith('.css'))).toBe(true);
      await expect
        .poll(() =>
          page.evaluate(
            (files) => files.filter((href) => !document.head.querySelector(`link[href="${href}"]`)),
            screenFiles,
          ),
        )
        .toEqual([]);
      expect(await page.evaluate(() => document.documentElement.dataset.app)).toBeUndefined();
      releaseEntry();

      // The panel the hash names opens once the app runs, in the list the service sent.
      const devices = page.getByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' });
      await devices.waitFor();
      expect(await page.locator('.licence-sections[data-sent="yes"]').count()).toBe(1);
      expect(problems).toEqual([]);
      expect(apiCalls).not.toContain('/api/config');
      expect(apiCalls).not.toContain('/api/accounts/LoginByToken');
    } finally {
      await context.close();
    }
  });
});
