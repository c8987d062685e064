import path from 'node:path';
import { sql } from 'drizzle-orm';
import { openDatabase } from '../apps/api/src/db/client';
import { users } from '../apps/api/src/db/schema';
import { hashPassword } from '../apps/api/src/features/accounts/passwords';

export const BENCH_PASSWORD = 'bench password 1';
export const benchEmail = (i: number) => `bench${i}@example.com`;

/**
 * Verified customers sharing one password hash (hashing each would take minutes), written
 * straight into the database before the service starts.
 */
export async function seedCustomers(database: { url?: string; dataDir?: string }, count: number): Promise<void> {
  const handle = await openDatabase(
    database.url
      ? { kind: 'postgres', url: database.url }
      : { kind: 'pglite', dataDir: path.join(database.dataDir as string, 'pgdata') },
  );
  await handle.migrate();
  const passwordHash = await hashPassword(BENCH_PASSWORD);
  const now = new Date();
  for (let from = 0; from < count; from += 1000) {
    const rows = Array.from({ length: Math.min(1000, count - from) }, (_, i) => ({
      email: benchEmail(from + i),
      passwordHash,
      emailVerifiedAt: now,
      createdAt: now,
      updatedAt: now,
    }));
    await handle.db.insert(users).values(rows).onConflictDoNothing();
  }
  await handle.db.execute(sql`analyze`);
  await handle.close();
}
