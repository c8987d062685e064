import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { faults, faultTable, messages } from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import {
  kib,
  LOGIN_JS_BUDGET_BYTES,
  LOGIN_SCREEN_MODULE,
  PRODUCTS_SCREEN_MODULE,
  routeScripts,
} from '../scripts/route-scripts';
import { compileWhileStreamed, V8_COMPILE_HINT } from '../vite.config';
import { consoleDir, webDir } from './api-server';
import { useBrowser } from './browser';

/**
 * The JavaScript /login loads stays within 100 KiB gzip (ADR 0020). A size
 * check, not a timing one: it reads the build the global setup made (apps/web/dist).
 */
/** What App renders for every signed-in page: it answers the API client's step-up slot (ADR 0040). */
const STEP_UP_HOST_MODULE = 'src/app/step-up.tsx';

describe('/login JavaScript budget', () => {
  const distDir = path.join(webDir, 'dist');
  const browser = useBrowser();

  it('the import graph from index.html to the login screen weighs at most 100 KiB gzip', () => {
    const login = routeScripts(distDir, LOGIN_SCREEN_MODULE);
    const listing = login.scripts.map((s) => `${kib(s.gzipBytes).padStart(9)}  ${s.file}`).join('\n');
    expect(login.gzipBytes, `/login loads ${kib(login.gzipBytes)}:\n${listing}`).toBeLessThanOrEqual(
      LOGIN_JS_BUDGET_BYTES,
    );
    // The libraries that are not for /login stay off it.
    expect(login.scripts.map((s) => s.file).filter((f) => /\/(zod|forms|query)-/.test(f))).toEqual([]);
  });

  it('Licenses & Devices, and the step-up host every signed-in page starts, load neither zod, the form library nor the WebAuthn client (ADR 0043)', () => {
    // Each was a long task of its own on a slow phone: zod's module and the schemas built from it
    // at load, the WebAuthn client. The step-up dialog that needs them loads when a call asks.
    for (const module of [PRODUCTS_SCREEN_MODULE, STEP_UP_HOST_MODULE]) {
      const scripts = routeScripts(distDir, module).scripts.map((s) => s.file);
      const heavy = scripts.filter(
        (file) =>
          /\/forms-/.test(file) ||
          /\$ZodType|WebAuthn is not supported/.test(readFileSync(path.join(distDir, file), 'utf8')),
      );
      expect(heavy, module).toEqual([]);
    }
  });

  // The first load knows by name only the faults of fault-table.ts; the rest of the catalogue
  // (errors.ts) is shown in the server's text, so that a fault added there costs /login nothing.
  it('carries the fault table, not the catalogue', () => {
    const code = routeScripts(distDir, LOGIN_SCREEN_MODULE)
      .scripts.map((s) => readFileSync(path.join(distDir, s.file), 'utf8'))
      .join('\n');
    const tableMessages = new Set<string>(Object.values(faultTable).map((spec) => spec.message));
    const shownElsewhere = new Set<string>([...tableMessages, ...Object.values(messages)]);
    const catalogueOnly = Object.entries(faults)
      .filter(([name, spec]) => !(name in faultTable) && !shownElsewhere.has(spec.message))
      .map(([, spec]) => spec.message);
    expect(catalogueOnly).toContain('Your account has the most passkeys it can hold. Remove one to add another.');
    expect(catalogueOnly.filter((message) => code.includes(message))).toEqual([]);
    // The check reads the right text: the table's messages are there.
    expect([...tableMessages].filter((message) => !code.includes(message))).toEqual([]);
  });

  it("starts each start-up chunk with V8's compile hint, and no other chunk (ADR 0043)", () => {
    // The chunks the loader evaluates before the entry (index.html's loader tag): their functions
    // are compiled while they stream, not one by one during hydration. The hint must come first.
    const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
    const preloads = /data-preloads="([^"]+)"/.exec(html)?.[1]?.split(' ') ?? [];
    for (const name of ['react', 'react-dom-start', 'router', 'app']) {
      expect(
        preloads.filter((href) => new RegExp(`^/assets/${name}-[\\w-]{8}\\.js$`).test(href)),
        name,
      ).toHaveLength(1);
    }
    const HINT = `${V8_COMPILE_HINT}\n`;
    const hinted = readdirSync(path.join(distDir, 'assets'))
      .filter((file) => file.endsWith('.js'))
      .filter((file) => readFileSync(path.join(distDir, 'assets', file), 'utf8').startsWith(HINT))
      .map((file) => `/assets/${file}`);
    expect(hinted.sort()).toEqual([...preloads].sort());
    // What the service sends: the compressed files it serves carry the hint as well.
    for (const href of preloads) {
      const file = path.join(distDir, href);
      expect(
        brotliDecompressSync(readFileSync(`${file}.br`))
          .toString('utf8')
          .startsWith(HINT),
        href,
      ).toBe(true);
      expect(
        gunzipSync(readFileSync(`${file}.gz`))
          .toString('utf8')
          .startsWith(HINT),
        href,
      ).toBe(true);
    }
  });

  it('names a hinted chunk by its hint too: a file cached as immutable never changes under its name (ADR 0043)', () => {
    // The hint is written after the names are hashed; the plugin adds it to the hash of the
    // chunks it hints, and to no other chunk's.
    const { augmentChunkHash } = compileWhileStreamed();
    if (typeof augmentChunkHash !== 'function') throw new Error('the plugin does not add to the hash');
    const hashed = (name: string) => augmentChunkHash.call({} as never, { name } as never);
    expect(hashed('react')).toBe(V8_COMPILE_HINT);
    expect(hashed('react-dom-start')).toBe(V8_COMPILE_HINT);
    expect(hashed('zod')).toBeUndefined();
  });

  it('Chromium opening /login fetches exactly the scripts the graph names, and no others', async () => {
    const page = await browser.newPage();
    const fetched = new Set<string>();
    const stylesheets = new Set<string>();
    page.on('request', (request) => {
      if (request.resourceType() === 'script') fetched.add(request.url());
      if (request.resourceType() === 'stylesheet') stylesheets.add(new URL(request.url()).pathname);
    });
    await page.goto('/login', { waitUntil: 'networkidle' });
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    const expected = routeScripts(distDir, LOGIN_SCREEN_MODULE).scripts.map((s) => `${browser.baseUrl}/${s.file}`);
    // After the page has loaded, the error reporter follows (ADR 0026): outside the budget, which
    // is what the page needs before it is interactive, and nothing else.
    const afterLoad = [...fetched].filter((url) => /\/assets\/error-reports-[\w-]+\.js$/.test(url));
    expect(afterLoad).toHaveLength(1);
    expect([...fetched].filter((url) => !afterLoad.includes(url)).sort()).toEqual(expected.sort());
    // Styles: the page's stylesheet only; the sign-in screen brings none of its own (ADR 0036).
    const linked = [
      ...readFileSync(path.join(distDir, 'index.html'), 'utf8').matchAll(/<link rel="stylesheet"[^>]* href="([^"]+)"/g),
    ];
    expect(linked).toHaveLength(1);
    expect([...stylesheets]).toEqual(linked.map(([, href]) => href));
  });
});

describe("the console stays out of the portal's build (ADR 0047)", () => {
  /** Text only the console's code holds: its Software header, its title, its reason dialog's refusal. */
  const CONSOLE_TEXT = ['MySoundID-Console/1.0', 'SoundID console', 'Give a reason of at least'];
  const textOf = (dist: string) =>
    readdirSync(dist, { recursive: true, encoding: 'utf8' })
      .filter((file) => /\.(js|css|html)$/.test(file))
      .map((file) => readFileSync(path.join(dist, file), 'utf8'))
      .join('\n');

  it('no module of apps/console in the manifest, no console text in any file the portal serves', () => {
    const manifest = JSON.parse(readFileSync(path.join(webDir, 'dist', '.vite', 'manifest.json'), 'utf8')) as Record<
      string,
      { src?: string; imports?: string[]; dynamicImports?: string[] }
    >;
    const modules = Object.entries(manifest).flatMap(([key, chunk]) => [
      key,
      chunk.src ?? '',
      ...(chunk.imports ?? []),
      ...(chunk.dynamicImports ?? []),
    ]);
    expect(modules.filter((id) => /(^|\/)console\//.test(id))).toEqual([]);
    const portal = textOf(path.join(webDir, 'dist'));
    expect(CONSOLE_TEXT.filter((text) => portal.includes(text))).toEqual([]);
    // The check reads the right text: the console's own build has every one.
    const console = textOf(path.join(consoleDir, 'dist'));
    expect(CONSOLE_TEXT.filter((text) => !console.includes(text))).toEqual([]);
  });
});
