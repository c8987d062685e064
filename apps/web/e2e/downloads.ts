import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { installerLikeBytes } from '../../api/src/features/releases/installer-kinds';

/** Helpers of the download center's specs (docs/decisions/0046-release-storage.md). */

/** The SHA-256 of some bytes, in hex as the download center shows it. */
export const sha256 = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

/**
 * An installer to publish, written to a scratch folder: the signature its extension calls for
 * (the service checks it), then 256 KiB of random bytes. Its path, bytes and SHA-256.
 */
export function installerFile(fileName: string): { path: string; bytes: Buffer; sha256: string } {
  const file = path.join(mkdtempSync(path.join(tmpdir(), 'soundid-e2e-release-')), fileName);
  const bytes = installerLikeBytes(fileName, randomBytes(256 * 1024));
  writeFileSync(file, bytes);
  return { path: file, bytes, sha256: sha256(bytes) };
}

/**
 * A release's Download button on /download-center pressed: the bytes the browser saved, which
 * it was offered as an attachment under the release's own name.
 */
export async function downloadRelease(page: Page, release: Locator, fileName: string): Promise<Buffer> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    release.getByRole('button', { name: `Download ${fileName}` }).click(),
  ]);
  expect(download.suggestedFilename()).toBe(fileName);
  return readFile(await download.path());
}
