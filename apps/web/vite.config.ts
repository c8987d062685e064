import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

// Module ids for the chunk groups below: our code, the shared form parts, the entry module.
const APP_CODE = /[\\/](apps[\\/]web|packages[\\/]contracts)[\\/]src[\\/]/;
const COMPONENTS =
  /[\\/](apps[\\/]web[\\/]src[\\/]components[\\/]|packages[\\/]contracts[\\/]src[\\/]field-rules\.ts$)/;
const ENTRY = /[\\/]apps[\\/]web[\\/]src[\\/]main\.tsx$/;

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

// The API serves the built SPA itself (apps/api serves apps/web/dist); in `vite` dev mode the
// dev server forwards /api to a locally running API so that cookies stay same-origin.
export default defineConfig({
  plugins: [react(), precompress()],
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
            { name: 'app', tags: ['$initial'], test: (id) => APP_CODE.test(id) && !ENTRY.test(id) },
            // The small shared form parts in one chunk: /login then asks for two modules, not eight.
            { name: 'components', test: COMPONENTS },
          ],
        },
      },
    },
  },
});
