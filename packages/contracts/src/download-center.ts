// Apart from releases.ts: the shell's Downloads links (in every page's first load, ADR 0020) need
// this path and nothing else of the download center (docs/decisions/0046-release-storage.md).

/** The portal's download center (`downloadCenterPath(code)` for a product's section). */
export const DOWNLOAD_CENTER_PATH = '/download-center';
