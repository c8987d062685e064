import { readFileSync } from 'node:fs';
import path from 'node:path';
import { faults, faultTable, messages } from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import {
  kib,
  LOGIN_JS_BUDGET_BYTES,
  LOGIN_SCREEN_MODULE,
  PRODUCTS_SCREEN_MODULE,
  routeScripts,
} from '../scripts/route-scripts';
import { webDir } from './api-server';
import { useBrowser } from './browser';

/**
 * The JavaScript /login loads stays within 100 KiB gzip (ADR 0020). A size
 * check, not a timing one: it reads the build the global setup made (apps/web/dist).
 */
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

  it('Licenses & Devices loads neither zod nor the form library: its rules come without them (ADR 0043)', () => {
    // zod's module and the schemas built from it at load were a long task of their own on a slow phone.
    const products = routeScripts(distDir, PRODUCTS_SCREEN_MODULE).scripts.map((s) => s.file);
    expect(products.filter((f) => /\/(zod|forms)-/.test(f))).toEqual([]);
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
