import { z } from 'zod';
import { isReleaseVersion, RELEASE_NOTES_MAX_LENGTH, RELEASE_PLATFORMS, RELEASE_VERSION_MAX_LENGTH } from '../releases';
import { callBody, emptyBody } from './common';
import { auditReasonSchema } from './operators';

/**
 * Releases and the download center (docs/decisions/0046-release-storage.md): the portal's calls
 * (`POST /api/downloads/<Call>`), the operator's, and the shapes they answer.
 */

export const releasePlatformSchema = z.enum(RELEASE_PLATFORMS);

export const releaseVersionSchema = z
  .string()
  .trim()
  .max(RELEASE_VERSION_MAX_LENGTH)
  .refine(isReleaseVersion, { message: 'must be a semantic version: MAJOR.MINOR.PATCH, e.g. 5.2.0 or 6.0.0-beta.1' });

/** A catalogue product's code (`npm run admin -- products`). */
export const releaseProductCodeSchema = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[a-z0-9-]+$/);

/** One installer as the download center shows it. Times are epoch milliseconds, as the portal's lists have them. */
export const releaseFileSchema = z.object({
  ReleaseFileId: z.string(),
  Version: z.string(),
  Platform: releasePlatformSchema,
  FileName: z.string(),
  SizeBytes: z.number().int(),
  /** SHA-256 of the file, lower-case hex: what a downloaded file is checked against. */
  Sha256: z.string(),
  Notes: z.string(),
  PublishedAt: z.number(),
});
export type ReleaseFile = z.infer<typeof releaseFileSchema>;

/**
 * GetDownloadCenter: the products the customer holds or can try, in catalogue order; for each
 * platform with a release the latest by semver precedence and the older ones, newest first.
 */
export const downloadCenterSchema = z.object({
  Products: z.array(
    z.object({
      /** The catalogue code: also the product's anchor on /download-center. */
      Code: z.string(),
      /** As the desktop apps name it: the section answers to `#<ProductName>` too (a deeplink's product). */
      ProductName: z.string(),
      DisplayName: z.string(),
      Icon: z.string(),
      Platforms: z.array(
        z.object({ Platform: releasePlatformSchema, Latest: releaseFileSchema, Older: z.array(releaseFileSchema) }),
      ),
    }),
  ),
});
export type DownloadCenter = z.infer<typeof downloadCenterSchema>;
export type DownloadCenterProduct = DownloadCenter['Products'][number];

/** GetDownloadLink: a short-lived link to one installer, for the signed-in customer only. */
export const downloadLinkSchema = z.object({
  Url: z.string(),
  /** When the link stops working (epoch milliseconds). */
  ExpiresAt: z.number(),
  FileName: z.string(),
  SizeBytes: z.number().int(),
  Sha256: z.string(),
});
export type DownloadLink = z.infer<typeof downloadLinkSchema>;

export const releaseCalls = {
  GetDownloadCenter: emptyBody,
  GetDownloadLink: callBody({ releaseFileId: z.uuid() }),
} as const;

export const releaseResults = {
  GetDownloadCenter: downloadCenterSchema,
  GetDownloadLink: downloadLinkSchema,
} as const satisfies Record<keyof typeof releaseCalls, z.ZodType>;

// ── Operators (`npm run admin -- upload-release | releases | remove-release`) ──

/**
 * The text fields of an upload (`POST /api/admin/releases`, multipart/form-data): they come
 * before the `file` part, so that a bad field is refused before any byte of the file is read.
 */
export const releaseUploadFieldsSchema = z.strictObject({
  product: releaseProductCodeSchema,
  platform: releasePlatformSchema,
  version: releaseVersionSchema,
  notes: z.string().trim().min(1).max(RELEASE_NOTES_MAX_LENGTH),
});
export type ReleaseUploadFields = z.infer<typeof releaseUploadFieldsSchema>;

/** The operator's form fields: the release's, and the change's reason (ADR 0045). */
export const releaseUploadFormFieldsSchema = releaseUploadFieldsSchema.extend({ reason: auditReasonSchema });

/** The upload as OpenAPI shows it: the fields, then the installer itself. */
export const releaseUploadFormSchema = releaseUploadFormFieldsSchema.extend({
  file: z.string().meta({
    format: 'binary',
    description: 'The installer (.dmg/.pkg/.zip for macOS, .exe/.msi/.zip for Windows), last',
  }),
});

export const adminReleasesQuerySchema = z.object({ product: releaseProductCodeSchema.optional() });
export const removeReleaseBodySchema = z.strictObject({ releaseFileId: z.uuid(), reason: auditReasonSchema });

export const adminReleaseSchema = z.object({
  ReleaseFileId: z.string(),
  Product: z.string(),
  Platform: releasePlatformSchema,
  Version: z.string(),
  FileName: z.string(),
  SizeBytes: z.number().int(),
  Sha256: z.string(),
  Notes: z.string(),
  /** ISO 8601, as the other operator results have times. */
  PublishedAt: z.string(),
  /** Whether it is its product's and platform's latest by version. */
  IsLatest: z.boolean(),
});
export type AdminRelease = z.infer<typeof adminReleaseSchema>;

export const releaseOperatorResults = {
  AdminUploadRelease: adminReleaseSchema,
  AdminReleases: z.array(adminReleaseSchema),
  AdminRemoveRelease: z.object({ Removed: z.boolean() }),
} as const;
