import { execFile } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpVerified } from '../../../test/accounts-flow';
import { ADMIN_TOKEN, createTestApp, type TestApp } from '../../../test/kit/test-app';

const run = promisify(execFile);
let t: TestApp;
let baseUrl: string;
beforeAll(async () => {
  t = await createTestApp();
  await signUpVerified(t, 'vic@example.com');
  baseUrl = await t.app.listen({ port: 0, host: '127.0.0.1' });
});
afterAll(() => t.close());

describe('operator API', () => {
  it('refuses a missing or wrong operator token', async () => {
    const none = await t.app.inject('/api/admin/user?email=vic@example.com');
    expect(none.statusCode).toBe(401);
    expect(none.json().Fault.ExceptionName).toBe('AdminTokenInvalid');
    const wrong = await t.app.inject({
      url: '/api/admin/user?email=vic@example.com',
      headers: { authorization: 'Bearer nope' },
    });
    expect(wrong.statusCode).toBe(401);
  });

  it('looks up a customer', async () => {
    const res = await t.app.inject({
      url: '/api/admin/user?email=VIC@example.com',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(res.json().Result).toMatchObject({ Email: 'vic@example.com', EmailVerified: true, ActiveSessions: 1 });
    const missing = await t.app.inject({
      url: '/api/admin/user?email=nobody@example.com',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    expect(missing.json().Fault.ExceptionName).toBe('UserNotFound');
  });
});

describe('npm run admin', () => {
  const cli = (...args: string[]) =>
    run(process.execPath, ['--import', 'tsx', fileURLToPath(new URL('../../cli/admin.ts', import.meta.url)), ...args], {
      env: { ...process.env, ADMIN_TOKEN: '' },
    });

  it('prints a customer', async () => {
    const { stdout } = await cli('user', '--email', 'vic@example.com', '--url', baseUrl, '--token', ADMIN_TOKEN);
    expect(stdout).toContain('Email: vic@example.com');
    expect(stdout).toContain('EmailVerified: true');
  });

  it('finds the service on PORT when neither --url nor PUBLIC_URL is given', async () => {
    const { stdout } = await run(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(new URL('../../cli/admin.ts', import.meta.url)), 'products'],
      { env: { ...process.env, ADMIN_TOKEN, PUBLIC_URL: '', PORT: new URL(baseUrl).port } },
    );
    expect(stdout).toMatch(/^sid-reference\s+SoundIDReference\s/m);
  });

  it('prints the service metrics', async () => {
    const { stdout } = await cli('metrics', '--url', baseUrl, '--token', ADMIN_TOKEN);
    expect(JSON.parse(stdout)).toMatchObject({
      HeapUsedBytes: expect.any(Number),
      Database: { Connections: { total: expect.any(Number) } },
    });
  });

  it('grants tokens once per reference', async () => {
    const args = [
      '--email',
      'vic@example.com',
      '--amount',
      '250',
      '--reference',
      'T-1',
      '--url',
      baseUrl,
      '--token',
      ADMIN_TOKEN,
    ];
    expect((await cli('grant-tokens', ...args)).stdout).toBe('granted 250 tokens\nbalance 250\n');
    expect((await cli('grant-tokens', ...args)).stdout).toBe('already granted for this reference\nbalance 250\n');
    await expect(
      cli('grant-tokens', '--email', 'vic@example.com', '--amount', '-5', '--url', baseUrl),
    ).rejects.toMatchObject({
      code: 2,
    });
  });

  it('prints help, and fails clearly on a bad token or a missing option', async () => {
    expect((await cli('--help')).stdout).toContain('user --email <address>');
    await expect(cli('user', '--email', 'vic@example.com', '--url', baseUrl, '--token', 'bad')).rejects.toMatchObject({
      stderr: expect.stringContaining('AdminTokenInvalid'),
    });
    await expect(cli('user', '--url', baseUrl, '--token', ADMIN_TOKEN)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--email is required'),
    });
  });
});
