import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { drizzle } from 'drizzle-orm/pglite';
import { migrate } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../src/db/client';

/**
 * A fresh PGlite migrated up to, not including, the migration whose tag `tag` matches
 * (`/^\d{4}_mail_log$/`), for a migration test to fill with the rows the migration must carry
 * over; `migrateRest()` then applies that migration and every later one.
 */
export async function databaseBefore(tag: RegExp): Promise<{
  client: PGlite;
  migrateRest(): Promise<void>;
  close(): Promise<void>;
}> {
  const before = mkdtempSync(path.join(tmpdir(), 'migrations-before-'));
  cpSync(migrationsFolder, before, { recursive: true });
  const journalPath = path.join(before, 'meta', '_journal.json');
  const journal = JSON.parse(readFileSync(journalPath, 'utf8')) as { entries: { tag: string }[] };
  const index = journal.entries.findIndex((e) => tag.test(e.tag));
  if (index <= 0) throw new Error(`no migration after the first matches ${tag}`);
  journal.entries = journal.entries.slice(0, index);
  writeFileSync(journalPath, JSON.stringify(journal));
  const client = await PGlite.create();
  const db = drizzle(client);
  await migrate(db, { migrationsFolder: before });
  return {
    client,
    migrateRest: () => migrate(db, { migrationsFolder }),
    async close() {
      await client.close();
      rmSync(before, { recursive: true, force: true });
    },
  };
}
