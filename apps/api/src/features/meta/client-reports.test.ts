import { CLIENT_REPORT_LIMITS, CLIENT_REPORT_PATH, CLIENT_REPORTS_PER_MINUTE } from '@soundid/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

/** The log lines the service wrote, parsed. */
const logged: Record<string, unknown>[] = [];
const logStream = { write: (line: string) => void logged.push(JSON.parse(line)) };
const reportsLogged = () => logged.filter((line) => line.clientError || line.clientTrace);

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ LOG_LEVEL: 'info' }, { logger: true, logStream });
});
afterAll(() => t.close());
beforeEach(() => {
  logged.length = 0;
  // A fresh minute for the per-address limit.
  t.clock.advanceMinutes(2);
});

const error = {
  kind: 'error',
  message: 'TypeError: x is undefined',
  stack: 'at Screen (main.js:1:2)',
  path: '/products',
};

describe('the error-reporting service of the front end (ADR 0026)', () => {
  it('logs an error report at warn with its page, redacting a link token in the path', async () => {
    const res = await t.call(CLIENT_REPORT_PATH, { ...error, path: '/reset-password/secret-link-token' }, undefined, {
      'user-agent': 'Mozilla/5.0 (test)',
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ Success: true });
    const [line] = reportsLogged();
    expect(line).toMatchObject({
      level: 40,
      msg: 'client error',
      clientError: {
        message: error.message,
        stack: error.stack,
        path: '/reset-password/[redacted]',
        userAgent: 'Mozilla/5.0 (test)',
      },
    });
    expect(JSON.stringify(logged)).not.toContain('secret-link-token');
  });

  it('logs a page-load trace at info with its timings', async () => {
    const res = await t.call(CLIENT_REPORT_PATH, {
      kind: 'trace',
      path: '/login',
      timings: { responseStart: 120.5, domContentLoaded: 480, firstContentfulPaint: 510 },
    });
    expect(res.statusCode).toBe(200);
    expect(reportsLogged()).toMatchObject([
      {
        level: 30,
        msg: 'client page-load trace',
        clientTrace: {
          path: '/login',
          timings: { responseStart: 120.5, domContentLoaded: 480, firstContentfulPaint: 510 },
        },
      },
    ]);
  });

  it.each([
    ['an unknown kind', { ...error, kind: 'crash' }],
    ['an unknown field', { ...error, userId: 'someone' }],
    ['a message over its limit', { ...error, message: 'x'.repeat(CLIENT_REPORT_LIMITS.message + 1) }],
    ['a path over its limit', { ...error, path: `/${'p'.repeat(CLIENT_REPORT_LIMITS.path)}` }],
    ['a negative timing', { kind: 'trace', path: '/login', timings: { load: -1 } }],
    [
      'too many timings',
      {
        kind: 'trace',
        path: '/login',
        timings: Object.fromEntries(
          Array.from({ length: CLIENT_REPORT_LIMITS.timings + 1 }, (_, i) => [`t${'abcdefghijklmn'[i]}`, i]),
        ),
      },
    ],
  ])('refuses %s with a 400 Fault and logs nothing of it', async (_name, body) => {
    const res = await t.call(CLIENT_REPORT_PATH, body);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ Success: false, Fault: { ExceptionName: expect.any(String) } });
    expect(reportsLogged()).toEqual([]);
  });

  it('takes a limited number of reports per address and minute, then refuses with 429 until the minute is over', async () => {
    for (let i = 0; i < CLIENT_REPORTS_PER_MINUTE; i++) {
      expect((await t.call(CLIENT_REPORT_PATH, error)).statusCode).toBe(200);
    }
    const refused = await t.call(CLIENT_REPORT_PATH, error);
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toMatchObject({ Success: false, Fault: { ExceptionName: 'AttemptOverLimit' } });
    expect(reportsLogged()).toHaveLength(CLIENT_REPORTS_PER_MINUTE);

    t.clock.advanceMinutes(1);
    expect((await t.call(CLIENT_REPORT_PATH, error)).statusCode).toBe(200);
  });
});
