import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { DevMail } from '@soundid/contracts';
import { OPERATOR_API_TOKEN_MAX_DAYS, OPERATOR_ROLES, type OperatorRole } from '@soundid/contracts';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { type AppOptions, composeApp } from '../../src/app';
import { loadConfig } from '../../src/config';
import type { DatabaseHandle } from '../../src/db/client';
import type { Services } from '../../src/services';
import { FakeClock } from '../fake-clock';
import { OperatorKit } from './operators';
import { NO_BUILD_ENV, TEST_SERVICE_ENV } from './service-process';
import { openTestDatabase } from './test-database';

export interface TestApp {
  app: FastifyInstance;
  /** The services the app was built with (its composition root), for tests that reach one directly. */
  services: Services;
  clock: FakeClock;
  database: DatabaseHandle;
  /** POST a call with JSON, optionally signed in with a token. */
  call(url: string, body?: unknown, token?: string, headers?: Record<string, string>): Promise<LightMyRequestResponse>;
  /** The mails sent to an address, newest first (the dev outbox). */
  mailsTo(address: string): Promise<DevMail[]>;
  /** The token at the end of the newest mail's first link to an address. */
  lastLinkToken(address: string): Promise<string>;
  /** Operators made as a person makes them (ADR 0044): bootstrap, invitation, sign-in, API token. */
  operators: OperatorKit;
  /** A write API token of an operator with these roles (every role by default), made once per roles. */
  operatorToken(roles?: readonly OperatorRole[]): Promise<string>;
  close(): Promise<void>;
}

export const ADMIN_TOKEN = 'test-admin-token-0123456789abcdef';
export const TEST_SESSION_SECRET = 'test-session-secret-0123456789abcdef0123456789';

/**
 * The service in this process (ADR 0035), on a database of its own (a copy of the run's migrated
 * template) and a fake clock. Outside production it gets TEST_SERVICE_ENV: allowances out of the
 * way of suites that sign up many customers from one address (a test of the limits sets its own
 * values, or '' for the production defaults: abuse-limits.test.ts) and argon2's cheapest cost (a
 * test of the production parameters sets PASSWORD_HASH_COST=production).
 */
export async function createTestApp(
  env: Record<string, string> = {},
  overrides: Partial<Omit<AppOptions, 'config' | 'database' | 'clock'>> = {},
): Promise<TestApp> {
  const clock = new FakeClock();
  const database = await openTestDatabase();
  const config = loadConfig({
    NODE_ENV: 'test',
    DATA_DIR: mkdtempSync(path.join(tmpdir(), 'soundid-test-')),
    PUBLIC_URL: 'http://localhost:3000',
    SESSION_SECRET: TEST_SESSION_SECRET,
    ADMIN_TOKEN,
    ...NO_BUILD_ENV,
    ...(env.NODE_ENV === 'production' ? {} : TEST_SERVICE_ENV),
    ...env,
  });
  const { app, services } = await composeApp({ config, database, clock, logger: false, ...overrides });
  await app.ready();

  const call: TestApp['call'] = (url, body = {}, token, headers = {}) =>
    app.inject({
      method: 'POST',
      url,
      payload: body as object,
      headers: { 'content-type': 'application/json', ...(token ? { authtoken: token } : {}), ...headers },
    });

  const mailsTo: TestApp['mailsTo'] = async (address) => {
    // Some mails go out after the answer (password resets): wait for that work first.
    await services.accounts.settled();
    const res = await app.inject({ method: 'GET', url: `/api/dev/mail?to=${encodeURIComponent(address)}` });
    return res.json().Result;
  };

  const operators = new OperatorKit(
    async (url, body, headers = {}) => {
      const res = await app.inject({
        method: 'POST',
        url,
        payload: body as object,
        headers: { 'content-type': 'application/json', ...headers },
      });
      return { status: res.statusCode, json: res.json() };
    },
    config.adminToken,
    () => clock.now(),
  );
  // Made once per roles, and made again once the fake clock nears the token's expiry (tests move
  // it by months: token lots live 12 months).
  const operatorTokens = new Map<string, { token: Promise<string>; renewAt: number }>();
  const operatorToken: TestApp['operatorToken'] = (roles = OPERATOR_ROLES) => {
    const key = [...roles].sort().join(',');
    const now = clock.now().getTime();
    let kept = operatorTokens.get(key);
    if (!kept || now >= kept.renewAt) {
      kept = { token: operators.tokenFor(roles), renewAt: now + (OPERATOR_API_TOKEN_MAX_DAYS - 1) * 86_400_000 };
      operatorTokens.set(key, kept);
    }
    return kept.token;
  };

  return {
    app,
    services,
    clock,
    database,
    call,
    mailsTo,
    operators,
    operatorToken,
    async lastLinkToken(address) {
      const [mail] = await mailsTo(address);
      const link = mail?.Links[0];
      if (!link) throw new Error(`no mail with a link to ${address}`);
      return link.split('/').pop() as string;
    },
    async close() {
      await services.jobs.stop();
      await app.close();
      await database.close();
    },
  };
}

/**
 * A built SPA stand-in (index.html and one hashed asset) for tests of what the service serves.
 * With `renderer`, a page renderer beside it (dist-server, as `npm run build` writes it) that
 * writes what the service passed it into the page, as JSON, with the answer of the call its
 * `call` query names; `/render-fails` makes it throw. It counts its renders in
 * `globalThis.pageRenders`.
 */
export function fakeWebDist({ renderer = false }: { renderer?: boolean } = {}): string {
  const root = mkdtempSync(path.join(tmpdir(), 'soundid-web-'));
  const dist = path.join(root, 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>My SoundID</title><div id="root"></div>');
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
  // As the web build writes them (apps/web/vite.config.ts, precompress).
  writeFileSync(path.join(dist, 'assets', 'app-abc123.js.gz'), gzipSync('console.log(1)'));
  if (renderer) {
    mkdirSync(path.join(root, 'dist-server'));
    writeFileSync(
      path.join(root, 'dist-server', 'server-entry.js'),
      `export async function renderPage(template, request) {
        globalThis.pageRenders = (globalThis.pageRenders ?? 0) + 1;
        if (request.url.startsWith('/render-fails')) throw new Error('renderer failed');
        const { call, ...passed } = request;
        const called = new URL(request.url, 'http://x').searchParams.get('call');
        const body = called?.endsWith('/LoginByToken') ? { getProfile: true } : {};
        if (called) passed.answer = await call(called, body, { Software: 'MySoundID-Web/1.0' });
        return template.replace('<div id="root"></div>', () => '<div id="root">' + JSON.stringify(passed) + '</div>');
      }`,
    );
  }
  return dist;
}

/** A console build as apps/console's Vite build writes it (base /console/, precompressed copies). */
export function fakeConsoleDist(): string {
  const dist = path.join(mkdtempSync(path.join(tmpdir(), 'soundid-console-')), 'dist');
  mkdirSync(path.join(dist, 'assets'), { recursive: true });
  writeFileSync(
    path.join(dist, 'index.html'),
    '<!doctype html><title>SoundID console</title><script type="module" src="/console/assets/index-c0ns01e.js"></script><div id="root"></div>',
  );
  writeFileSync(path.join(dist, 'assets', 'index-c0ns01e.js'), 'console.log("console")');
  writeFileSync(path.join(dist, 'assets', 'index-c0ns01e.js.br'), brotliCompressSync('console.log("console")'));
  return dist;
}
