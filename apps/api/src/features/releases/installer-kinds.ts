import { fileExtensionOf } from '@soundid/contracts';

/**
 * What each installer kind looks like inside (ASVS 5.0 5.2.2: a file's content checked against
 * its extension, not only its name). `head` is the file's first bytes, `tail` its last 512.
 */
export interface FileEnds {
  head: Buffer;
  tail: Buffer;
}

/** How many bytes of the start and the end of an upload are kept for the check. */
export const HEAD_BYTES = 4096;
export const TAIL_BYTES = 512;

const startsWith = (bytes: Buffer, magic: number[]) =>
  bytes.length >= magic.length && magic.every((byte, i) => bytes[i] === byte);

const ZIP = [0x50, 0x4b, 0x03, 0x04]; // PK\3\4: a local file header
const XAR = [0x78, 0x61, 0x72, 0x21]; // xar! (flat .pkg)
const CFB = [0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]; // OLE compound file (.msi)
const KOLY = [0x6b, 0x6f, 0x6c, 0x79]; // koly: a UDIF disk image's trailer, 512 bytes from the end

/** An MZ executable whose PE header is where the DOS header says (a Windows .exe). */
function isPortableExecutable(head: Buffer): boolean {
  if (!startsWith(head, [0x4d, 0x5a]) || head.length < 0x40) return false;
  const peOffset = head.readUInt32LE(0x3c);
  return peOffset + 4 <= head.length && startsWith(head.subarray(peOffset), [0x50, 0x45, 0x00, 0x00]);
}

const CHECKS: Record<string, (ends: FileEnds) => boolean> = {
  '.zip': ({ head }) => startsWith(head, ZIP),
  '.pkg': ({ head }) => startsWith(head, XAR),
  '.msi': ({ head }) => startsWith(head, CFB),
  '.exe': ({ head }) => isPortableExecutable(head),
  '.dmg': ({ tail }) => tail.length === TAIL_BYTES && startsWith(tail, KOLY),
};

const CONTENT_TYPES: Record<string, string> = {
  '.zip': 'application/zip',
  '.pkg': 'application/octet-stream',
  '.msi': 'application/x-msi',
  '.exe': 'application/vnd.microsoft.portable-executable',
  '.dmg': 'application/x-apple-diskimage',
};

/** Whether the file's bytes are of the kind its name's extension says. */
export function contentMatchesExtension(fileName: string, ends: FileEnds): boolean {
  return CHECKS[fileExtensionOf(fileName)]?.(ends) ?? false;
}

export function contentTypeOf(fileName: string): string {
  return CONTENT_TYPES[fileExtensionOf(fileName)] ?? 'application/octet-stream';
}

/**
 * The smallest bytes that pass the check, padded with `body`: the dev seed's installers and the
 * tests' (never a working installer, only the right signature).
 */
export function installerLikeBytes(fileName: string, body: Buffer): Buffer {
  switch (fileExtensionOf(fileName)) {
    case '.zip':
      return Buffer.concat([Buffer.from(ZIP), body]);
    case '.pkg':
      return Buffer.concat([Buffer.from(XAR), body]);
    case '.msi':
      return Buffer.concat([Buffer.from(CFB), body]);
    case '.exe': {
      const dos = Buffer.alloc(0x40);
      dos.write('MZ', 0, 'latin1');
      dos.writeUInt32LE(0x40, 0x3c);
      return Buffer.concat([dos, Buffer.from([0x50, 0x45, 0x00, 0x00]), body]);
    }
    case '.dmg': {
      const trailer = Buffer.alloc(TAIL_BYTES);
      Buffer.from(KOLY).copy(trailer);
      return Buffer.concat([body, trailer]);
    }
    default:
      throw new Error(`No installer kind for ${fileName}`);
  }
}
