import { createHash } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { PASSWORD_MIN_LENGTH } from '@soundid/contracts';

/**
 * The breached-password list shipped with the service (ADR 0042, ASVS 6.2.12): for each password
 * of the source lists, the first bits of its SHA-1, sorted, in a file read once into a Buffer.
 *
 * Layout (integers big-endian):
 *   0  'SBP1'
 *   4  u32  entry count n
 *   8  u8   prefix bytes P: the hash's first P bytes name the bucket (2^(8P) buckets)
 *   9  u8   suffix bytes S: each entry keeps the S hash bytes after the prefix
 *  10  u8   minimum length: shorter passwords were left out (the length rule refuses them first)
 *  11  u8   0
 *  12  u32 × (2^(8P) + 1)  index of each bucket's first entry, then n
 *   …  n × S bytes: the entries' suffixes, ascending within each bucket
 *
 * A password is in the set when its hash's P + S first bytes are: a password of no source is
 * refused by mistake with the chance n / 2^(8(P + S)) (ADR 0042: 5.8e-7 for the shipped file).
 */

const MAGIC = 'SBP1';
const HEADER_BYTES = 12;

export interface BreachedSetShape {
  prefixBytes: 1 | 2;
  suffixBytes: 1 | 2 | 3 | 4;
  /** Entries shorter than this are left out. */
  minLength: number;
}

/**
 * The shipped file's shape: 65,536 buckets and 40 hash bits an entry, passwords the length rule
 * lets through (a change of the minimum makes the committed file differ from a build: rebuild it).
 */
export const SHIPPED_SHAPE: BreachedSetShape = { prefixBytes: 2, suffixBytes: 3, minLength: PASSWORD_MIN_LENGTH };

/** The committed file (ADR 0042); `npm run breached-passwords:build -w apps/api` writes it. */
export const BREACHED_PASSWORDS_FILE = fileURLToPath(
  new URL('../../../assets/breached-passwords.bin', import.meta.url),
);

function hashOf(password: string): Buffer {
  return createHash('sha1').update(password, 'utf8').digest();
}

export class BreachedPasswordSet {
  private constructor(
    private readonly data: Buffer,
    readonly size: number,
    readonly shape: BreachedSetShape,
    private readonly entriesAt: number,
  ) {}

  /** Reads a file's bytes as `build` wrote them; throws on any other content. */
  static parse(data: Buffer): BreachedPasswordSet {
    if (data.length < HEADER_BYTES || data.toString('latin1', 0, 4) !== MAGIC) {
      throw new Error('not a breached-password set (SBP1)');
    }
    const size = data.readUInt32BE(4);
    const prefixBytes = data.readUInt8(8);
    const suffixBytes = data.readUInt8(9);
    if ((prefixBytes !== 1 && prefixBytes !== 2) || suffixBytes < 1 || suffixBytes > 4) {
      throw new Error(`breached-password set: unsupported shape ${prefixBytes}/${suffixBytes}`);
    }
    const buckets = 2 ** (8 * prefixBytes);
    const entriesAt = HEADER_BYTES + 4 * (buckets + 1);
    if (data.length !== entriesAt + size * suffixBytes || data.readUInt32BE(entriesAt - 4) !== size) {
      throw new Error('breached-password set: truncated or inconsistent file');
    }
    const shape = { prefixBytes, suffixBytes, minLength: data.readUInt8(10) } as BreachedSetShape;
    return new BreachedPasswordSet(data, size, shape, entriesAt);
  }

  /** Whether the password is one of the list's: a hash, a bucket lookup and a binary search of ~10 entries. */
  has(password: string): boolean {
    if (password.length < this.shape.minLength) return false;
    const { prefixBytes: p, suffixBytes: s } = this.shape;
    const digest = hashOf(password);
    const bucket = p === 2 ? digest.readUInt16BE(0) : digest.readUInt8(0);
    const wanted = digest.readUIntBE(p, s);
    let low = this.data.readUInt32BE(HEADER_BYTES + 4 * bucket);
    let high = this.data.readUInt32BE(HEADER_BYTES + 4 * (bucket + 1));
    while (low < high) {
      const middle = (low + high) >>> 1;
      const entry = this.data.readUIntBE(this.entriesAt + middle * s, s);
      if (entry === wanted) return true;
      if (entry < wanted) low = middle + 1;
      else high = middle;
    }
    return false;
  }
}

/**
 * Builds the file's bytes from the source passwords: same input, same bytes (the committed file
 * is checked against a fresh build). Duplicates, and passwords whose kept hash bits coincide,
 * become one entry.
 */
export function buildBreachedPasswordSet(passwords: Iterable<string>, shape: BreachedSetShape): Buffer {
  const { prefixBytes: p, suffixBytes: s, minLength } = shape;
  const keyBytes = p + s;
  let keys = new Float64Array(1 << 16);
  let count = 0;
  for (const password of passwords) {
    if (password.length < minLength) continue;
    if (count === keys.length) {
      const grown = new Float64Array(keys.length * 2);
      grown.set(keys);
      keys = grown;
    }
    // At most 6 bytes: exact in a double.
    keys[count++] = hashOf(password).readUIntBE(0, keyBytes);
  }
  const sorted = keys.subarray(0, count).sort();
  const buckets = 2 ** (8 * p);
  const suffixRange = 2 ** (8 * s);
  const unique: number[] = [];
  for (let i = 0; i < sorted.length; i++) {
    if (i === 0 || sorted[i] !== sorted[i - 1]) unique.push(sorted[i] as number);
  }
  const entriesAt = HEADER_BYTES + 4 * (buckets + 1);
  const out = Buffer.alloc(entriesAt + unique.length * s);
  out.write(MAGIC, 0, 'latin1');
  out.writeUInt32BE(unique.length, 4);
  out.writeUInt8(p, 8);
  out.writeUInt8(s, 9);
  out.writeUInt8(minLength, 10);
  let entry = 0;
  for (let bucket = 0; bucket <= buckets; bucket++) {
    while (entry < unique.length && Math.floor((unique[entry] as number) / suffixRange) < bucket) entry++;
    out.writeUInt32BE(entry, HEADER_BYTES + 4 * bucket);
  }
  unique.forEach((key, i) => {
    out.writeUIntBE(key % suffixRange, entriesAt + i * s, s);
  });
  return out;
}

/** The list, read once per file and process, off the request path when warmed at start-up. */
export interface BreachedPasswords {
  has(password: string): Promise<boolean>;
  /** Starts reading the file now; a failure is reported here and again at each `has`. */
  warm(onError: (error: Error) => void): void;
}

const loaded = new Map<string, Promise<BreachedPasswordSet>>();

function load(file: string): Promise<BreachedPasswordSet> {
  let set = loaded.get(file);
  if (!set) {
    set = readFile(file).then(BreachedPasswordSet.parse, (error: NodeJS.ErrnoException) => {
      throw new Error(
        `The breached-password list ${file} cannot be read (${error.code ?? error.message}). It is committed ` +
          'with the repository (ADR 0042): restore it with git, or rebuild it with ' +
          '`npm run breached-passwords:build -w apps/api`.',
      );
    });
    loaded.set(file, set);
  }
  return set;
}

/** The process's copy of a list file (default: the committed one), shared by every test app. */
export function sharedBreachedPasswords(file: string = BREACHED_PASSWORDS_FILE): BreachedPasswords {
  return {
    has: async (password) => (await load(file)).has(password),
    warm: (onError) => {
      load(file).catch(onError);
    },
  };
}
