import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

/** One entry of Vite's build manifest (`dist/.vite/manifest.json`). */
interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}
type Manifest = Record<string, ManifestChunk>;

export interface ScriptSize {
  file: string;
  bytes: number;
  gzipBytes: number;
}

export interface RouteScripts {
  scripts: ScriptSize[];
  gzipBytes: number;
}

/** The JavaScript budget of /login (ADR 0020): everything the page loads, gzip. */
export const LOGIN_JS_BUDGET_BYTES = 100 * 1024;

/** The screen module the /login route loads lazily (app/router.tsx). */
export const LOGIN_SCREEN_MODULE = 'src/features/auth/components/login-screen.tsx';

/** The screen module of Licenses & Devices (/products), the signed-in home. */
export const PRODUCTS_SCREEN_MODULE = 'src/features/licences/components/products-screen.tsx';

function readManifest(distDir: string): Manifest {
  return JSON.parse(readFileSync(path.join(distDir, '.vite', 'manifest.json'), 'utf8')) as Manifest;
}

/**
 * The scripts index.html starts: its module scripts (the loader, src/after-paint.ts) and the app
 * entry the loader imports (`data-entry`). The modules it preloads are the entry's imports.
 */
export function indexHtmlEntries(distDir: string): string[] {
  const html = readFileSync(path.join(distDir, 'index.html'), 'utf8');
  const attr = (tag: string, name: string) => new RegExp(`\\b${name}="([^"]+)"`).exec(tag)?.[1];
  const entries: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*\btype="module"[^>]*>/g)) {
    for (const src of [attr(tag, 'src'), attr(tag, 'data-entry')]) if (src) entries.push(src.replace(/^\//, ''));
  }
  return entries;
}

/**
 * The scripts a route loads: the module scripts of index.html with their static imports, then
 * the route's lazy screen chunk with its static imports (what the browser fetches to draw the
 * screen; dynamic imports below that are loaded only on demand and are not counted).
 */
export function routeScripts(distDir: string, screenModule: string): RouteScripts {
  const manifest = readManifest(distDir);
  const byFile = new Map(Object.entries(manifest).map(([key, chunk]) => [chunk.file, key]));
  const entry = indexHtmlEntries(distDir);
  if (entry.length === 0) throw new Error('index.html loads no module script');
  if (!manifest[screenModule]) throw new Error(`${screenModule} is not a chunk of the build`);

  const seen = new Set<string>();
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`The manifest names ${key} but has no entry for it`);
    seen.add(key);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const file of entry) {
    const key = byFile.get(file);
    if (!key) throw new Error(`index.html loads ${file}, which the manifest does not list`);
    visit(key);
  }
  visit(screenModule);

  const scripts = [...seen].map((key) => {
    const file = (manifest[key] as ManifestChunk).file;
    const code = readFileSync(path.join(distDir, file));
    return { file, bytes: code.length, gzipBytes: gzipSync(code, { level: 9 }).length };
  });
  scripts.sort((a, b) => b.gzipBytes - a.gzipBytes);
  return { scripts, gzipBytes: scripts.reduce((sum, s) => sum + s.gzipBytes, 0) };
}

export const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;

/** `tsx scripts/route-scripts.ts [distDir]`: prints what /login loads. */
if (import.meta.url === `file://${process.argv[1]}`) {
  const distDir = path.resolve(process.argv[2] ?? path.join(import.meta.dirname, '..', 'dist'));
  const login = routeScripts(distDir, LOGIN_SCREEN_MODULE);
  for (const s of login.scripts) console.log(`${kib(s.gzipBytes).padStart(10)}  ${s.file}`);
  console.log(`${kib(login.gzipBytes).padStart(10)}  total /login (budget ${kib(LOGIN_JS_BUDGET_BYTES)})`);
}
