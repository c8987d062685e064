import { createHash } from 'node:crypto';
import type { LightMyRequestResponse } from 'fastify';
import type { TestApp } from '../../../test/kit/test-app';
import { installerLikeBytes } from './installer-kinds';

/** Helpers of the releases tests: an operator's multipart upload, as the CLI sends it. */

export interface UploadForm {
  product?: string;
  platform?: string;
  version?: string;
  notes?: string;
  /** The change's reason (ADR 0045): 'test upload' unless given; null leaves it out. */
  reason?: string | null;
  /** The installer; left out: no file part. */
  file?: { name: string; bytes: Buffer };
}

/** A multipart body as fetch would send it (fields first, then the file). */
export async function multipartBody(form: UploadForm): Promise<{ body: Buffer; contentType: string }> {
  const data = new FormData();
  for (const name of ['product', 'platform', 'version', 'notes'] as const) {
    const value = form[name];
    if (value !== undefined) data.append(name, value);
  }
  if (form.reason !== null) data.append('reason', form.reason ?? 'test upload');
  if (form.file) data.append('file', new Blob([new Uint8Array(form.file.bytes)]), form.file.name);
  const request = new Request('http://localhost/', { method: 'POST', body: data });
  return {
    body: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') as string,
  };
}

export async function uploadRelease(
  t: TestApp,
  form: UploadForm,
  headers?: Record<string, string>,
): Promise<LightMyRequestResponse> {
  const signedIn = headers ?? { authorization: `Bearer ${await t.operatorToken(['admin'])}` };
  const { body, contentType } = await multipartBody(form);
  return t.app.inject({
    method: 'POST',
    url: '/api/admin/releases',
    payload: body,
    headers: { 'content-type': contentType, ...signedIn },
  });
}

/** A release with a small installer-like file of the platform's first kind; its bytes and SHA-256. */
export async function publish(
  t: TestApp,
  product: string,
  platform: 'macos' | 'windows',
  version: string,
  notes = `What is new in ${version}.`,
): Promise<{ res: LightMyRequestResponse; bytes: Buffer; sha256: string; fileId: string }> {
  const name = `${product}-${version}.${platform === 'macos' ? 'dmg' : 'exe'}`;
  const bytes = installerLikeBytes(name, Buffer.from(`${product} ${platform} ${version} `.repeat(50)));
  const res = await uploadRelease(t, { product, platform, version, notes, file: { name, bytes } });
  if (res.statusCode !== 200) throw new Error(`upload failed: ${res.body}`);
  return { res, bytes, sha256: sha256Of(bytes), fileId: res.json().Result.ReleaseFileId };
}

export const sha256Of = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
