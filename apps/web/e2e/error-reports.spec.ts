import { CLIENT_REPORT_PATH } from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import { appStarted, useBrowser } from './browser';

/**
 * ADR 0026 end to end: an uncaught error in Chromium reaches the service's collector, and the page
 * load's trace with it. The sampling draws are pinned (Math.random) so that both fall in the
 * sample, and each beacon's body is noted on the page, since Playwright does not show a beacon's.
 */
describe('error reports', () => {
  const browser = useBrowser();

  it("sends the page's uncaught error and its load trace to the service, which accepts them", async () => {
    const page = await browser.newPage();
    await page.addInitScript(() => {
      Math.random = () => 0;
      const sendBeacon = navigator.sendBeacon.bind(navigator);
      const sent: string[] = [];
      Object.assign(window, { sentBeacons: sent });
      navigator.sendBeacon = (url, data) => {
        if (data instanceof Blob) void data.text().then((text) => sent.push(text));
        return sendBeacon(url, data);
      };
    });
    const statuses: number[] = [];
    page.on('response', (response) => {
      if (new URL(response.url()).pathname === CLIENT_REPORT_PATH) statuses.push(response.status());
    });
    await page.goto('/login');
    await appStarted(page);
    await page.evaluate(() => {
      setTimeout(() => {
        throw new Error('e2e: thrown on the page');
      }, 0);
    });

    const sent = async () =>
      (await page.evaluate(() => (window as unknown as { sentBeacons: string[] }).sentBeacons)).map(
        (text) => JSON.parse(text) as { kind: string; message?: string; path: string },
      );
    await expect
      .poll(async () => (await sent()).map((r) => `${r.kind} ${r.message ?? ''}`.trim()).sort())
      .toEqual(['error Error: e2e: thrown on the page', 'trace']);
    expect((await sent()).every((r) => r.path === '/login')).toBe(true);
    // The service took both (a refused report would answer 400 or 429).
    await expect.poll(() => statuses).toEqual([200, 200]);
  });
});
