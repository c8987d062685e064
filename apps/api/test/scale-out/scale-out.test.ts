import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Two service processes on one PostgreSQL, on different ports: what one replica records
 * (sessions, lockout counters, action tokens) the other one honours.
 */
const serverUrl = process.env.TEST_DATABASE_URL;
const runs = process.env.TEST_DB_KIND === 'postgres' && serverUrl !== undefined;
const serverEntry = fileURLToPath(new URL('../../src/server.ts', import.meta.url));
const dbName = `soundid_scale_${randomBytes(5).toString('hex')}`;
const replicas: { url: string; process: ChildProcess }[] = [];
const PASSWORD = 'shared across replicas';

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

async function startReplica(databaseUrl: string): Promise<{ url: string; process: ChildProcess }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: {
      ...process.env,
      NODE_ENV: 'development',
      PORT: String(port),
      HOST: '127.0.0.1',
      PUBLIC_URL: url,
      DATABASE_URL: databaseUrl,
      DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soundid-replica-')),
      SESSION_SECRET: 'replicas-share-this-session-secret-0123456789',
      ADMIN_TOKEN: 'replicas-share-this-admin-token-0123',
      LOG_LEVEL: 'warn',
    },
    stdio: 'ignore',
  });
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(`${url}/api/ready`)).ok) return { url, process: child };
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  child.kill('SIGKILL');
  throw new Error('replica did not start');
}

const call = async (base: string, name: string, body: unknown, token?: string) => {
  const res = await fetch(`${base}/api/accounts/${name}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authtoken: token } : {}) },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { Token?: string; Fault?: { ExceptionName: string } } };
};

describe.runIf(runs)('two replicas on one PostgreSQL', () => {
  let a: string;
  let b: string;

  beforeAll(async () => {
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${dbName}`);
    await admin.end();
    const url = new URL(serverUrl as string);
    url.pathname = `/${dbName}`;
    // Both start at once: the migration lock lets one migrate while the other waits.
    replicas.push(...(await Promise.all([startReplica(url.toString()), startReplica(url.toString())])));
    [a, b] = replicas.map((r) => r.url) as [string, string];

    await call(a, 'register', { email: 'rep@example.com', password: PASSWORD });
    const mail = (await (await fetch(`${a}/api/dev/mail?to=rep@example.com`)).json()) as {
      Result: { Links: string[] }[];
    };
    const token = mail.Result[0]?.Links[0]?.split('/').pop();
    // The link mailed by replica A is opened on replica B.
    expect((await call(b, 'VerifyEmail', { token })).status).toBe(200);
  }, 120_000);

  afterAll(async () => {
    for (const r of replicas) r.process.kill('SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 500));
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`drop database if exists ${dbName} with (force)`);
    await admin.end();
  });

  it('a session signed in on one replica and revoked on it is refused by the other', async () => {
    const token = (await call(a, 'LoginByEmail', { email: 'rep@example.com', password: PASSWORD })).body.Token;
    expect((await call(b, 'LoginByToken', {}, token)).status).toBe(200);
    await call(b, 'Logout', {}, token);
    const after = await call(a, 'LoginByToken', {}, token);
    expect(after.body.Fault?.ExceptionName).toBe('UserAuthenticationFailed');
  });

  it('sign-in lockout counts failures on both replicas', async () => {
    for (const base of [a, b, a, b]) {
      expect((await call(base, 'LoginByEmail', { email: 'rep@example.com', password: 'wrong one!' })).status).toBe(401);
    }
    const fifth = await call(b, 'LoginByEmail', { email: 'rep@example.com', password: 'wrong one!' });
    expect(fifth.body.Fault?.ExceptionName).toBe('AttemptOverLimitLogin');
    const right = await call(a, 'LoginByEmail', { email: 'rep@example.com', password: PASSWORD });
    expect(right.status).toBe(429);
  });
});

describe.skipIf(runs)('two replicas on one PostgreSQL', () => {
  it.skip('runs only in the PostgreSQL project (TEST_DATABASE_URL)', () => {});
});
