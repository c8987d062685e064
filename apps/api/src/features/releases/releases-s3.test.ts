import { readdirSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { startS3StandIn } from '../../../test/s3-stand-in';
import { installerLikeBytes } from './installer-kinds';
import { publish, sha256Of, uploadRelease } from './test-helpers';

/**
 * The same release flow on S3 (ADR 0046): the service configured with S3_* against s3rver, an
 * S3-compatible server started here on a free port with a temporary directory. The installer goes
 * to the bucket, the link is a presigned GetObject URL of the endpoint; a refused upload leaves the
 * bucket as it was (ASVS 5.0 5.2.1, 5.2.2).
 */
const BUCKET = 'soundid-releases';
let s3rver: Awaited<ReturnType<typeof startS3StandIn>>;
let bucketDir: string;
let endpoint: string;
let t: TestApp;

beforeAll(async () => {
  s3rver = await startS3StandIn(BUCKET);
  ({ bucketDir, endpoint } = s3rver);
  t = await createTestApp({
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: endpoint,
    S3_REGION: 'us-east-1',
    S3_FORCE_PATH_STYLE: 'true',
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    RELEASE_MAX_BYTES: String(32 * 1024),
  });
  // s3rver checks a presigned link's age against the real time.
  t.clock.advanceMinutes((Date.now() - t.clock.now().getTime()) / 60_000);
});
afterAll(async () => {
  await t?.close();
  await s3rver?.close();
});

const objectsInBucket = () => {
  try {
    return readdirSync(bucketDir, { recursive: true }).filter((name) => String(name).endsWith('._S3rver_object'));
  } catch {
    return [];
  }
};

describe('releases on S3-compatible storage', () => {
  it('refuses an oversize or mislabelled upload and adds nothing to the bucket', async () => {
    const before = objectsInBucket();
    const form = { product: 'voice-ai', platform: 'macos', version: '3.1.0', notes: 'New voices.' };
    const large = await uploadRelease(t, {
      ...form,
      file: { name: 'VoiceAI.pkg', bytes: installerLikeBytes('x.pkg', Buffer.alloc(40 * 1024)) },
    });
    expect([large.statusCode, faultOf(large)]).toEqual([413, 'ReleaseFileTooLarge']);
    const mislabelled = await uploadRelease(t, { ...form, file: { name: 'VoiceAI.pkg', bytes: Buffer.alloc(100) } });
    expect([mislabelled.statusCode, faultOf(mislabelled)]).toEqual([415, 'ReleaseFileContentInvalid']);
    expect(objectsInBucket()).toEqual(before);
  });

  it('stores the installer in the bucket and links it with a presigned URL whose bytes match the checksum', async () => {
    const before = objectsInBucket().length;
    const { fileId, sha256 } = await publish(t, 'voice-ai', 'macos', '3.2.0');
    expect(objectsInBucket()).toHaveLength(before + 1);
    const token = await signUpVerified(t, 'releases.s3@example.com');
    const res = await t.call('/api/downloads/GetDownloadLink', { releaseFileId: fileId }, token);
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json().Result;
    expect(link.Url.startsWith(`${endpoint}/${BUCKET}/releases/voice-ai/macos/3.2.0/`)).toBe(true);
    expect(new URL(link.Url).searchParams.get('X-Amz-Expires')).toBe('300');
    const answer = await fetch(link.Url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-disposition')).toMatch(/^attachment; filename="voice-ai-3\.2\.0\.dmg"/);
    expect(sha256Of(Buffer.from(await answer.arrayBuffer()))).toBe(sha256);
    expect(link.Sha256).toBe(sha256);
  });
});
