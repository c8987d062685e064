import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';

/**
 * An S3-compatible server in the test's process (s3rver) on a free port, with one empty bucket
 * in a folder of its own: what the object storage is tested against besides the local folder
 * (ADR 0046). Its key pair is s3rver's built-in one.
 */
export async function startS3StandIn(bucket: string): Promise<{
  endpoint: string;
  /** The folder the bucket's objects are kept in. */
  bucketDir: string;
  credentials: { accessKeyId: string; secretAccessKey: string };
  close(): Promise<void>;
}> {
  const directory = mkdtempSync(path.join(tmpdir(), 'soundid-s3rver-'));
  const server = new S3rver({
    address: '127.0.0.1',
    port: 0,
    silent: true,
    directory,
    configureBuckets: [{ name: bucket, configs: [] }],
  });
  const { port } = await server.run();
  return {
    endpoint: `http://127.0.0.1:${port}`,
    bucketDir: path.join(directory, bucket),
    credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
    close: () => server.close(),
  };
}
