import { randomBytes } from 'node:crypto';
import pg from 'pg';

/**
 * A database of its own on a PostgreSQL server, dropped (with its connections) by `drop()`:
 * empty, or a copy of `template` (a migrated template database, see test-database.ts).
 */
export async function scratchDatabase(
  serverUrl: string,
  prefix: string,
  template?: string,
): Promise<{ url: string; name: string; drop(): Promise<void> }> {
  const name = `${prefix}_${randomBytes(5).toString('hex')}`;
  await adminQuery(serverUrl, template ? `create database ${name} template ${template}` : `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    name,
    drop: () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`),
  };
}

/** One statement on the server's maintenance connection (CREATE/DROP DATABASE). */
export async function adminQuery(serverUrl: string, statement: string): Promise<void> {
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  try {
    await admin.query(statement);
  } finally {
    await admin.end();
  }
}

/** Whether a PostgreSQL server answers at `serverUrl` (within two seconds). */
export async function postgresAvailable(serverUrl: string): Promise<boolean> {
  const client = new pg.Client({ connectionString: serverUrl, connectionTimeoutMillis: 2000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}
