import type { Readable } from 'node:stream';

/**
 * Where installers are kept (ADR 0046): S3 or any S3-compatible service, or a folder under
 * DATA_DIR. Keys are `/`-separated paths of safe characters (objectKeyProblem); both
 * implementations pass the same suite (object-storage.test.ts).
 */
export interface ObjectStorage {
  readonly kind: 'local' | 's3';
  /** Stores the bytes under the key, replacing any object there; a stream needs its exact length. */
  put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void>;
  /** The object's bytes; ObjectMissing when there is none. */
  get(key: string): Promise<StoredObject>;
  /**
   * A link that downloads the object as an attachment until `expiresAt`, for one customer: on S3
   * a presigned GetObject URL, on the folder a service URL with a signed token (download-tokens.ts)
   * that the service checks against the signed-in customer.
   */
  downloadUrl(key: string, options: DownloadUrlOptions): Promise<string>;
  /** Removes the object; removing one that is not there is no error. */
  delete(key: string): Promise<void>;
}

export interface PutOptions {
  contentLength: number;
  contentType: string;
}

export interface StoredObject {
  body: Readable;
  contentLength: number;
}

export interface DownloadUrlOptions {
  /** The name the browser saves the file under. */
  fileName: string;
  contentType: string;
  expiresAt: Date;
  /** Whom the link is for and what it names, for links the service itself checks. */
  grant: { customerId: string; fileId: string };
}

/** The key names no object (never stored, or removed). */
export class ObjectMissing extends Error {
  constructor(readonly key: string) {
    super(`No object at ${key}`);
    this.name = 'ObjectMissing';
  }
}

/** The storage could not be reached or refused the request (not a missing object). */
export class ObjectStorageFailure extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ObjectStorageFailure';
  }
}

const KEY_SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/**
 * Why a key is unsafe, or undefined: segments of letters, digits, `._+-` that start with a letter
 * or digit, at most 512 characters. So no `..`, no absolute path, no backslash on any backend.
 */
export function objectKeyProblem(key: string): string | undefined {
  if (key.length === 0 || key.length > 512) return 'must be 1 to 512 characters';
  if (!key.split('/').every((segment) => KEY_SEGMENT.test(segment))) {
    return 'must be /-separated segments of letters, digits and ._+- starting with a letter or digit';
  }
  return undefined;
}

export function assertObjectKey(key: string): void {
  const problem = objectKeyProblem(key);
  if (problem) throw new Error(`Object key ${JSON.stringify(key)} ${problem}`);
}

/** A Content-Disposition that saves the file under its name (RFC 6266, with the UTF-8 form for any name). */
export function attachmentDisposition(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]|["\\]/g, '_');
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
