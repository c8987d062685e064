import { afterEach, describe, expect, it, vi } from 'vitest';

/** The loader runs as it is imported: each test writes the page first, then imports it afresh. */
async function startLoader(attributes: string): Promise<void> {
  document.head.innerHTML = `<script id="app-loader" ${attributes}></script>`;
  // No rendered screen: the loader starts at once (a rendered one waits for the first paint).
  document.body.innerHTML = '<div id="root"></div>';
  vi.resetModules();
  await import('./after-paint');
}

const links = () =>
  [...document.head.querySelectorAll('link')].map((link) => `${link.rel} ${link.getAttribute('href')}`);

describe('the loader (after-paint.ts, ADR 0043)', () => {
  afterEach(() => {
    vi.useRealTimers();
    document.head.innerHTML = '';
  });

  it("fetches the app's start-up modules at once and a sent screen's files a few to a task, stylesheets as stylesheets", async () => {
    vi.useFakeTimers();
    const screen = ['/s1.js', '/s2.js', '/s3.js', '/s4.js', '/s5.js', '/s5.css'];
    await startLoader(`data-preloads="/a.js /b.js" data-screen="${screen.join(' ')}"`);
    expect(links()).toEqual(['modulepreload /a.js', 'modulepreload /b.js']);
    vi.advanceTimersToNextTimer();
    expect(links().slice(2)).toEqual(screen.slice(0, 4).map((href) => `modulepreload ${href}`));
    vi.advanceTimersToNextTimer();
    expect(links().slice(6)).toEqual(['modulepreload /s5.js', 'stylesheet /s5.css']);
    vi.runAllTimers();
    expect(links()).toHaveLength(8);
  });

  it('adds no screen links for a page without a sent screen', async () => {
    vi.useFakeTimers();
    await startLoader('data-preloads="/a.js"');
    vi.runAllTimers();
    expect(links()).toEqual(['modulepreload /a.js']);
  });
});
