import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { apiToken, createVerifiedAccount, signInByCookie } from './accounts';
import { appStarted, DESKTOP, MOBILE, untilHydrated, useBrowser } from './browser';
import { adminPost, issueKeys, issueUpgradeCode, registerKey } from './licences';

/**
 * The finish a customer sees, from a walk-through at 1440 and 360 px: where errors and toasts
 * appear, what Escape closes, and that nothing is cut, wrapped mid-key or hidden sideways.
 */
describe('the finish customers see', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  async function customerWithReference4(label: string) {
    const account = await createVerifiedAccount(base, label);
    const token = await apiToken(base, account);
    const [key] = await issueKeys(base, 'ref4-hp');
    await registerKey(base, token, key as string);
    return account;
  }

  async function openUpgradePanel(page: Page, account: { email: string; password: string }) {
    await signInByCookie(page, base, account, '/products#upgrade-Reference4Headphone');
    const panel = page.getByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    await panel.waitFor();
    await appStarted(page);
    return panel;
  }

  const inViewport = (page: Page, selector: string) =>
    page
      .locator(selector)
      .first()
      .evaluate((element) => {
        const box = element.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight && box.height > 0;
      });

  it('an error raised low on the page is shown where the customer is looking (360 px)', async () => {
    const account = await customerWithReference4('finish-banner');
    const page = await browser.newPage(MOBILE);
    const panel = await openUpgradePanel(page, account);
    await panel.getByRole('textbox', { name: 'Upgrade code' }).fill('UPG-ZZZZZZZZ');
    await panel.getByRole('button', { name: 'Apply upgrade code' }).click();
    await panel.getByText('Upgrade error.').waitFor();
    const banner = page.getByRole('region', { name: 'Errors' }).getByRole('alert');
    await banner.waitFor();
    // The panel sits below the fold at 360 px: the page is scrolled, and the banner is still in view.
    expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(0);
    expect(await inViewport(page, '.error-banner__item')).toBe(true);
  });

  it('Escape closes the incompatibility popup only: the upgrade panel keeps the typed code', async () => {
    const account = await customerWithReference4('finish-escape');
    const code = await issueUpgradeCode(base, 'sid-reference', ['ref4-studio']);
    const page = await browser.newPage(DESKTOP);
    const panel = await openUpgradePanel(page, account);
    const field = panel.getByRole('textbox', { name: 'Upgrade code' });
    await field.fill(code);
    await panel.getByRole('button', { name: 'Apply upgrade code' }).click();
    const dialog = page.getByRole('dialog', { name: 'This upgrade code cannot be used with your current license' });
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    expect(await panel.isVisible()).toBe(true);
    expect((await field.inputValue()).toUpperCase()).toBe(code.toUpperCase());
  });

  it("a success toast leaves the page's main button uncovered", async () => {
    const account = await createVerifiedAccount(base, 'finish-toast');
    const keys = await issueKeys(base, 'sid-reference', 2);
    for (const [index, viewport] of [DESKTOP, MOBILE].entries()) {
      const page = await browser.newPage(viewport);
      await signInByCookie(page, base, account, '/add-license');
      await page.waitForURL('**/add-license');
      await appStarted(page);
      await page.getByLabel('License activation key').fill(keys[index] as string);
      await page.getByRole('button', { name: 'Register key' }).click();
      await page.waitForURL('**/products');
      const toast = page.locator('.notification').first();
      await toast.waitFor();
      const button = page.getByRole('link', { name: 'Register a new license' });
      await button.waitFor();
      const [a, b] = await Promise.all([toast.boundingBox(), button.boundingBox()]);
      if (!a || !b) throw new Error('the toast or the button has no box');
      const overlaps = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
      expect(overlaps).toBe(false);
    }
  });

  it('at 360 px: keys never break mid-key, history rows show every column, tabs stay on one line', async () => {
    const demo = browser.demoAccount;
    const page = await browser.newPage(MOBILE);
    await signInByCookie(page, base, demo, '/products');
    await page.getByRole('heading', { level: 2, name: 'SoundID VoiceAI' }).waitFor();
    // The page came rendered: a click before React owns the button would leave the packs closed.
    const explore = page.getByRole('button', { name: 'Explore and manage preset expansion packs' });
    await untilHydrated(explore);
    await explore.click();
    const keys = page.locator('.licence-key');
    // Every key shown (the packs' panel open) before their line boxes are counted.
    await expect
      .poll(() => keys.evaluateAll((elements) => elements.every((element) => element.getClientRects().length > 0)))
      .toBe(true);
    expect(await keys.count()).toBeGreaterThan(1);
    for (const key of await keys.all()) {
      // One line box: the key was not wrapped between its groups.
      expect(await key.evaluate((element) => element.getClientRects().length)).toBe(1);
      expect(await key.evaluate((element) => element.getBoundingClientRect().height < 30)).toBe(true);
    }

    const buyer = await createVerifiedAccount(base, 'finish-history');
    await adminPost(base, 'grant-tokens', { email: buyer.email, amount: 2000 });
    const history = await browser.newPage(MOBILE);
    await signInByCookie(history, base, buyer, '/products/transactions');
    await history.getByRole('cell', { name: '2,000' }).first().waitFor();
    const tabHeights = async () =>
      history.getByRole('tab').evaluateAll((tabs) => tabs.map((tab) => tab.getBoundingClientRect().height));
    const [purchase, usage] = await tabHeights();
    expect(purchase).toBe(usage);
    const table = history.locator('.history-table');
    // Nothing to scroll sideways, and every column's name is shown beside its value.
    expect(await table.evaluate((element) => element.scrollWidth <= element.clientWidth + 1)).toBe(true);
    const columns = await history.locator('.history-table thead th').allTextContents();
    const labels = await history
      .locator('.history-table tbody tr')
      .first()
      .locator('td')
      .evaluateAll((cells) => cells.map((cell) => getComputedStyle(cell, '::before').content));
    expect(labels).toEqual(columns.map((column) => JSON.stringify(column)));
    await history.getByRole('tab', { name: 'Usage history' }).click();
    expect(await tabHeights()).toEqual([purchase, usage]);
  });

  it('at 360 px the mobile menu shows the e-mail as typed; the offline toggle matches its neighbours', async () => {
    const account = await createVerifiedAccount(base, 'finish-menu');
    const page = await browser.newPage(MOBILE);
    await signInByCookie(page, base, account, '/products');
    await page.getByRole('heading', { level: 1, name: 'Licenses & Devices' }).waitFor();
    await appStarted(page);
    await page.getByRole('button', { name: 'Open menu' }).click();
    const heading = page.locator('.mobile-menu__heading--address');
    expect(await heading.textContent()).toBe(account.email);
    expect(await heading.evaluate((element) => getComputedStyle(element).textTransform)).toBe('none');

    const desktop = await browser.newPage(DESKTOP);
    await signInByCookie(desktop, base, account, '/products');
    const offline = desktop.getByRole('button', { name: 'Offline activation' });
    await offline.waitFor();
    const download = desktop.locator('.licence-section__header').getByRole('link', { name: 'Download' });
    const [a, b] = await Promise.all([offline.boundingBox(), download.boundingBox()]);
    expect(a?.height).toBe(b?.height);
  });

  it('the signed-in home leads to Licenses & Devices without the footer jumping below the fold (CLS)', async () => {
    const account = await customerWithReference4('finish-home');
    const page = await browser.newPage(MOBILE);
    // Shifts not caused by input, as CLS counts them (bar 0.02: ADR 0020, ADR 0024).
    await page.addInitScript(() => {
      const shifts: number[] = [];
      Object.assign(window, { shifts });
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & { value: number; hadRecentInput: boolean })[]) {
          if (!entry.hadRecentInput) shifts.push(entry.value);
        }
      }).observe({ type: 'layout-shift', buffered: true });
    });
    await signInByCookie(page, base, account, '/');
    await page.getByRole('heading', { level: 1, name: 'Licenses & Devices' }).waitFor();
    await page.locator('.licence-section').first().waitFor();
    await page.waitForLoadState('networkidle');
    const shifts = await page.evaluate(() => (window as unknown as { shifts: number[] }).shifts);
    expect(shifts.reduce((sum, value) => sum + value, 0)).toBeLessThanOrEqual(0.02);
  });
});
