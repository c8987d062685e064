import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { buildApp } from '../app';
import { loadConfig } from '../config';
import { openDatabase } from '../db/client';

/**
 * Writes the OpenAPI document that GET /api/docs serves (`npm run lint:openapi` lints it with
 * Redocly). The service is built as in development, on an in-memory PGlite database and without
 * listening or any network, so every route is in the document (the sandbox and dev routes too).
 *
 * Usage: tsx apps/api/src/cli/openapi-document.ts <output.json>
 */
async function main(): Promise<void> {
  const output = process.argv[2];
  if (!output) throw new Error('Usage: openapi-document.ts <output.json>');
  const dataDir = mkdtempSync(path.join(tmpdir(), 'soundid-openapi-'));
  const database = await openDatabase({ kind: 'pglite' });
  const config = loadConfig({
    NODE_ENV: 'development',
    DATA_DIR: dataDir,
    PUBLIC_URL: 'http://localhost:3000',
    SESSION_SECRET: 'openapi-document-session-secret-0123456789abcdef',
    ADMIN_TOKEN: 'openapi-document-admin-token-0123456789',
    WEB_DIST_DIR: path.join(dataDir, 'no-spa'),
    CONSOLE_DIST_DIR: path.join(dataDir, 'no-console'),
  });
  const app = await buildApp({ config, database, logger: false });
  try {
    await app.ready();
    const answer = await app.inject({ method: 'GET', url: '/api/docs' });
    if (answer.statusCode !== 200) throw new Error(`GET /api/docs answered ${answer.statusCode}`);
    mkdirSync(path.dirname(path.resolve(output)), { recursive: true });
    writeFileSync(output, `${JSON.stringify(answer.json(), null, 2)}\n`);
  } finally {
    await app.close();
    await database.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(error);
    process.exit(1);
  },
);
