import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

/**
 * The back-office console (docs/decisions/0047-console.md): a bundle of its own, served by the
 * API under /console and nowhere else, so that no byte of it reaches the customer portal.
 */

/** `.br` and `.gz` beside each text asset: the API serves them as the portal's (`preCompressed`). */
function compressedCopies(): Plugin {
  return {
    name: 'console-compressed-copies',
    apply: 'build',
    writeBundle({ dir }) {
      const files = dir ? readdirSync(dir, { recursive: true, encoding: 'utf8' }) : [];
      for (const name of files.filter((file) => /\.(html|js|css|svg)$/.test(file))) {
        const file = path.join(dir as string, name);
        const bytes = readFileSync(file);
        writeFileSync(`${file}.br`, brotliCompressSync(bytes));
        writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
      }
    },
  };
}

export default defineConfig({
  // Every URL of the build starts /console/: its pages, scripts and stylesheet.
  base: '/console/',
  plugins: [react(), compressedCopies()],
  // `npm run dev -w apps/console`: the API on :3000 answers the calls, so its cookie stays same-origin.
  server: { port: 5174, proxy: { '/api': { target: 'http://localhost:3000', changeOrigin: false } } },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
    sourcemap: false,
    // The console's CSP admits no inline script: the polyfill Vite would inline is not needed.
    modulePreload: { polyfill: false },
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [{ name: 'libraries', test: /node_modules[\\/]/ }],
        },
      },
    },
  },
});
