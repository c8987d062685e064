// The download center (docs/decisions/0046-release-storage.md): apart from core.ts so that only
// its screen loads them (ADR 0020).
import { DOWNLOAD_LINK_SECONDS } from '../releases';

export const downloadsText = {
  intro: `The installers of the products you hold or can try. A download link works for ${DOWNLOAD_LINK_SECONDS / 60} minutes and for your account only.`,
  loading: 'Loading downloads…',
  failed: 'The downloads could not be loaded. Please refresh the page to try again.',
  none: 'No downloads are available for your products yet.',
  productsLabel: 'Products',
  latest: 'Latest version',
  version: (version: string) => `Version ${version}`,
  published: (date: string) => `Published ${date}`,
  file: 'File',
  checksum: 'SHA-256',
  checksumHint: 'Compare it with the checksum of the downloaded file before installing.',
  notes: 'Release notes',
  download: 'Download',
  downloadLabel: (fileName: string) => `Download ${fileName}`,
  olderVersions: (count: number) => `Older versions (${count})`,
  starting: (fileName: string) => `Your download of ${fileName} is starting.`,
} as const;
