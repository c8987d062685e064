import type { PGlite } from '@electric-sql/pglite';
import { type ConstructorOptions, fromPglite, PgBoss } from 'pg-boss';

/**
 * The job queue's tables (docs/decisions/0051-job-queue.md): pg-boss keeps them in a schema of its
 * own, beside the service's, and installs or upgrades them itself under its advisory lock. They
 * are made when the database is migrated, so a job can be queued in any transaction from then on.
 */
export const JOB_QUEUE_SCHEMA = 'pgboss';

export type JobQueueConnection = { kind: 'pglite'; client: PGlite } | { kind: 'postgres'; url: string };

/** pg-boss's connection options: the embedded database's one connection, or a small pool of its own. */
export function jobQueueConnectionOptions(connection: JobQueueConnection, poolSize = 3): ConstructorOptions {
  return connection.kind === 'pglite'
    ? { db: fromPglite(connection.client), backend: 'pglite', schema: JOB_QUEUE_SCHEMA }
    : { connectionString: connection.url, max: poolSize, schema: JOB_QUEUE_SCHEMA, application_name: 'soundid-jobs' };
}

/** Installs the queue's schema, or brings it to this pg-boss's version; a no-op when it is current. */
export async function migrateJobQueue(connection: JobQueueConnection): Promise<void> {
  const boss = new PgBoss({
    ...jobQueueConnectionOptions(connection, 1),
    migrate: true,
    supervise: false,
    schedule: false,
    registerInstance: false,
    openTelemetry: { enabled: false },
  });
  let failure: unknown;
  boss.on('error', (error) => {
    failure ??= error;
  });
  await boss.start();
  await boss.stop({ graceful: false });
  if (failure) throw failure;
}
