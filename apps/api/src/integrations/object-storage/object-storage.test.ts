import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FakeClock } from '../../../test/fake-clock';
import { startS3StandIn } from '../../../test/s3-stand-in';
import {
  DOWNLOAD_FILE_PATH,
  DownloadTokens,
  LocalFolderStorage,
  ObjectMissing,
  type ObjectStorage,
  objectKeyProblem,
  S3Storage,
} from '.';

/**
 * The storage of the installers (ADR 0046), one suite for both implementations: the folder under
 * DATA_DIR and S3 through the AWS SDK v3, here against s3rver, an S3-compatible server started in
 * this process on a free port with a temporary directory. ASVS 5.0 V5 (file handling): keys never
 * leave the storage's root (5.3.2), objects are whole or absent; V8/V10 (access): a download link
 * is signed, names its customer and file, and expires.
 */
const BUCKET = 'soundid-releases';
const SECRET = 'test-session-secret-0123456789abcdef0123456789';
// Near the real time: s3rver checks a presigned link's age against its own clock.
const clock = new FakeClock(new Date().toISOString());
const tokens = new DownloadTokens(SECRET);

let s3rver: Awaited<ReturnType<typeof startS3StandIn>>;
let s3: S3Storage;
let folder: string;

beforeAll(async () => {
  s3rver = await startS3StandIn(BUCKET);
  s3 = new S3Storage({
    bucket: BUCKET,
    region: 'us-east-1',
    endpoint: s3rver.endpoint,
    forcePathStyle: true,
    credentials: s3rver.credentials,
    clock,
  });
  folder = path.join(mkdtempSync(path.join(tmpdir(), 'soundid-objects-')), 'objects');
});
afterAll(async () => {
  s3?.close();
  await s3rver?.close();
});

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
async function readAll(body: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of body) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}
const grant = { customerId: '0e7f9a52-5a3e-4a5e-9d55-1b9d7d0c2f10', fileId: '9b2b8c3c-1d4e-4f55-8a66-7b8c9d0e1f20' };

describe.each([
  ['the local folder', () => new LocalFolderStorage(folder, tokens, 'http://localhost:3000') as ObjectStorage],
  ['S3 (s3rver)', () => s3 as ObjectStorage],
])('object storage: %s', (_name, storage) => {
  it('stores a buffer and a stream, and gives back the same bytes with their length', async () => {
    const small = Buffer.from('xar!installer');
    await storage().put('releases/test/small.pkg', small, {
      contentLength: small.length,
      contentType: 'application/octet-stream',
    });
    const got = await storage().get('releases/test/small.pkg');
    expect(got.contentLength).toBe(small.length);
    expect(await readAll(got.body)).toEqual(small);

    // 5 MiB in 64 KiB chunks: streamed, never one buffer on the way in.
    const chunks = Array.from({ length: 80 }, () => randomBytes(64 * 1024));
    const whole = Buffer.concat(chunks);
    await storage().put('releases/test/large.dmg', Readable.from(chunks), {
      contentLength: whole.length,
      contentType: 'application/x-apple-diskimage',
    });
    const large = await storage().get('releases/test/large.dmg');
    expect(large.contentLength).toBe(whole.length);
    expect(sha256(await readAll(large.body))).toBe(sha256(whole));
  });

  it('replaces an object put again under its key, and deletes it (twice is no error)', async () => {
    const key = 'releases/test/replaced.zip';
    await storage().put(key, Buffer.from('first'), { contentLength: 5, contentType: 'application/zip' });
    await storage().put(key, Buffer.from('second'), { contentLength: 6, contentType: 'application/zip' });
    expect((await readAll((await storage().get(key)).body)).toString()).toBe('second');
    await storage().delete(key);
    await expect(storage().get(key)).rejects.toBeInstanceOf(ObjectMissing);
    await storage().delete(key);
  });

  it('answers ObjectMissing for a key never stored', async () => {
    await expect(storage().get('releases/test/never.exe')).rejects.toBeInstanceOf(ObjectMissing);
  });

  it('refuses keys that could leave the storage root (ASVS 5.3.2)', async () => {
    for (const key of ['../escape.exe', '/absolute.exe', 'a/../../b.exe', 'a\\b.exe', 'a//b.exe', '.hidden', '']) {
      await expect(
        storage().put(key, Buffer.from('x'), { contentLength: 1, contentType: 'application/octet-stream' }),
        key,
      ).rejects.toThrow(/Object key/);
      await expect(storage().get(key), key).rejects.toThrow(/Object key/);
    }
  });

  it('makes a download link that names the file and expires', async () => {
    const key = 'releases/test/linked.msi';
    const bytes = Buffer.from('installer bytes');
    await storage().put(key, bytes, { contentLength: bytes.length, contentType: 'application/x-msi' });
    const expiresAt = new Date(clock.now().getTime() + 5 * 60_000);
    const url = await storage().downloadUrl(key, {
      fileName: 'SoundID Setup 5.2.0.msi',
      contentType: 'application/x-msi',
      expiresAt,
      grant,
    });
    if (storage().kind === 'local') {
      // The service's own URL: a token signed for this customer and file, checked by features/releases.
      const link = new URL(url);
      expect(`${link.origin}${link.pathname}`).toBe(`http://localhost:3000${DOWNLOAD_FILE_PATH}`);
      const check = tokens.verify(link.searchParams.get('token') as string, clock.now());
      expect(check).toEqual({ ok: true, grant: { ...grant, expiresAt } });
      expect(tokens.verify(link.searchParams.get('token') as string, expiresAt)).toEqual({
        ok: false,
        reason: 'expired',
      });
    } else {
      // A presigned GetObject: the bytes, as an attachment under the file's name.
      const answer = await fetch(url);
      expect(answer.status).toBe(200);
      expect(answer.headers.get('content-disposition')).toBe(
        `attachment; filename="SoundID Setup 5.2.0.msi"; filename*=UTF-8''SoundID%20Setup%205.2.0.msi`,
      );
      expect(Buffer.from(await answer.arrayBuffer())).toEqual(bytes);
    }
  });
});

describe('S3 links past their time', () => {
  it('are refused by the S3 endpoint (a link signed 6 minutes ago for 5)', async () => {
    const key = 'releases/test/old-link.zip';
    await s3.put(key, Buffer.from('PK\x03\x04zip'), { contentLength: 7, contentType: 'application/zip' });
    const past = new FakeClock(new Date(Date.now() - 6 * 60_000).toISOString());
    const old = new S3Storage({
      bucket: BUCKET,
      region: 'us-east-1',
      endpoint: (await s3Endpoint()) as string,
      forcePathStyle: true,
      credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
      clock: past,
    });
    const url = await old.downloadUrl(key, {
      fileName: 'old.zip',
      contentType: 'application/zip',
      expiresAt: new Date(past.now().getTime() + 5 * 60_000),
      grant,
    });
    old.close();
    const answer = await fetch(url);
    expect(answer.status).toBe(403);
    expect(await answer.text()).toMatch(/expired/i);
  });
});

async function s3Endpoint(): Promise<string | undefined> {
  const url = await s3.downloadUrl('releases/test/x', {
    fileName: 'x',
    contentType: 'application/octet-stream',
    expiresAt: new Date(clock.now().getTime() + 60_000),
    grant,
  });
  return new URL(url).origin;
}

describe('the folder keeps objects whole and private', () => {
  it('leaves no partial file when a stream fails or falls short, and writes owner-only files', async () => {
    const storage = new LocalFolderStorage(folder, tokens, 'http://localhost:3000');
    await storage.put('releases/test/owner-only.pkg', Buffer.alloc(16), {
      contentLength: 16,
      contentType: 'application/octet-stream',
    });
    const failing = new Readable({
      read() {
        this.push(Buffer.alloc(1024));
        this.destroy(new Error('connection lost'));
      },
    });
    await expect(
      storage.put('releases/test/broken.dmg', failing, {
        contentLength: 4096,
        contentType: 'application/octet-stream',
      }),
    ).rejects.toThrow(/connection lost/);
    await expect(
      storage.put('releases/test/short.dmg', Buffer.alloc(10), {
        contentLength: 4096,
        contentType: 'application/octet-stream',
      }),
    ).rejects.toThrow(/10 bytes written, 4096 announced/);
    const dir = path.join(folder, 'releases', 'test');
    expect(readdirSync(dir).filter((f) => f.endsWith('.part'))).toEqual([]);
    expect(existsSync(path.join(dir, 'broken.dmg'))).toBe(false);
    expect(statSync(path.join(dir, 'owner-only.pkg')).mode & 0o777).toBe(0o600);
  });
});

describe('download tokens (folder links)', () => {
  it('refuses a changed byte, another secret, a malformed token and a past expiry', () => {
    const now = new Date('2026-01-15T10:00:00Z');
    const token = tokens.sign({ ...grant, expiresAt: new Date(now.getTime() + 300_000) });
    expect(tokens.verify(token, now).ok).toBe(true);
    const [payload, mac] = token.split('.') as [string, string];
    const forged = Buffer.from(
      JSON.stringify({ v: 1, sub: 'someone-else', fid: grant.fileId, exp: now.getTime() + 300_000 }),
    ).toString('base64url');
    expect(tokens.verify(`${forged}.${mac}`, now)).toEqual({ ok: false, reason: 'signature' });
    expect(tokens.verify(`${payload}.${mac.slice(0, -1)}A`, now)).toEqual({ ok: false, reason: 'signature' });
    expect(new DownloadTokens('another-secret-0123456789abcdef0123456789').verify(token, now)).toEqual({
      ok: false,
      reason: 'signature',
    });
    for (const malformed of ['', 'abc', 'a.b.c', `${payload}.`, 'x'.repeat(2000)]) {
      expect(tokens.verify(malformed, now).ok, malformed).toBe(false);
    }
    expect(tokens.verify(token, new Date(now.getTime() + 300_000))).toEqual({ ok: false, reason: 'expired' });
  });

  it('keys that are safe on every backend', () => {
    expect(objectKeyProblem('releases/sid-reference/macos/5.2.0/ab12/SoundID-5.2.0+b7.dmg')).toBeUndefined();
    expect(objectKeyProblem('releases/../x')).toBeDefined();
    expect(objectKeyProblem('x'.repeat(513))).toBeDefined();
  });
});
