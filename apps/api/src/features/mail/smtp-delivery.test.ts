import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PASSWORD } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/test-app';

interface Received {
  to: string[];
  raw: string;
}

let smtp: SMTPServer;
const received: Received[] = [];
let t: TestApp;

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  const port = (smtp.server.address() as AddressInfo).port;
  t = await createTestApp({ SMTP_URL: `smtp://127.0.0.1:${port}`, MAIL_FROM: 'SoundID <accounts@soundid.test>' });
});
afterAll(async () => {
  await t.close();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe('with SMTP_URL set', () => {
  it('delivers the verification mail over SMTP with both bodies', async () => {
    const res = await t.call('/api/accounts/register', { email: 'smtp@example.com', password: PASSWORD });
    expect(res.statusCode).toBe(201);
    const mail = received.find((m) => m.to.includes('smtp@example.com'));
    expect(mail).toBeDefined();
    expect(mail?.raw).toMatch(/^From: SoundID <accounts@soundid\.test>/m);
    expect(mail?.raw).toContain('text/plain');
    expect(mail?.raw).toContain('text/html');
    expect(mail?.raw).toMatch(/verify-email\//);
  });

  it('keeps no outbox and serves no dev mailbox', async () => {
    const res = await t.app.inject('/api/dev/mail?to=smtp@example.com');
    expect(res.statusCode).toBe(404);
  });
});

describe('in production', () => {
  it('has no dev mailbox and says it is no development environment', async () => {
    const prod = await createTestApp({
      NODE_ENV: 'production',
      DATABASE_URL: 'postgres://unused@127.0.0.1:1/unused',
      SMTP_URL: 'smtp://127.0.0.1:1',
      PUBLIC_URL: 'https://my.soundid.test',
    });
    try {
      expect((await prod.app.inject('/api/dev/mail')).statusCode).toBe(404);
      expect((await prod.app.inject('/api/config')).json().Result.DevelopmentEnv).toBe(false);
    } finally {
      await prod.close();
    }
  });
});
