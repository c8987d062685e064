import { bigint, pgTable, text, timestamp, uniqueIndex, uuid } from 'drizzle-orm/pg-core';

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/**
 * A published release (ADR 0046): one version of a catalogue product for one platform, with its
 * notes. Immutable once published: a published checksum never changes, so a fix is a new version.
 */
export const releases = pgTable(
  'releases',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    /** The catalogue's product code (apps/api/src/features/licences/catalogue.ts). */
    productCode: text('product_code').notNull(),
    /** 'macos' or 'windows'. */
    platform: text('platform').notNull(),
    /** A semantic version; "latest" is the highest by semver precedence, not the newest row. */
    version: text('version').notNull(),
    notes: text('notes').notNull(),
    publishedAt: ts('published_at').notNull(),
  },
  // Also the index by product (its first column): the download center reads a customer's products.
  (t) => [uniqueIndex('releases_product_platform_version_key').on(t.productCode, t.platform, t.version)],
);

/** The installer of a release, as stored in object storage, with the SHA-256 computed on upload. */
export const releaseFiles = pgTable(
  'release_files',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    releaseId: uuid('release_id')
      .notNull()
      .references(() => releases.id, { onDelete: 'cascade' }),
    fileName: text('file_name').notNull(),
    sizeBytes: bigint('size_bytes', { mode: 'number' }).notNull(),
    /** Lower-case hex. */
    sha256: text('sha256').notNull(),
    contentType: text('content_type').notNull(),
    /** Where the bytes are (ObjectStorage key). */
    storageKey: text('storage_key').notNull(),
    createdAt: ts('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('release_files_release_file_name_key').on(t.releaseId, t.fileName),
    uniqueIndex('release_files_storage_key_key').on(t.storageKey),
  ],
);

export type ReleaseRow = typeof releases.$inferSelect;
export type ReleaseFileRow = typeof releaseFiles.$inferSelect;
