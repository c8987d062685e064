import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin, type Rollup } from 'vite';
import { RENDERED_AHEAD, type RenderedAheadPage, screenModulesAttribute } from './src/app/rendered-ahead';

// Module ids for the chunk groups below: our code, the shared form parts, the entry modules
// (the app's and the loader's, which stay chunks of their own).
const APP_CODE = /[\\/](apps[\\/]web|packages[\\/]contracts)[\\/]src[\\/]/;
// The pager, the select field (list and address screens), the expiring-tokens list (voice AI
// screens, ADR 0056) and the step-up dialog (loaded when a call asks for it, ADR 0040) are not
// the sign-in's: kept out, so
// that /login does not load them (room made for the passkey button, ADR 0039).
const COMPONENTS =
  /[\\/](apps[\\/]web[\\/]src[\\/](components[\\/](?!pager\.tsx$|select-field\.tsx$|expiring-tokens\.|step-up-dialog\.)|lib[\\/]use-action\.ts$)|packages[\\/]contracts[\\/]src[\\/]field-rules\.ts$)/;
const ENTRY = /[\\/]apps[\\/]web[\\/]src[\\/](main\.tsx|after-paint\.ts)$/;
// The module that starts React DOM (src/react-dom-start.ts): a chunk of its own, so that the
// loader evaluates it in a task of its own (ADR 0043, third addendum).
const REACT_DOM_START = /[\\/]apps[\\/]web[\\/]src[\\/]react-dom-start\.ts$/;

/**
 * Writes `.br` and `.gz` beside every script, stylesheet, SVG and HTML file of the build, so that
 * the API serves them compressed without compressing per request (its static plugin's
 * `preCompressed`). The /login budget is counted in the same gzip (ADR 0020).
 */
function precompress(): Plugin {
  return {
    name: 'soundid-precompress',
    apply: 'build',
    writeBundle({ dir }) {
      if (!dir) return;
      for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
        if (!entry.isFile() || !/\.(js|css|svg|html)$/.test(entry.name)) continue;
        const file = path.join(entry.parentPath, entry.name);
        const content = readFileSync(file);
        writeFileSync(`${file}.gz`, gzipSync(content, { level: 9 }));
        writeFileSync(`${file}.br`, brotliCompressSync(content, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
      }
    },
  };
}

/**
 * The page renderer the API imports (src/server-entry.tsx, ADR 0024): `vite build --ssr` writes
 * it to dist-server, outside what the API serves. Libraries stay imports of node_modules.
 */
const serverBuild = defineConfig({
  plugins: [react()],
  publicDir: false,
  build: { outDir: 'dist-server', emptyOutDir: true, sourcemap: false },
});

const LOADER = 'src/after-paint.ts';

/**
 * V8's explicit compile hint, a magic comment before a script's first statement: compile all of
 * the script's functions while the script streams in, off the main thread, rather than each on
 * its first call (ADR 0043, third addendum).
 */
export const V8_COMPILE_HINT = '//# allFunctionsCalledOnLoad';
/** The start-up chunks (the loader's preloads): a page calls most of their functions as it starts. */
const COMPILED_WHILE_STREAMED = new Set(['rolldown-runtime', 'react', 'react-dom-start', 'router', 'app']);

/**
 * Puts V8's compile hint first in each start-up chunk, after everything else has written the
 * chunk (Vite adds its preload map to the top of a chunk late, in its own generateBundle). That
 * is after the chunk's name was hashed, so the hint goes into the hash too: the assets are
 * cached as immutable, and a hinted file must not keep an unhinted one's name.
 */
export function compileWhileStreamed(): Plugin {
  return {
    name: 'soundid-compile-while-streamed',
    apply: 'build',
    augmentChunkHash: (chunk) => (COMPILED_WHILE_STREAMED.has(chunk.name) ? V8_COMPILE_HINT : undefined),
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        for (const chunk of Object.values(bundle)) {
          if (chunk.type !== 'chunk' || !COMPILED_WHILE_STREAMED.has(chunk.name)) continue;
          // A line added at the top would shift every line of a source map.
          if (chunk.map) this.error(`${chunk.fileName}: the compile hint cannot be added to a chunk with a source map`);
          chunk.code = `${V8_COMPILE_HINT}\n${chunk.code}`;
        }
      },
    },
  };
}

/**
 * Leaves index.html one script, the loader (src/after-paint.ts), which fetches the app after the
 * first paint of a page that came rendered (ADR 0024): the app's entry and the modules Vite would
 * preload move into the loader tag's data attributes.
 */
function loadAfterFirstPaint(): Plugin {
  return {
    name: 'soundid-load-after-first-paint',
    apply: 'build',
    transformIndexHtml: {
      order: 'post',
      handler(html, { bundle }) {
        const loader = Object.values(bundle ?? {}).find(
          (chunk) => chunk.type === 'chunk' && chunk.isEntry && chunk.facadeModuleId?.endsWith(LOADER),
        );
        if (!loader) throw new Error(`The build has no chunk for ${LOADER}`);
        const tags = (pattern: RegExp) => [...html.matchAll(pattern)];
        const scripts = tags(/<script type="module" crossorigin src="([^"]+)"><\/script>\s*/g);
        const preloads = tags(/<link rel="modulepreload" crossorigin href="([^"]+)">\s*/g);
        const entry = scripts.find(([, src]) => src !== `/${loader.fileName}`);
        if (!entry) throw new Error('index.html names no app entry');
        for (const [tag] of [...scripts, ...preloads]) html = html.replace(tag, '');
        const preloadList = preloads.map(([, href]) => href).join(' ');
        // What the page has already: the app's start-up modules and the stylesheets index.html links.
        const started = new Set<string>([
          entry[1] ?? '',
          ...[...preloads, ...tags(/href="([^"]+\.css)"/g)].map(([, href]) => href ?? ''),
        ]);
        const screens = (Object.keys(RENDERED_AHEAD) as RenderedAheadPage[])
          .map(
            (page) =>
              ` ${screenModulesAttribute(page)}="${screenFiles(bundle ?? {}, RENDERED_AHEAD[page], started).join(' ')}"`,
          )
          .join('');
        const loaderTag = `<script type="module" crossorigin id="app-loader" src="/${loader.fileName}" data-entry="${entry[1]}" data-preloads="${preloadList}"${screens}></script>`;
        return html.replace('</head>', `  ${loaderTag}\n  </head>`);
      },
    },
  };
}

/**
 * The files a page rendered ahead needs beyond the app's start-up (src/app/rendered-ahead.ts):
 * the chunks of its route modules, what they import, and their stylesheets.
 */
function screenFiles(bundle: Rollup.OutputBundle, modules: readonly string[], started: Set<string>): string[] {
  const chunks = Object.values(bundle).filter((file): file is Rollup.OutputChunk => file.type === 'chunk');
  const files = new Set<string>();
  const add = (chunk: Rollup.OutputChunk) => {
    const href = `/${chunk.fileName}`;
    if (files.has(href)) return;
    files.add(href);
    for (const css of chunk.viteMetadata?.importedCss ?? []) files.add(`/${css}`);
    for (const imported of chunk.imports) {
      const next = bundle[imported];
      if (next?.type === 'chunk') add(next);
    }
  };
  for (const module of modules) {
    const chunk = chunks.find(
      (c) =>
        c.facadeModuleId &&
        path
          .relative(import.meta.dirname, c.facadeModuleId)
          .split(path.sep)
          .join('/') === module,
    );
    if (!chunk) throw new Error(`The build has no chunk for ${module} (src/app/rendered-ahead.ts)`);
    add(chunk);
  }
  return [...files].filter((href) => !started.has(href));
}

// The API serves the built SPA itself (apps/api serves apps/web/dist); in `vite` dev mode the
// dev server forwards /api to a locally running API so that cookies stay same-origin.
const browserBuild = defineConfig({
  plugins: [react(), compileWhileStreamed(), precompress(), loadAfterFirstPaint()],
  server: {
    proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } },
  },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // Read by the /login size budget (e2e/bundle-budget.spec.ts) to walk the real import graph.
    manifest: true,
    // Every browser the portal supports has modulepreload; the polyfill would cost /login 0.6 KiB.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      input: { index: 'index.html', loader: LOADER },
      output: {
        codeSplitting: {
          groups: [
            // Libraries in chunks of their own: they change less often than the app, so they stay cached.
            { name: 'react', test: /node_modules[\\/](react|react-dom|scheduler)[\\/]/ },
            { name: 'router', test: /node_modules[\\/]react-router[\\/]/ },
            { name: 'query', test: /node_modules[\\/]@tanstack[\\/]/ },
            { name: 'forms', test: /node_modules[\\/](react-hook-form|@hookform)[\\/]/ },
            { name: 'zod', test: /node_modules[\\/]zod[\\/]/ },
            // The app code every page runs (the entry's static imports) in one chunk rather than
            // a score of small shared ones: fewer requests, and it compresses as one (ADR 0020).
            { name: 'react-dom-start', test: REACT_DOM_START },
            {
              name: 'app',
              tags: ['$initial'],
              test: (id) => APP_CODE.test(id) && !ENTRY.test(id) && !REACT_DOM_START.test(id),
            },
            // The small shared form parts (and the form action hook) in one chunk: /login then asks for
            // two modules, not eight, and a lazy step of its form adds no chunk of its own.
            { name: 'components', test: COMPONENTS },
          ],
        },
      },
    },
  },
});

export default defineConfig(({ isSsrBuild }) => (isSsrBuild ? serverBuild : browserBuild));
