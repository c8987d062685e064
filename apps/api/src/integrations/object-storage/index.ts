import type { ObjectStorageConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import type { DownloadTokens } from './download-tokens';
import { LocalFolderStorage } from './local-folder';
import { S3Storage } from './s3';
import type { ObjectStorage } from './types';

export { type DownloadTokenCheck, DownloadTokens } from './download-tokens';
export { DOWNLOAD_FILE_PATH, LocalFolderStorage } from './local-folder';
export { S3Storage } from './s3';
export * from './types';

/** The storage the configuration names (ADR 0046): S3 with S3_BUCKET, else the folder under DATA_DIR. */
export function createObjectStorage(
  config: ObjectStorageConfig,
  deps: { clock: Clock; tokens: DownloadTokens; publicUrl: string },
): ObjectStorage {
  if (config.kind === 's3') return new S3Storage({ ...config, clock: deps.clock });
  return new LocalFolderStorage(config.dir, deps.tokens, deps.publicUrl);
}
