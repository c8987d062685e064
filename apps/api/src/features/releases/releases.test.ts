import { readdirSync } from 'node:fs';
import path from 'node:path';
import { DOWNLOAD_LINK_SECONDS, SESSION_COOKIE_PLAIN } from '@soundid/contracts';
import { count } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { releaseFiles, releases } from '../../db/releases-schema';
import { adminCall, licenceList, ownKey } from '../licences/test-helpers';
import { installerLikeBytes } from './installer-kinds';
import { publish, sha256Of, uploadRelease } from './test-helpers';

/**
 * Releases and the download center through the API (ADR 0046), on PGlite and PostgreSQL: operator
 * uploads refused before anything is stored (ASVS 5.0 V5: 5.2.1 size, 5.2.2 extension and content,
 * 5.3.2 names not paths), the SHA-256 computed on upload, "latest" by semver, and links only for
 * an entitled customer, only that customer's, only for five minutes (V8 8.2.1, 8.2.2; V9 9.1.1,
 * 9.2.1 for the signed link token).
 */
const MAX_BYTES = 64 * 1024;
let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ RELEASE_MAX_BYTES: String(MAX_BYTES) });
});
afterAll(() => t.close());

const objectsDir = () => {
  const storage = t.services.config.objectStorage;
  if (storage.kind !== 'local') throw new Error('these tests use the folder storage');
  return storage.dir;
};
/** Every file under a folder (none when it does not exist). */
function filesUnder(dir: string): string[] {
  try {
    return readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => path.join(entry.parentPath, entry.name))
      .sort();
  } catch {
    return [];
  }
}
async function rowCounts() {
  const [r] = await t.database.db.select({ n: count() }).from(releases);
  const [f] = await t.database.db.select({ n: count() }).from(releaseFiles);
  return { releases: r?.n, files: f?.n };
}
const downloadCenter = async (token: string) => {
  const res = await t.call('/api/downloads/GetDownloadCenter', {}, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Result as {
    Products: {
      Code: string;
      Platforms: {
        Platform: string;
        Latest: { Version: string; Sha256: string; ReleaseFileId: string };
        Older: { Version: string }[];
      }[];
    }[];
  };
};
const linkFor = (token: string, releaseFileId: string) =>
  t.call('/api/downloads/GetDownloadLink', { releaseFileId }, token);
const follow = (url: string, headers: Record<string, string>) =>
  t.app.inject({ method: 'GET', url: new URL(url).pathname + new URL(url).search, headers });

describe('uploads refused before anything is stored (ASVS 5.2.1, 5.2.2)', () => {
  const good = { product: 'ref4-studio', platform: 'windows', version: '4.4.9', notes: 'Last Reference 4 build.' };
  const exe = (bytes = Buffer.alloc(100, 1)) => ({
    name: 'Reference4-4.4.9.exe',
    bytes: installerLikeBytes('x.exe', bytes),
  });

  it.each([
    ['over RELEASE_MAX_BYTES', { ...good, file: exe(Buffer.alloc(MAX_BYTES)) }, 413, 'ReleaseFileTooLarge'],
    [
      'a .dmg for Windows',
      { ...good, file: { name: 'R4.dmg', bytes: installerLikeBytes('x.dmg', Buffer.alloc(9)) } },
      415,
      'ReleaseFileTypeNotAllowed',
    ],
    ['no extension', { ...good, file: { name: 'installer', bytes: exe().bytes } }, 415, 'ReleaseFileTypeNotAllowed'],
    [
      'a script named .exe',
      { ...good, file: { name: 'R4.exe', bytes: Buffer.from('#!/bin/sh\nrm -rf /\n') } },
      415,
      'ReleaseFileContentInvalid',
    ],
    [
      'MZ without a PE header',
      { ...good, file: { name: 'R4.exe', bytes: Buffer.concat([Buffer.from('MZ'), Buffer.alloc(200)]) } },
      415,
      'ReleaseFileContentInvalid',
    ],
    [
      'a zip named .msi',
      { ...good, file: { name: 'R4.msi', bytes: installerLikeBytes('x.zip', Buffer.alloc(50)) } },
      415,
      'ReleaseFileContentInvalid',
    ],
    ['an empty file', { ...good, file: { name: 'R4.zip', bytes: Buffer.alloc(0) } }, 415, 'ReleaseFileContentInvalid'],
    [
      'a .dmg without its trailer',
      // A version no other test publishes for macOS: the refusal must be the content's.
      { ...good, platform: 'macos', version: '4.4.8', file: { name: 'R4.dmg', bytes: Buffer.alloc(4096, 7) } },
      415,
      'ReleaseFileContentInvalid',
    ],
    ['an unknown product', { ...good, product: 'no-such-product', file: exe() }, 404, 'ProductNotFound'],
    ['a version that is not semver', { ...good, version: '4.4', file: exe() }, 400, 'RequestInvalid'],
    ['a platform of none', { ...good, platform: 'linux', file: exe() }, 400, 'RequestInvalid'],
    ['no notes', { ...good, notes: undefined, file: exe() }, 400, 'RequestInvalid'],
    ['no file', { ...good }, 400, 'ReleaseFileMissing'],
  ])('%s: refused with its Fault, nothing kept', async (_case, form, status, fault) => {
    // What the file's other tests stored stays; this refusal adds nothing to it.
    const before = { rows: await rowCounts(), objects: filesUnder(objectsDir()) };
    const res = await uploadRelease(t, form);
    expect(res.statusCode, res.body).toBe(status);
    expect(faultOf(res)).toBe(fault);
    expect(await rowCounts()).toEqual(before.rows);
    expect(filesUnder(objectsDir())).toEqual(before.objects);
    expect(filesUnder(path.join(t.services.config.dataDir, 'uploads'))).toEqual([]);
  });

  it('refuses an announced size over the limit before reading the body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/admin/releases',
      payload: 'x',
      headers: {
        authorization: `Bearer ${await t.operatorToken(['admin'])}`,
        'content-type': 'multipart/form-data; boundary=x',
        'content-length': String(MAX_BYTES + 1024 * 1024),
      },
    });
    expect(res.statusCode).toBe(413);
    expect(faultOf(res)).toBe('ReleaseFileTooLarge');
    expect(res.json().Fault.ExceptionVariables).toEqual([{ Key: 'MaxBytes', Value: String(MAX_BYTES) }]);
  });

  it('answers a JSON body or a customer, not an operator, with a Fault', async () => {
    const before = await rowCounts();
    const json = await adminCall(t, '/api/admin/releases', { product: 'ref4-studio' });
    expect([json.statusCode, faultOf(json)]).toEqual([400, 'ReleaseFileMissing']);
    const token = await signUpVerified(t, 'releases.not-operator@example.com');
    const customer = await uploadRelease(t, { ...good, file: exe() }, { authtoken: token });
    expect([customer.statusCode, faultOf(customer)]).toEqual([401, 'AdminTokenInvalid']);
    expect(await rowCounts()).toEqual(before);
  });
});

describe('publishing', () => {
  it('stores the installer with its SHA-256, computed as it streamed in, and refuses the same version again', async () => {
    const { res, bytes, sha256 } = await publish(t, 'sid-reference-hp', 'macos', '5.0.0');
    expect(res.json().Result).toMatchObject({
      Product: 'sid-reference-hp',
      Platform: 'macos',
      Version: '5.0.0',
      FileName: 'sid-reference-hp-5.0.0.dmg',
      SizeBytes: bytes.length,
      Sha256: sha256,
      IsLatest: true,
    });
    expect(sha256).toMatch(/^[0-9a-f]{64}$/);
    const [stored] = filesUnder(objectsDir()).filter((f) => f.endsWith('sid-reference-hp-5.0.0.dmg'));
    expect(stored).toContain(path.join('releases', 'sid-reference-hp', 'macos', '5.0.0'));

    const again = await uploadRelease(t, {
      product: 'sid-reference-hp',
      platform: 'macos',
      version: '5.0.0',
      notes: 'Again.',
      file: { name: 'other.dmg', bytes },
    });
    expect([again.statusCode, faultOf(again)]).toEqual([409, 'ReleaseAlreadyExists']);
  });

  it('keeps only the last part of a sent file name, in safe characters (ASVS 5.3.2, 5.4.2)', async () => {
    const bytes = installerLikeBytes('x.zip', Buffer.alloc(20));
    const res = await uploadRelease(t, {
      product: 'sid-reference-hp',
      platform: 'windows',
      version: '5.0.0',
      notes: 'Windows build.',
      file: { name: '..\\..\\evil dir/Setup (5).zip', bytes },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Result.FileName).toBe('Setup--5-.zip');
  });

  it('lists and removes releases for operators (the file goes too)', async () => {
    const { fileId } = await publish(t, 'sid-reference-bundle', 'windows', '1.0.0');
    const listed = await adminCall(t, '/api/admin/releases?product=sid-reference-bundle');
    expect(listed.json().Result.map((r: { ReleaseFileId: string }) => r.ReleaseFileId)).toEqual([fileId]);
    const before = filesUnder(objectsDir()).length;
    const removed = await adminCall(t, '/api/admin/remove-release', { releaseFileId: fileId });
    expect(removed.json()).toEqual({ Success: true, Result: { Removed: true } });
    expect(filesUnder(objectsDir()).length).toBe(before - 1);
    const again = await adminCall(t, '/api/admin/remove-release', { releaseFileId: fileId });
    expect([again.statusCode, faultOf(again)]).toEqual([404, 'ReleaseNotFound']);
  });
});

describe('the download center', () => {
  it('"latest" is the highest version by semver, not the newest upload', async () => {
    for (const version of ['2.9.0', '2.10.0', '2.10.1-beta.1', '2.10.0-rc.2', '2.4.7']) {
      await publish(t, 'voice-ai', 'windows', version);
    }
    const token = await signUpVerified(t, 'releases.latest@example.com');
    const voice = (await downloadCenter(token)).Products.find((p) => p.Code === 'voice-ai');
    const windows = voice?.Platforms.find((p) => p.Platform === 'windows');
    expect(windows?.Latest.Version).toBe('2.10.1-beta.1');
    expect(windows?.Older.map((r) => r.Version)).toEqual(['2.10.0', '2.10.0-rc.2', '2.9.0', '2.4.7']);
    // Other tests publish VoiceAI for macOS: the Windows releases are this test's.
    const listed = (await adminCall(t, '/api/admin/releases?product=voice-ai')).json().Result as {
      Platform: string;
      IsLatest: boolean;
      Version: string;
    }[];
    const windowsLatest = listed.filter((r) => r.Platform === 'windows' && r.IsLatest).map((r) => r.Version);
    expect(windowsLatest).toEqual(['2.10.1-beta.1']);
  });

  it('shows only products the customer holds or can try, and links only those (ASVS 8.2.1)', async () => {
    const ref4 = await publish(t, 'ref4-studio', 'macos', '4.4.9');
    const reference = await publish(t, 'sid-reference', 'macos', '5.3.0');
    // The centre lists products that have a release: these two whatever ran before.
    await publish(t, 'voice-ai', 'macos', '0.9.0');
    await publish(t, 'sid-reference-hp', 'macos', '4.0.0');
    const token = await signUpVerified(t, 'releases.entitled@example.com');
    // A new customer may try SoundID Reference and SoundID VoiceAI, and holds no Reference 4.
    expect((await downloadCenter(token)).Products.map((p) => p.Code)).toEqual(['sid-reference', 'voice-ai']);
    const refused = await linkFor(token, ref4.fileId);
    expect([refused.statusCode, faultOf(refused)]).toEqual([403, 'NoLicenseForProduct']);
    expect((await linkFor(token, reference.fileId)).statusCode).toBe(200);

    await ownKey(t, token, 'ref4-studio');
    expect((await downloadCenter(token)).Products.map((p) => p.Code)).toEqual([
      'sid-reference',
      'ref4-studio',
      'voice-ai',
    ]);
    expect((await linkFor(token, ref4.fileId)).statusCode).toBe(200);

    // Who holds SoundID Reference for Headphones is offered no trial of SoundID Reference.
    const headphones = await signUpVerified(t, 'releases.headphones@example.com');
    await ownKey(t, headphones, 'sid-reference-hp');
    const codes = (await downloadCenter(headphones)).Products.map((p) => p.Code);
    expect(codes).toEqual(['sid-reference-hp', 'voice-ai']);
    expect(faultOf(await linkFor(headphones, reference.fileId))).toBe('NoLicenseForProduct');
    const unknown = await linkFor(headphones, '00000000-0000-4000-8000-000000000000');
    expect([unknown.statusCode, faultOf(unknown)]).toEqual([404, 'ReleaseNotFound']);
  });

  it("the licence list's Download buttons lead to the product's section", async () => {
    const token = await signUpVerified(t, 'releases.buttons@example.com');
    const before = await licenceList(t, token);
    const url = (buttons: { Functionality: string; ExternalRequest: { Url: string } }[]) =>
      buttons.find((b) => b.Functionality === 'Download')?.ExternalRequest.Url;
    expect(url(before.ReferenceProducts.ActionButtons)).toBe('/download-center#sid-reference');
    expect(url(before.VoiceAIProducts.LicenseStatus.ActionButtons)).toBe('/download-center#voice-ai');
    await ownKey(t, token, 'ref4-hp');
    expect(url((await licenceList(t, token)).ReferenceProducts.ActionButtons)).toBe('/download-center#ref4-hp');
  });
});

describe('download links (folder storage)', () => {
  it('downloads the installer as an attachment with its length; its SHA-256 is the one shown', async () => {
    const { sha256, fileId } = await publish(t, 'sid-reference', 'windows', '5.3.0');
    const token = await signUpVerified(t, 'releases.download@example.com');
    const res = await linkFor(token, fileId);
    expect(res.statusCode, res.body).toBe(200);
    const link = res.json().Result;
    expect(link).toMatchObject({ FileName: 'sid-reference-5.3.0.exe', Sha256: sha256 });
    expect(link.ExpiresAt).toBe(t.clock.now().getTime() + DOWNLOAD_LINK_SECONDS * 1000);
    expect(link.Url).toMatch(/^http:\/\/localhost:3000\/api\/downloads\/file\?token=/);

    const file = await follow(link.Url, { authtoken: token });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-disposition']).toBe(
      `attachment; filename="sid-reference-5.3.0.exe"; filename*=UTF-8''sid-reference-5.3.0.exe`,
    );
    expect(Number(file.headers['content-length'])).toBe(link.SizeBytes);
    expect(file.headers['cache-control']).toBe('private, no-store');
    expect(sha256Of(file.rawPayload)).toBe(sha256);
    // A browser follows it with its session cookie and no Software header.
    const byCookie = await follow(link.Url, { cookie: `${SESSION_COOKIE_PLAIN}=${token}` });
    expect(byCookie.statusCode).toBe(200);
    expect(sha256Of(byCookie.rawPayload)).toBe(sha256);
  });

  it("refuses a link past its 5 minutes, another customer's link, a changed one, and no session (ASVS 9.2.1, 8.2.2)", async () => {
    const { fileId } = await publish(t, 'voice-ai', 'macos', '3.0.0');
    const alice = await signUpVerified(t, 'releases.alice@example.com');
    const bob = await signUpVerified(t, 'releases.bob@example.com');
    const url = (await linkFor(alice, fileId)).json().Result.Url as string;

    const other = await follow(url, { authtoken: bob });
    expect([other.statusCode, faultOf(other)]).toEqual([403, 'DownloadLinkInvalid']);
    const changed = await follow(
      url.replace(/token=(.)/, (_m, c: string) => `token=${c === 'A' ? 'B' : 'A'}`),
      {
        authtoken: alice,
      },
    );
    expect([changed.statusCode, faultOf(changed)]).toEqual([403, 'DownloadLinkInvalid']);
    const anonymous = await follow(url, {});
    expect([anonymous.statusCode, faultOf(anonymous)]).toEqual([401, 'SecurityAuthTokenNotPassed']);
    expect((await follow(url, { authtoken: alice })).statusCode).toBe(200);

    t.clock.advanceMinutes(DOWNLOAD_LINK_SECONDS / 60 + 1);
    const expired = await follow(url, { authtoken: alice });
    expect([expired.statusCode, faultOf(expired)]).toEqual([410, 'DownloadLinkExpired']);
    // A new link works again.
    const fresh = (await linkFor(alice, fileId)).json().Result.Url as string;
    expect((await follow(fresh, { authtoken: alice })).statusCode).toBe(200);
  });

  it('refuses the link of a release withdrawn since', async () => {
    const { fileId } = await publish(t, 'voice-ai', 'macos', '3.0.1');
    const token = await signUpVerified(t, 'releases.withdrawn@example.com');
    const url = (await linkFor(token, fileId)).json().Result.Url as string;
    await adminCall(t, '/api/admin/remove-release', { releaseFileId: fileId });
    const res = await follow(url, { authtoken: token });
    expect([res.statusCode, faultOf(res)]).toEqual([404, 'ReleaseNotFound']);
  });
});
