import type { Readable } from 'node:stream';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  NoSuchKey,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import type { Clock } from '../../lib/clock';
import {
  assertObjectKey,
  attachmentDisposition,
  type DownloadUrlOptions,
  ObjectMissing,
  type ObjectStorage,
  ObjectStorageFailure,
  type PutOptions,
  type StoredObject,
} from './types';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  /** Another S3-compatible service; unset: AWS. */
  endpoint?: string | undefined;
  forcePathStyle: boolean;
  /** Unset: the SDK's default chain (instance role, AWS_* variables). */
  credentials?: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Signs the links (their start time): the service's clock, so that tests can make old links. */
  clock: Clock;
}

/**
 * Objects in an S3 bucket through the AWS SDK v3, on AWS or any S3-compatible endpoint (MinIO,
 * R2, Ceph, s3rver in the tests). Checksums are sent and checked only where S3 requires them:
 * the SDK's newer default (aws-chunked uploads with trailing CRC32) is refused by several
 * S3-compatible services, and the service checks each upload's SHA-256 itself (ADR 0046).
 */
export class S3Storage implements ObjectStorage {
  readonly kind = 's3' as const;
  private readonly client: S3Client;
  private readonly bucket: string;
  private readonly clock: Clock;

  constructor(options: S3StorageOptions) {
    this.bucket = options.bucket;
    this.clock = options.clock;
    this.client = new S3Client({
      region: options.region,
      forcePathStyle: options.forcePathStyle,
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(options.endpoint ? { endpoint: options.endpoint } : {}),
      ...(options.credentials ? { credentials: options.credentials } : {}),
    });
  }

  async put(key: string, body: Buffer | Readable, options: PutOptions): Promise<void> {
    assertObjectKey(key);
    await this.attempt(key, 'PutObject', () =>
      this.client.send(
        new PutObjectCommand({
          Bucket: this.bucket,
          Key: key,
          Body: body,
          ContentLength: options.contentLength,
          ContentType: options.contentType,
        }),
      ),
    );
  }

  async get(key: string): Promise<StoredObject> {
    assertObjectKey(key);
    const answer = await this.attempt(key, 'GetObject', () =>
      this.client.send(new GetObjectCommand({ Bucket: this.bucket, Key: key })),
    );
    if (!answer.Body || answer.ContentLength === undefined)
      throw new ObjectStorageFailure(`S3 sent no body for ${key}`);
    return { body: answer.Body as Readable, contentLength: answer.ContentLength };
  }

  async downloadUrl(key: string, options: DownloadUrlOptions): Promise<string> {
    assertObjectKey(key);
    const now = this.clock.now();
    const expiresIn = Math.max(1, Math.round((options.expiresAt.getTime() - now.getTime()) / 1000));
    // The response headers are part of what is signed: the link cannot be changed to serve inline.
    const command = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: attachmentDisposition(options.fileName),
      ResponseContentType: options.contentType,
      ResponseCacheControl: 'private, no-store',
    });
    return getSignedUrl(this.client, command, { expiresIn, signingDate: now });
  }

  async delete(key: string): Promise<void> {
    assertObjectKey(key);
    await this.attempt(key, 'DeleteObject', () =>
      this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key })),
    );
  }

  /** Stops the client's sockets (tests, shutdown). */
  close(): void {
    this.client.destroy();
  }

  /** A missing object is ObjectMissing; anything else S3 or the network refuses, ObjectStorageFailure. */
  private async attempt<T>(key: string, operation: string, request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (error) {
      if (error instanceof NoSuchKey || (error instanceof S3ServiceException && error.name === 'NotFound')) {
        throw new ObjectMissing(key);
      }
      throw new ObjectStorageFailure(`S3 ${operation} of ${key} failed`, { cause: error });
    }
  }
}
