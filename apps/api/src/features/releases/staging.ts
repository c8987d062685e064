import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import path from 'node:path';
import { type Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { type FileEnds, HEAD_BYTES, TAIL_BYTES } from './installer-kinds';

/** An upload written to a temporary file, with what was learnt on the way. */
export interface StagedUpload extends FileEnds {
  file: string;
  sizeBytes: number;
  /** Lower-case hex. */
  sha256: string;
}

/** More bytes came than the limit allows: the upload was stopped there and nothing kept. */
export class UploadTooLarge extends Error {
  constructor(readonly maxBytes: number) {
    super(`Upload over ${maxBytes} bytes`);
    this.name = 'UploadTooLarge';
  }
}

/**
 * Streams an upload into a temporary file under `dir`, hashing it (SHA-256) and counting it as it
 * passes: the file is never held in memory whole. Past `maxBytes` the stream is stopped and the
 * temporary file removed (UploadTooLarge). The first and last bytes are kept for the kind check.
 * The caller removes the file once it is stored (or refused).
 */
export async function stageUpload(source: Readable, dir: string, maxBytes: number): Promise<StagedUpload> {
  await mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${randomBytes(12).toString('hex')}.upload`);
  const hash = createHash('sha256');
  let size = 0;
  let head = Buffer.alloc(0);
  let tail = Buffer.alloc(0);
  const inspect = new Transform({
    transform(chunk: Buffer, _encoding, done) {
      size += chunk.length;
      if (size > maxBytes) return done(new UploadTooLarge(maxBytes));
      hash.update(chunk);
      if (head.length < HEAD_BYTES) head = Buffer.concat([head, chunk.subarray(0, HEAD_BYTES - head.length)]);
      tail = Buffer.concat([tail, chunk]);
      if (tail.length > TAIL_BYTES) tail = tail.subarray(tail.length - TAIL_BYTES);
      done(null, chunk);
    },
  });
  try {
    await pipeline(source, inspect, createWriteStream(file, { mode: 0o600 }));
  } catch (error) {
    await rm(file, { force: true });
    throw error;
  }
  return { file, sizeBytes: size, sha256: hash.digest('hex'), head, tail: Buffer.from(tail) };
}
