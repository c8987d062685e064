import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { type DatabaseHandle, openDatabase } from '../../src/db/client';
import { scratchDatabase } from './databases';

/**
 * One isolated, migrated database per test file: an in-memory PGlite loaded from the run's
 * migrated template (test/global-setup.ts), or, in the PostgreSQL project, a copy of the run's
 * template database on the TEST_DATABASE_URL server, dropped afterwards. Without a template
 * (a file run outside the projects' set-up) each is created and migrated here.
 */
export async function openTestDatabase(): Promise<DatabaseHandle> {
  if (process.env.TEST_DB_KIND !== 'postgres') {
    const template = inject('pgliteTemplate');
    const handle = await openDatabase(
      template ? { kind: 'pglite', loadDataDir: new Blob([readFileSync(template)]) } : { kind: 'pglite' },
    );
    // A no-op on the template (its migrations are recorded), the whole schema without one.
    await handle.migrate();
    return handle;
  }
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) throw new Error('TEST_DATABASE_URL is not set');
  const scratch = await scratchDatabase(serverUrl, 'soundid_test', inject('postgresTemplate'));
  const handle = await openDatabase({ kind: 'postgres', url: scratch.url, poolSize: 10 });
  await handle.migrate();
  return {
    ...handle,
    async close() {
      await handle.close();
      await scratch.drop();
    },
  };
}
