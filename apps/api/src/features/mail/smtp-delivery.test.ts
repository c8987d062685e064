import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, freshSession, PASSWORD } from '../../../test/accounts-flow';
import { type SmtpRecorder, startSmtpRecorder } from '../../../test/kit/smtp-recorder';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { users } from '../../db/schema';

let smtp: SmtpRecorder;
let received: SmtpRecorder['received'];
let t: TestApp;

beforeAll(async () => {
  smtp = await startSmtpRecorder();
  received = smtp.received;
  t = await createTestApp({ SMTP_URL: smtp.url, MAIL_FROM: 'SoundID <accounts@soundid.test>' });
});
afterAll(async () => {
  await t.close();
  await smtp.close();
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

// One address is one mailbox (docs/decisions/0031-sign-up-and-mail-limits.md), ASVS 5.0 1.2.x
// (no injection into the SMTP envelope or the headers) and 1.3.x, through the real SMTP path.
describe('one account, one recipient', () => {
  const HOSTILE = [
    'ann@example.com,attacker.example',
    'ann@example.com, eve@attacker.example',
    'ann@example.com;eve@attacker.example',
    'Eve <ann@example.com>',
    'ann@example.com<eve@attacker.example>',
    '"ann@example.com,eve"@attacker.example',
    'ann@example.com\r\nBcc: eve@attacker.example',
    'ann@example.com\nRCPT TO:<eve@attacker.example>',
    'ann lee@example.com',
    'ann@eve@attacker.example',
    'eve%attacker.example@example.com',
    'ann@bücher.de',
  ];

  it('refuses each hostile address with the spec message; no account is made and nothing is sent', async () => {
    const before = received.length;
    const accountsBefore = await t.database.db.$count(users);
    for (const email of HOSTILE) {
      const res = await t.call('/api/accounts/register', { email, password: PASSWORD });
      expect(res.statusCode, email).toBe(400);
      expect(res.json().Fault.ExceptionUserText, email).toBe('Email address is not in a correct format.');
      const reset = await t.call('/api/accounts/InitiatePasswordReset', { email });
      expect(reset.statusCode, email).toBe(400);
    }
    await t.services.accounts.settled();
    expect(received.length).toBe(before);
    // Counted, not looked up by address: another test stores a hostile address on purpose (the older rule's).
    expect(await t.database.db.$count(users)).toBe(accountsBefore);
  });

  it('delivers to exactly the account’s address: one RCPT TO, the same To header', async () => {
    const email = "o'brien+tag@example.com";
    expect((await t.call('/api/accounts/register', { email, password: PASSWORD })).statusCode).toBe(201);
    const mail = received.at(-1);
    expect(mail?.to).toEqual([email]);
    expect(mail?.raw).toMatch(/^To: o'brien\+tag@example\.com\r?$/m);
  });

  it('sends nothing to an address an older rule let in: the mail is refused, sign-in fails validation', async () => {
    // A list address, as the former rule accepted at sign-up.
    const legacy = 'ann@example.com,attacker.example';
    const now = new Date();
    await t.database.db.insert(users).values({ email: legacy, createdAt: now, updatedAt: now, emailVerifiedAt: now });
    const before = received.length;
    const session = await freshSession(t, legacy);
    const deletion = await t.call('/api/accounts/DeleteAccount', {}, session);
    expect(deletion.statusCode).toBeLessThan(500);
    expect(received.slice(before)).toEqual([]);

    const signIn = await t.call('/api/accounts/LoginByEmail', { email: legacy, password: PASSWORD });
    expect([signIn.statusCode, faultOf(signIn)]).toEqual([400, 'RequestInvalid']);
    expect(signIn.json().Fault.ExceptionUserText).toBe('Email address is not in a correct format.');
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
