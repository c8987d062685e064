import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccount } from './accounts';
import { appStarted, expectAccessible, MOBILE, untilHydrated, useBrowser } from './browser';

/** What a keyboard user sees where the focus is: a visible outline (or ring) on the focused element. */
async function focusedElement(page: Page) {
  return page.evaluate(() => {
    const element = document.activeElement as HTMLElement | null;
    if (!element || element === document.body) return { label: 'body', isRingVisible: false };
    const style = getComputedStyle(element);
    const hasOutline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) >= 2;
    const hasRing = style.boxShadow !== 'none';
    return {
      label: (element.getAttribute('aria-label') ?? element.textContent ?? element.tagName).trim().slice(0, 40),
      isRingVisible: hasOutline || hasRing,
    };
  });
}

async function tabTo(page: Page, label: string, maxTabs = 40): Promise<void> {
  for (let i = 0; i < maxTabs; i++) {
    await page.keyboard.press('Tab');
    const focused = await focusedElement(page);
    expect(focused.isRingVisible, `focus ring on ${focused.label}`).toBe(true);
    if (focused.label === label) return;
  }
  throw new Error(`${label} was not reached with ${maxTabs} presses of Tab`);
}

/** Nothing on the page is wider than the viewport (no sideways scrolling at 360 px). */
async function expectNoSidewaysScroll(page: Page): Promise<void> {
  const { scrollWidth, clientWidth } = await page.evaluate(() => ({
    scrollWidth: document.documentElement.scrollWidth,
    clientWidth: document.documentElement.clientWidth,
  }));
  expect(scrollWidth).toBeLessThanOrEqual(clientWidth);
}

describe('account screens by keyboard alone, at 360 and 1440 px', () => {
  const browser = useBrowser();

  it('signs in, edits the e-mail row and cancels, with the focus always visible', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'keyboard');
    const page = await browser.newPage();
    await page.goto('/login?nextUrl=%2Fprofile');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await appStarted(page);
    await tabTo(page, 'Skip to content', 1);
    await tabTo(page, 'Log in', 40);
    // The top bar's Log in link comes first; on to the form.
    await page.getByLabel('Email').focus();
    await page.keyboard.type(account.email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(account.password);
    await page.keyboard.press('Enter');
    await page.waitForURL('**/profile');
    await page.getByRole('region', { name: 'Password' }).waitFor();

    await tabTo(page, 'Change Email');
    await page.keyboard.press('Enter');
    const newEmail = page.getByLabel('New email address');
    expect(await newEmail.evaluate((element) => element === document.activeElement)).toBe(true);
    await tabTo(page, 'Save', 3);
    await tabTo(page, 'Cancel', 1);
    await page.keyboard.press('Enter');
    expect((await focusedElement(page)).label).toBe('Change Email');
  });

  it('opens a hover menu by keyboard, and closes it 200 ms after the pointer leaves', async () => {
    const page = await browser.newPage();
    await page.goto('/login');
    await appStarted(page);
    const support = page.getByRole('banner').getByRole('button', { name: 'Support' });
    await untilHydrated(support);
    await support.focus();
    await page.keyboard.press('Enter');
    expect(await support.getAttribute('aria-expanded')).toBe('true');
    await page.keyboard.press('Tab');
    expect((await focusedElement(page)).label).toBe('Help center');
    await page.keyboard.press('Escape');
    expect(await support.getAttribute('aria-expanded')).toBe('false');
    expect((await focusedElement(page)).label).toBe('Support');

    await support.hover();
    expect(await support.getAttribute('aria-expanded')).toBe('true');
    await page.mouse.move(5, 600);
    await page.waitForTimeout(100);
    expect(await support.getAttribute('aria-expanded')).toBe('true');
    await page.waitForTimeout(250);
    expect(await support.getAttribute('aria-expanded')).toBe('false');
  });

  it('fits the account screens into 360 px and keeps them accessible', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'narrow');
    const page = await browser.newPage(MOBILE);
    for (const path of ['/login', '/signup', '/reset-password', '/reset-password/not-a-real-token']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoSidewaysScroll(page);
    }
    await page.goto('/login?nextUrl=%2Fprofile');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('button', { name: 'Change Address' }).click();
    await page.getByLabel('Street address').waitFor();
    await page.getByRole('button', { name: 'Delete account' }).click();
    await expectNoSidewaysScroll(page);
    await expectAccessible(page, 'profile-editing-mobile');
    for (const path of ['/launch?deeplink=soundid-reference%3A%2F%2Fnothing', '/sidr5-thank-you', '/adam-audio']) {
      await page.goto(path);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await expectNoSidewaysScroll(page);
      await expectAccessible(page, path.replace(/\W+/g, '-'));
    }
  });

  it('hides header and footer while signing out, then shows the login', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'logout');
    const page = await browser.newPage();
    await page.goto('/login?nextUrl=%2Fprofile');
    await page.getByLabel('Email').fill(account.email);
    await page.getByLabel('Password', { exact: true }).fill(account.password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/profile');
    let releaseLogout: () => void = () => undefined;
    const held = new Promise<void>((resolve) => {
      releaseLogout = resolve;
    });
    await page.route('**/api/accounts/Logout', async (route) => {
      await held;
      await route.continue();
    });
    await page.getByRole('banner').getByRole('button', { name: account.email }).click();
    await page.getByRole('banner').getByRole('link', { name: 'Log out' }).click();
    await page.waitForURL('**/logout');
    await page.getByRole('status').waitFor();
    expect(await page.locator('.top-bar').count()).toBe(0);
    expect(await page.locator('.footer').count()).toBe(0);
    releaseLogout();
    await page.waitForURL('**/login');
    await page.locator('.top-bar').waitFor();
    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/login');
  });
});
