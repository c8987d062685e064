import { randomBytes } from 'node:crypto';
import { createReadStream, createWriteStream } from 'node:fs';
import { mkdir, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { DownloadTokens } from './download-tokens';
import {
  assertObjectKey,
  type DownloadUrlOptions,
  ObjectMissing,
  type ObjectStorage,
  type PutOptions,
  type StoredObject,
} from './types';

/** The service URL that streams a folder-stored object to the customer a token names (features/releases). */
export const DOWNLOAD_FILE_PATH = '/api/downloads/file';

/**
 * Objects as files under one folder (the embedded default: DATA_DIR/objects), readable by the
 * service's user only. A write goes to a temporary file renamed into place once complete, so a
 * reader never sees half an object. For one instance: replicas need S3 (ADR 0046).
 */
export class LocalFolderStorage implements ObjectStorage {
  readonly kind = 'local' as const;

  constructor(
    private readonly root: string,
    private readonly tokens: DownloadTokens,
    /** The service's base URL (PUBLIC_URL): links are absolute, for apps as well as the browser. */
    private readonly publicUrl: string,
  ) {}

  private fileOf(key: string): string {
    assertObjectKey(key);
    const file = path.resolve(this.root, ...key.split('/'));
    // The key rule already keeps it inside; this is the belt to its braces.
    if (!file.startsWith(path.resolve(this.root) + path.sep)) throw new Error(`Object key ${key} leaves the folder`);
    return file;
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    const file = this.fileOf(key);
    await mkdir(path.dirname(file), { recursive: true, mode: 0o700 });
    const partial = `${file}.${randomBytes(6).toString('hex')}.part`;
    let written = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        written += chunk.length;
        done(null, chunk);
      },
    });
    try {
      await pipeline(
        Buffer.isBuffer(body) ? Readable.from([body]) : body,
        counter,
        createWriteStream(partial, { mode: 0o600 }),
      );
      if (written !== options.contentLength) {
        throw new Error(`Object ${key}: ${written} bytes written, ${options.contentLength} announced`);
      }
      await rename(partial, file);
    } catch (error) {
      await rm(partial, { force: true });
      throw error;
    }
  }

  async get(key: string): Promise<StoredObject> {
    const file = this.fileOf(key);
    try {
      const { size } = await stat(file);
      return { body: createReadStream(file), contentLength: size };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ObjectMissing(key);
      throw error;
    }
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    assertObjectKey(key);
    const token = this.tokens.sign({ ...options.grant, expiresAt: options.expiresAt });
    return `${this.publicUrl}${DOWNLOAD_FILE_PATH}?token=${encodeURIComponent(token)}`;
  }

  async delete(key: string): Promise<void> {
    await rm(this.fileOf(key), { force: true });
  }
}
