import { describe, expect, it } from 'vitest';
import { loadScript } from './load-script';

const scriptsOf = (src: string) => document.head.querySelectorAll(`script[src="${src}"]`);

describe('loadScript', () => {
  it('adds a script once; later calls share its load', async () => {
    const src = 'https://widgets.example/once.js';
    const first = loadScript(src);
    const second = loadScript(src);
    expect(second).toBe(first);
    expect(scriptsOf(src)).toHaveLength(1);
    (scriptsOf(src)[0] as HTMLScriptElement).dispatchEvent(new Event('load'));
    await expect(first).resolves.toBeUndefined();
  });

  it('adds a script again once it was taken out of the page', () => {
    const src = 'https://widgets.example/removed.js';
    void loadScript(src);
    document.head.replaceChildren();
    void loadScript(src);
    expect(scriptsOf(src)).toHaveLength(1);
  });

  it('forgets a script that failed, so that the next call tries again', async () => {
    const src = 'https://widgets.example/fails.js';
    const failed = loadScript(src);
    (scriptsOf(src)[0] as HTMLScriptElement).dispatchEvent(new Event('error'));
    await expect(failed).rejects.toThrow(`Could not load ${src}`);
    expect(scriptsOf(src)).toHaveLength(0);
    void loadScript(src);
    expect(scriptsOf(src)).toHaveLength(1);
  });
});
