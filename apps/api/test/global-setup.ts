import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../src/db/client';
import { adminQuery } from './kit/databases';

declare module 'vitest' {
  export interface ProvidedContext {
    /** A migrated PGlite data directory (a tarball) that each test file loads instead of migrating its own. */
    pgliteTemplate?: string;
    /** A migrated PostgreSQL database that each test file copies (CREATE DATABASE … TEMPLATE). */
    postgresTemplate?: string;
  }
}

/**
 * One migrated template database per run (ADR 0003): creating and migrating an embedded
 * database costs seconds, loading a migrated one a fraction of that; on PostgreSQL a copy of a
 * template is one statement. Each test file still gets a database of its own.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (project.name.endsWith('postgres')) return postgresTemplate(project);
  return pgliteTemplate(project);
}

async function pgliteTemplate(project: TestProject) {
  const dir = mkdtempSync(path.join(tmpdir(), 'soundid-template-'));
  const file = path.join(dir, 'migrated.tar');
  const handle = await openDatabase({ kind: 'pglite' });
  await handle.migrate();
  if (handle.jobQueueConnection.kind !== 'pglite') throw new Error('not PGlite');
  const dump = await handle.jobQueueConnection.client.dumpDataDir('none');
  await handle.close();
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  project.provide('pgliteTemplate', file);
  return async () => rmSync(dir, { recursive: true, force: true });
}

async function postgresTemplate(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL;
  if (!serverUrl) return async () => {};
  const name = `soundid_template_${randomBytes(6).toString('hex')}`;
  await adminQuery(serverUrl, `create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  const handle = await openDatabase({ kind: 'postgres', url: url.toString(), poolSize: 1 });
  await handle.migrate();
  await handle.close();
  project.provide('postgresTemplate', name);
  return async () => adminQuery(serverUrl, `drop database if exists ${name} with (force)`);
}
