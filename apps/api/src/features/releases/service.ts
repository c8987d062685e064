import { createReadStream } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import type { Readable } from 'node:stream';
import {
  type AdminRelease,
  compareReleaseVersions,
  DOWNLOAD_LINK_SECONDS,
  type DownloadCenter,
  type DownloadLink,
  isAllowedReleaseFile,
  RELEASE_FILE_EXTENSIONS,
  RELEASE_FILE_NAME_MAX_LENGTH,
  RELEASE_PLATFORMS,
  type ReleaseFile,
  type ReleasePlatform,
  type ReleaseUploadFields,
} from '@soundid/contracts';
import { and, eq, inArray } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import type { Database, Transaction } from '../../db/client';
import { type ReleaseFileRow, type ReleaseRow, releaseFiles, releases } from '../../db/releases-schema';
import {
  type DownloadTokens,
  ObjectMissing,
  type ObjectStorage,
  ObjectStorageFailure,
} from '../../integrations/object-storage';
import type { Clock, Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { isUniqueViolation } from '../accounts/users-repo';
import { PRODUCTS, productByCode } from '../licences/catalogue';
import { contentMatchesExtension, contentTypeOf } from './installer-kinds';
import { stageUpload, UploadTooLarge } from './staging';

export interface ReleaseServiceOptions {
  db: Database;
  clock: Clock;
  random: Random;
  storage: ObjectStorage;
  /** Checks the folder storage's link tokens (the S3 links are checked by S3). */
  tokens: DownloadTokens;
  /** Where uploads are written while they are checked, before anything is stored. */
  stagingDir: string;
  /** RELEASE_MAX_BYTES. */
  maxBytes: number;
  /** The products a customer holds or can try (LicenceList.productsHeldOrOffered). */
  entitledProducts(userId: string): Promise<ReadonlySet<string>>;
  log: FastifyBaseLogger;
}

/** An upload's installer: its name as sent and its bytes, not yet read. */
export interface IncomingInstaller {
  fileName: string;
  stream: Readable;
}

/** An installer to stream to the customer (folder storage). */
export interface InstallerDownload {
  body: Readable;
  contentLength: number;
  fileName: string;
  contentType: string;
}

type ReleaseWithFile = { release: ReleaseRow; file: ReleaseFileRow };

/**
 * Releases and the download center (ADR 0046): operators publish installers, customers see those
 * of the products they hold or can try and get a short-lived link to one. Knows nothing of HTTP
 * or of how the operator signed in: routes hand it fields, streams and the customer's id.
 */
export class ReleaseService {
  constructor(private readonly options: ReleaseServiceOptions) {}

  /**
   * Publishes one installer. Every refusal (a field, the file's name, a version already there, its
   * size, its content) comes before anything is stored; the file is streamed to a temporary file
   * while hashed, checked, then put in object storage, and only then recorded.
   */
  async publish(
    fields: ReleaseUploadFields,
    installer: IncomingInstaller,
    /** An operator's upload: its audit entry, written in the transaction that records the release (ADR 0045). */
    record?: (tx: Transaction, release: { releaseFileId: string; sha256: string; sizeBytes: number }) => Promise<void>,
  ): Promise<AdminRelease> {
    const { db, clock, storage } = this.options;
    const product = productByCode(fields.product);
    if (!product) throw new Fault('ProductNotFound', { Product: fields.product });
    const fileName = installerFileName(installer.fileName);
    if (!isAllowedReleaseFile(fields.platform, fileName)) {
      throw new Fault('ReleaseFileTypeNotAllowed', {
        Platform: fields.platform,
        Allowed: RELEASE_FILE_EXTENSIONS[fields.platform].join(', '),
      });
    }
    if (await this.find(fields.product, fields.platform, fields.version)) throw new Fault('ReleaseAlreadyExists');

    const staged = await stageUpload(installer.stream, this.options.stagingDir, this.options.maxBytes).catch(
      (error: unknown) => {
        if (error instanceof UploadTooLarge) {
          throw new Fault('ReleaseFileTooLarge', { MaxBytes: String(this.options.maxBytes) });
        }
        // The staging folder cannot be written (permissions, a full disk): the service's fault, said as such.
        if (['EACCES', 'EPERM', 'ENOSPC', 'EROFS', 'EDQUOT'].includes((error as NodeJS.ErrnoException).code ?? '')) {
          this.options.log.error({ err: error, dir: this.options.stagingDir }, 'uploads cannot be staged');
          throw new Fault('ReleaseStorageUnavailable');
        }
        throw error;
      },
    );
    try {
      if (staged.sizeBytes === 0 || !contentMatchesExtension(fileName, staged)) {
        throw new Fault('ReleaseFileContentInvalid', { FileName: fileName });
      }
      const fileId = uuidOf(this.options.random);
      const storageKey = ['releases', product.code, fields.platform, fields.version, fileId, fileName].join('/');
      const contentType = contentTypeOf(fileName);
      await this.stored(() =>
        storage.put(storageKey, createReadStream(staged.file), { contentLength: staged.sizeBytes, contentType }),
      );
      const now = clock.now();
      try {
        const saved = await db.transaction(async (tx) => {
          const [release] = await tx
            .insert(releases)
            .values({
              productCode: product.code,
              platform: fields.platform,
              version: fields.version,
              notes: fields.notes,
              publishedAt: now,
            })
            .returning();
          const [file] = await tx
            .insert(releaseFiles)
            .values({
              id: fileId,
              releaseId: (release as ReleaseRow).id,
              fileName,
              sizeBytes: staged.sizeBytes,
              sha256: staged.sha256,
              contentType,
              storageKey,
              createdAt: now,
            })
            .returning();
          await record?.(tx, { releaseFileId: fileId, sha256: staged.sha256, sizeBytes: staged.sizeBytes });
          return { release: release as ReleaseRow, file: file as ReleaseFileRow };
        });
        const all = await this.listRows(product.code);
        return toAdminRelease(saved, isLatestOf(saved, all));
      } catch (error) {
        // Published meanwhile by another upload, or not recorded: the object goes too.
        await storage.delete(storageKey).catch((e: unknown) => this.options.log.error({ err: e }, 'orphan installer'));
        if (isUniqueViolation(error)) throw new Fault('ReleaseAlreadyExists');
        throw error;
      }
    } finally {
      await rm(staged.file, { force: true });
    }
  }

  /** The releases of one product or all, by catalogue order, platform, then version (highest first). */
  async list(productCode?: string): Promise<AdminRelease[]> {
    const rows = await this.listRows(productCode);
    return sortReleases(rows).map((row) => toAdminRelease(row, isLatestOf(row, rows)));
  }

  /** Withdraws a release: its row first (no link is issued for it from then on), then its file. */
  async remove(
    releaseFileId: string,
    /** The operator's audit entry, written in the transaction that removes the row (ADR 0045). */
    record: (tx: Transaction) => Promise<void>,
  ): Promise<{ Removed: boolean }> {
    const { db, storage, log } = this.options;
    const found = await this.byFileId(releaseFileId);
    if (!found) throw new Fault('ReleaseNotFound');
    await db.transaction(async (tx) => {
      const removed = await tx.delete(releases).where(eq(releases.id, found.release.id)).returning({ id: releases.id });
      if (removed.length === 0) throw new Fault('ReleaseNotFound');
      await record(tx);
    });
    await storage.delete(found.file.storageKey).catch((error: unknown) => {
      log.error({ err: error, key: found.file.storageKey }, 'removed release: its installer was not deleted');
    });
    return { Removed: true };
  }

  /** GetDownloadCenter: for each product the customer holds or can try that has releases, its platforms. */
  async downloadCenter(userId: string): Promise<DownloadCenter> {
    const entitled = await this.options.entitledProducts(userId);
    const rows = entitled.size === 0 ? [] : await this.listRows([...entitled]);
    const products = PRODUCTS.filter((p) => entitled.has(p.code)).flatMap((product) => {
      const own = sortReleases(rows.filter((row) => row.release.productCode === product.code));
      const platforms = RELEASE_PLATFORMS.flatMap((platform) => {
        const [latest, ...older] = own.filter((row) => row.release.platform === platform).map(toReleaseFile);
        return latest ? [{ Platform: platform, Latest: latest, Older: older }] : [];
      });
      return platforms.length > 0
        ? [
            {
              Code: product.code,
              ProductName: product.productName,
              DisplayName: product.displayName,
              Icon: product.icon,
              Platforms: platforms,
            },
          ]
        : [];
    });
    return { Products: products };
  }

  /** GetDownloadLink: a link of DOWNLOAD_LINK_SECONDS, only for a customer who holds or can try the product. */
  async issueLink(userId: string, releaseFileId: string): Promise<DownloadLink> {
    const found = await this.entitledFile(userId, releaseFileId);
    const expiresAt = new Date(this.options.clock.now().getTime() + DOWNLOAD_LINK_SECONDS * 1000);
    const Url = await this.stored(() =>
      this.options.storage.downloadUrl(found.file.storageKey, {
        fileName: found.file.fileName,
        contentType: found.file.contentType,
        expiresAt,
        grant: { customerId: userId, fileId: found.file.id },
      }),
    );
    return {
      Url,
      ExpiresAt: expiresAt.getTime(),
      FileName: found.file.fileName,
      SizeBytes: found.file.sizeBytes,
      Sha256: found.file.sha256,
    };
  }

  /**
   * A folder-storage link followed: its token must be intact, unexpired and the signed-in
   * customer's own; the customer must still hold or be able to try the product.
   */
  async openDownload(token: string, requesterId: string): Promise<InstallerDownload> {
    const check = this.options.tokens.verify(token, this.options.clock.now());
    if (!check.ok) throw new Fault(check.reason === 'expired' ? 'DownloadLinkExpired' : 'DownloadLinkInvalid');
    if (check.grant.customerId !== requesterId) throw new Fault('DownloadLinkInvalid');
    const found = await this.entitledFile(requesterId, check.grant.fileId);
    try {
      const object = await this.stored(() => this.options.storage.get(found.file.storageKey));
      return {
        body: object.body,
        contentLength: object.contentLength,
        fileName: found.file.fileName,
        contentType: found.file.contentType,
      };
    } catch (error) {
      if (!(error instanceof ObjectMissing)) throw error;
      this.options.log.error({ key: found.file.storageKey }, 'a published installer is missing from storage');
      throw new Fault('ReleaseNotFound');
    }
  }

  private async entitledFile(userId: string, releaseFileId: string): Promise<ReleaseWithFile> {
    const found = await this.byFileId(releaseFileId);
    if (!found) throw new Fault('ReleaseNotFound');
    const entitled = await this.options.entitledProducts(userId);
    if (!entitled.has(found.release.productCode)) throw new Fault('NoLicenseForProduct');
    return found;
  }

  /** A storage call; an unreachable or refusing store is a 503 Fault, never a 500. */
  private async stored<T>(operation: () => Promise<T>): Promise<T> {
    try {
      return await operation();
    } catch (error) {
      if (error instanceof ObjectStorageFailure) {
        this.options.log.error({ err: error }, 'object storage failed');
        throw new Fault('ReleaseStorageUnavailable');
      }
      throw error;
    }
  }

  private async find(productCode: string, platform: ReleasePlatform, version: string): Promise<ReleaseRow | undefined> {
    const [row] = await this.options.db
      .select()
      .from(releases)
      .where(
        and(eq(releases.productCode, productCode), eq(releases.platform, platform), eq(releases.version, version)),
      );
    return row;
  }

  private async byFileId(releaseFileId: string): Promise<ReleaseWithFile | undefined> {
    const [row] = await this.options.db
      .select({ release: releases, file: releaseFiles })
      .from(releaseFiles)
      .innerJoin(releases, eq(releases.id, releaseFiles.releaseId))
      .where(eq(releaseFiles.id, releaseFileId));
    return row;
  }

  private listRows(products?: string | string[]): Promise<ReleaseWithFile[]> {
    const query = this.options.db
      .select({ release: releases, file: releaseFiles })
      .from(releaseFiles)
      .innerJoin(releases, eq(releases.id, releaseFiles.releaseId));
    if (products === undefined) return query;
    return query.where(
      typeof products === 'string' ? eq(releases.productCode, products) : inArray(releases.productCode, products),
    );
  }
}

const catalogueOrder = new Map(PRODUCTS.map((p, i) => [p.code, i]));

/** Catalogue order, then platform, then the highest version first (the newest upload on a tie). */
function sortReleases(rows: ReleaseWithFile[]): ReleaseWithFile[] {
  return [...rows].sort(
    (a, b) =>
      (catalogueOrder.get(a.release.productCode) ?? 999) - (catalogueOrder.get(b.release.productCode) ?? 999) ||
      RELEASE_PLATFORMS.indexOf(a.release.platform as ReleasePlatform) -
        RELEASE_PLATFORMS.indexOf(b.release.platform as ReleasePlatform) ||
      compareReleaseVersions(b.release.version, a.release.version) ||
      b.release.publishedAt.getTime() - a.release.publishedAt.getTime(),
  );
}

/** Whether a release is the highest version of its product and platform. */
function isLatestOf(row: ReleaseWithFile, all: ReleaseWithFile[]): boolean {
  const [latest] = sortReleases(
    all.filter((r) => r.release.productCode === row.release.productCode && r.release.platform === row.release.platform),
  );
  return latest?.file.id === row.file.id;
}

function toReleaseFile({ release, file }: ReleaseWithFile): ReleaseFile {
  return {
    ReleaseFileId: file.id,
    Version: release.version,
    Platform: release.platform as ReleasePlatform,
    FileName: file.fileName,
    SizeBytes: file.sizeBytes,
    Sha256: file.sha256,
    Notes: release.notes,
    PublishedAt: release.publishedAt.getTime(),
  };
}

function toAdminRelease(row: ReleaseWithFile, isLatest: boolean): AdminRelease {
  const { PublishedAt, ...file } = toReleaseFile(row);
  return {
    ...file,
    Product: row.release.productCode,
    PublishedAt: new Date(PublishedAt).toISOString(),
    IsLatest: isLatest,
  };
}

/**
 * The name an installer is kept and downloaded under: the last part of what the client sent (no
 * path), with any character outside letters, digits and `._+-` made a dash.
 */
export function installerFileName(sent: string): string {
  const base = sent.split(/[\\/]/).pop() ?? '';
  const name = base
    .replace(/[^A-Za-z0-9._+-]/g, '-')
    .slice(-RELEASE_FILE_NAME_MAX_LENGTH)
    .replace(/^[^A-Za-z0-9]+/, '');
  if (!name) throw new Fault('ReleaseFileMissing');
  return name;
}

/** A version-4 UUID from the injected randomness. */
function uuidOf(random: Random): string {
  const bytes = random.bytes(16);
  bytes[6] = ((bytes[6] as number) & 0x0f) | 0x40;
  bytes[8] = ((bytes[8] as number) & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}

export const stagingDirOf = (dataDir: string) => path.join(dataDir, 'uploads');
