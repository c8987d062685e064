// The rules of releases and the download center (docs/decisions/0046-release-storage.md), without
// zod, for the service and the download center's screens. The shell's own link takes only
// download-center.ts (the /login budget, ADR 0020).
import { DOWNLOAD_CENTER_PATH } from './download-center';

/** The platforms an installer is published for, in the order the download center shows them. */
export const RELEASE_PLATFORMS = ['macos', 'windows'] as const;
export type ReleasePlatform = (typeof RELEASE_PLATFORMS)[number];

export const RELEASE_PLATFORM_NAMES: Record<ReleasePlatform, string> = { macos: 'macOS', windows: 'Windows' };

/** The installer kinds each platform takes, by file extension (lower case, with the dot). */
export const RELEASE_FILE_EXTENSIONS: Record<ReleasePlatform, readonly string[]> = {
  macos: ['.dmg', '.pkg', '.zip'],
  windows: ['.exe', '.msi', '.zip'],
};

/** How long a download link lasts: long enough to start the download, too short to pass around. */
export const DOWNLOAD_LINK_SECONDS = 5 * 60;

/** The default upload limit (RELEASE_MAX_BYTES): 2 GiB. */
export const RELEASE_MAX_BYTES_DEFAULT = 2 * 1024 ** 3;
/** The highest RELEASE_MAX_BYTES: one S3 PutObject takes at most 5 GiB. */
export const RELEASE_MAX_BYTES_CEILING = 5 * 1024 ** 3;

export const RELEASE_NOTES_MAX_LENGTH = 20_000;
export const RELEASE_VERSION_MAX_LENGTH = 64;
export const RELEASE_FILE_NAME_MAX_LENGTH = 200;

/** An installer's file name: letters, digits, dot, dash, underscore, plus; no path. */
export const RELEASE_FILE_NAME_PATTERN = /^[A-Za-z0-9][A-Za-z0-9._+-]*$/;

/** Semantic Versioning 2.0.0 (semver.org's own pattern): MAJOR.MINOR.PATCH[-pre-release][+build]. */
export const RELEASE_VERSION_PATTERN =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

export function isReleaseVersion(value: string): boolean {
  return value.length <= RELEASE_VERSION_MAX_LENGTH && RELEASE_VERSION_PATTERN.test(value);
}

/** Numeric identifiers have no leading zeros: the longer is the larger, else the text decides. */
function compareNumeric(a: string, b: string): number {
  if (a.length !== b.length) return a.length < b.length ? -1 : 1;
  return a < b ? -1 : a > b ? 1 : 0;
}

const isNumeric = (identifier: string) => /^\d+$/.test(identifier);

/** Pre-release identifiers, by semver's rule 11: numbers below names, a shorter list first. */
function comparePreRelease(a: string | undefined, b: string | undefined): number {
  if (a === b) return 0;
  // A version without a pre-release ranks above the same version with one (1.0.0-rc.1 < 1.0.0).
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  const left = a.split('.');
  const right = b.split('.');
  for (let i = 0; i < Math.max(left.length, right.length); i++) {
    const x = left[i];
    const y = right[i];
    if (x === undefined) return -1;
    if (y === undefined) return 1;
    const order =
      isNumeric(x) && isNumeric(y)
        ? compareNumeric(x, y)
        : isNumeric(x)
          ? -1
          : isNumeric(y)
            ? 1
            : x < y
              ? -1
              : x > y
                ? 1
                : 0;
    if (order !== 0) return order;
  }
  return 0;
}

/**
 * Semver precedence of two release versions: negative when `a` is older, positive when newer, 0
 * when they rank the same (build metadata does not count). "Latest" is the highest version, not
 * the newest upload: a 5.2.1 fix published after 6.0.0 does not become the latest.
 */
export function compareReleaseVersions(a: string, b: string): number {
  const x = RELEASE_VERSION_PATTERN.exec(a);
  const y = RELEASE_VERSION_PATTERN.exec(b);
  if (!x || !y) throw new Error(`Not a release version: ${x ? b : a}`);
  for (const part of [1, 2, 3]) {
    const order = compareNumeric(x[part] as string, y[part] as string);
    if (order !== 0) return order;
  }
  return comparePreRelease(x[4], y[4]);
}

/** A file name's extension, lower case with its dot ('' without one). */
export function fileExtensionOf(fileName: string): string {
  const dot = fileName.lastIndexOf('.');
  return dot <= 0 ? '' : fileName.slice(dot).toLowerCase();
}

export function isAllowedReleaseFile(platform: ReleasePlatform, fileName: string): boolean {
  return RELEASE_FILE_EXTENSIONS[platform].includes(fileExtensionOf(fileName));
}

/** The portal's download center, at a product's section when one is named (its anchor is the product code). */
export function downloadCenterPath(productCode?: string): string {
  return productCode ? `${DOWNLOAD_CENTER_PATH}#${productCode}` : DOWNLOAD_CENTER_PATH;
}

/**
 * The download center's section of the product a desktop-app deeplink opens
 * (`soundid://activate?product=SoundIDVoiceAI` → `/download-center#SoundIDVoiceAI`): a section
 * answers to its product's ProductName as well as its code. Without a product, the page's top.
 */
export function downloadCenterPathForDeeplink(deeplink: string | null | undefined): string {
  const query = deeplink?.split('?')[1]?.split('#')[0];
  const product = query ? new URLSearchParams(query).get('product') : null;
  return downloadCenterPath(product && /^[A-Za-z0-9._-]{1,64}$/.test(product) ? product : undefined);
}

/** A file size for people: 1,023 bytes, 4.2 MB, 1.5 GB (decimal units, as the operating systems show them). */
export function formatFileSize(bytes: number): string {
  if (bytes < 1000) return `${bytes.toLocaleString('en-US')} bytes`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toLocaleString('en-US', { maximumFractionDigits: 1 })} ${units[unit]}`;
}
