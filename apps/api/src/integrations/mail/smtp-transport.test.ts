import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createSmtpTransport } from './smtp-transport';

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
  expect(received).toHaveLength(1);
  const [mail] = received;
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
