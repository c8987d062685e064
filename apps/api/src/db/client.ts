import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import { migrate as migratePg } from 'drizzle-orm/node-postgres/migrator';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import pg from 'pg';
import { type JobQueueConnection, migrateJobQueue } from './job-queue-schema';
import * as schema from './schema';

export type Schema = typeof schema;
/** The one database type services use, whether PGlite or a PostgreSQL server stands behind it. */
export type Database = PgDatabase<PgQueryResultHKT, Schema>;
export type Transaction = Parameters<Parameters<Database['transaction']>[0]>[0];
/** Code that may run inside or outside a transaction takes either. */
export type Queryable = Database | Transaction;

export const migrationsFolder = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');

export interface DatabaseHandle {
  db: Database;
  kind: 'pglite' | 'postgres';
  migrate(): Promise<void>;
  /** True when a trivial query answers (readiness probe). */
  ping(): Promise<boolean>;
  /** Connections held (for the operator metrics: a leak shows as a pool that never drains). */
  connections(): { total: number; idle: number; waiting: number };
  close(): Promise<void>;
  /**
   * What the job queue connects with (docs/decisions/0051-job-queue.md): the embedded database's
   * one connection, or the server's address for a small pool of the queue's own.
   */
  jobQueueConnection: JobQueueConnection;
}

export type DatabaseOptions =
  | { kind: 'postgres'; url: string; poolSize?: number }
  | { kind: 'pglite'; dataDir?: string; loadDataDir?: Blob };

export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  return options.kind === 'postgres' ? openPostgres(options.url, options.poolSize) : openPglite(options);
}

function openPostgres(url: string, poolSize = 20): DatabaseHandle {
  const pool = new pg.Pool({ connectionString: url, max: poolSize, connectionTimeoutMillis: 5000 });
  // An idle client losing its connection (database restart) must not crash the process.
  pool.on('error', () => {});
  // Nor one checked out for a transaction: pg emits 'error' on the client itself, which the pool
  // listens for only while the client is idle. The query under way fails with the same error
  // (a 503), and the pool drops the broken client when it is released.
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = drizzlePg(pool, { schema }) as unknown as Database;
  return {
    db,
    kind: 'postgres',
    migrate: async () => {
      await migratePostgres(pool);
      await migrateJobQueue({ kind: 'postgres', url });
    },
    ping: () => ping(db),
    connections: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
    close: () => pool.end(),
    jobQueueConnection: { kind: 'postgres', url },
  };
}

/** Replicas starting together migrate one at a time: a session-level advisory lock. */
const MIGRATION_LOCK_ID = 7_345_120_001;
async function migratePostgres(pool: pg.Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK_ID]);
    await migratePg(drizzlePg(client), { migrationsFolder });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK_ID]).catch(() => {});
    client.release();
  }
}

async function openPglite(options: { dataDir?: string; loadDataDir?: Blob }): Promise<DatabaseHandle> {
  const client = await PGlite.create(options.dataDir, options.loadDataDir ? { loadDataDir: options.loadDataDir } : {});
  const db = drizzlePglite(client, { schema }) as unknown as Database;
  return {
    db,
    kind: 'pglite',
    migrate: async () => {
      await migratePglite(drizzlePglite(client), { migrationsFolder });
      await migrateJobQueue({ kind: 'pglite', client });
    },
    ping: () => ping(db),
    connections: () => ({ total: 1, idle: 1, waiting: 0 }),
    close: () => client.close(),
    jobQueueConnection: { kind: 'pglite', client },
  };
}

async function ping(db: Database): Promise<boolean> {
  try {
    await db.execute(sql`select 1`);
    return true;
  } catch {
    return false;
  }
}
