import type { AddressInfo } from 'node:net';
import { emailSchema } from '@soundid/contracts';
import addressparser from 'nodemailer/lib/addressparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSmtpTransport, isSingleMailbox, parseSender } from './smtp-transport';

interface Received {
  from: string | undefined;
  to: string[];
  raw: string;
}

const received: Received[] = [];
let server: SMTPServer;
let port: number;

beforeAll(async () => {
  server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => chunks.push(chunk));
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : undefined,
          to: session.envelope.rcptTo.map((r) => r.address),
          raw: Buffer.concat(chunks).toString('utf8'),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.server.address() as AddressInfo).port;
});

afterAll(async () => {
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

it('delivers subject, text and html from the configured sender', async () => {
  const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`, '"My SoundID" <no-reply@soundid.test>');
  const before = received.length;
  try {
    await transport.send({
      to: 'ann@example.com',
      subject: 'Verify your email address',
      text: 'Plain body https://soundid.test/verify-email?token=abc',
      html: '<p>HTML body <a href="https://soundid.test/verify-email?token=abc">Verify</a></p>',
      links: ['https://soundid.test/verify-email?token=abc'],
    });
  } finally {
    transport.close();
  }
  expect(received).toHaveLength(before + 1);
  const mail = received[before];
  expect(mail?.from).toBe('no-reply@soundid.test');
  expect(mail?.to).toEqual(['ann@example.com']);
  const raw = decodeQuotedPrintable((mail?.raw ?? '').replace(/\r\n/g, '\n'));
  expect(raw).toMatch(/^Subject: Verify your email address$/m);
  expect(raw).toMatch(/^From: "?My SoundID"? <no-reply@soundid\.test>$/m);
  expect(raw).toMatch(/^To: ann@example\.com$/m);
  expect(raw).toContain('Content-Type: text/plain');
  expect(raw).toContain('Content-Type: text/html');
  expect(raw).toContain('Plain body https://soundid.test/verify-email?token=abc');
  expect(raw).toContain('<p>HTML body <a href="https://soundid.test/verify-email?token=abc">Verify</a></p>');
});

it("sends a mail's files as attachments (a receipt, ADR 0058), byte for byte", async () => {
  const pdf = Buffer.concat([Buffer.from('%PDF-1.3\n'), Buffer.from([0, 1, 2, 250, 255]), Buffer.alloc(3000, 7)]);
  const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`, 'no-reply@soundid.test');
  const before = received.length;
  try {
    await transport.send({
      to: 'receipt@example.com',
      subject: 'Your receipt',
      text: 'Attached.',
      html: '<p>Attached.</p>',
      links: [],
      attachments: [{ fileName: 'receipt-inv_abc.pdf', contentType: 'application/pdf', content: pdf }],
    });
  } finally {
    transport.close();
  }
  const raw = (received[before]?.raw ?? '').replace(/\r\n/g, '\n');
  expect(raw).toMatch(/^Content-Type: application\/pdf; name=receipt-inv_abc\.pdf$/m);
  expect(raw).toMatch(/^Content-Disposition: attachment; filename=receipt-inv_abc\.pdf$/m);
  const part = raw.split(/\n--/).find((section) => section.includes('Content-Type: application/pdf')) ?? '';
  const body = part.slice(part.indexOf('\n\n') + 2).replace(/\s+/g, '');
  expect(Buffer.from(body, 'base64').equals(pdf)).toBe(true);
});

/** Enough of RFC 2045 quoted-printable for the test: soft line breaks and =XX escapes. */
function decodeQuotedPrintable(text: string): string {
  return text
    .replace(/=\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
}

it('rejects when the server is unreachable', async () => {
  const transport = createSmtpTransport('smtp://127.0.0.1:1?connectionTimeout=2000', 'no-reply@soundid.test');
  try {
    await expect(
      transport.send({ to: 'ann@example.com', subject: 's', text: 't', html: '<p>h</p>', links: [] }),
    ).rejects.toThrow();
  } finally {
    transport.close();
  }
});

// One address is one mailbox (docs/decisions/0031-sign-up-and-mail-limits.md), ASVS 5.0 1.2.x
// (no injection into the mail's envelope or headers) and 1.3.x.
describe('one address, one mailbox', () => {
  /** A small deterministic generator (mulberry32), so that a failure can be replayed. */
  const random = (seed: number) => () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let x = Math.imul(seed ^ (seed >>> 15), seed | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  const alphabet = `abcXYZ019.+-_'"!#$%&*/=?^\`{|}~@,;:<>()[]\\ \t\r\nü`;

  it('every address the contract accepts is read back by nodemailer as exactly that one address', () => {
    const next = random(31);
    let accepted = 0;
    for (let i = 0; i < 20_000; i++) {
      const length = 3 + Math.floor(next() * 14);
      let local = '';
      for (let j = 0; j < length; j++) local += alphabet[Math.floor(next() * alphabet.length)];
      const candidate = next() < 0.5 ? `${local}@example.com` : `${local}.io`;
      // What the contract lets through (trimmed), as the service stores it (lower case) too.
      const parsed = emailSchema.safeParse(candidate);
      if (!parsed.success) continue;
      accepted += 1;
      for (const address of [parsed.data, parsed.data.toLowerCase()]) {
        expect(addressparser(address), JSON.stringify(candidate)).toEqual([{ address, name: '' }]);
        expect(isSingleMailbox(address), JSON.stringify(candidate)).toBe(true);
      }
    }
    expect(accepted).toBeGreaterThan(100);
  });

  it('refuses to hand nodemailer a recipient that is not one mailbox: nothing reaches the server', async () => {
    const transport = createSmtpTransport(`smtp://127.0.0.1:${port}`, 'no-reply@soundid.test');
    const before = received.length;
    try {
      for (const to of [
        'ann@example.com,attacker.example',
        'Ann <ann@example.com>',
        'ann@example.com\r\nBcc: eve@attacker.example',
        ' ann@example.com',
        '"ann"@example.com',
      ]) {
        await expect(transport.send({ to, subject: 's', text: 't', html: '<p>h</p>', links: [] }), to).rejects.toThrow(
          /not one mailbox/,
        );
      }
    } finally {
      transport.close();
    }
    expect(received.length).toBe(before);
  });

  it('reads MAIL_FROM once as exactly one sender', () => {
    expect(parseSender('"My SoundID" <no-reply@soundid.test>')).toEqual({
      name: 'My SoundID',
      address: 'no-reply@soundid.test',
    });
    expect(parseSender('no-reply@soundid.test')).toEqual({ name: '', address: 'no-reply@soundid.test' });
    for (const from of ['a@soundid.test, b@soundid.test', 'nobody', 'Team <a@soundid.test>, eve@attacker.example']) {
      expect(() => parseSender(from), from).toThrow(/MAIL_FROM must name exactly one sender/);
    }
  });
});
