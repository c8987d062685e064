import multipart from '@fastify/multipart';
import {
  adminReleasesQuerySchema,
  callPathOf,
  callReplies,
  callSchemas,
  RELEASE_NOTES_MAX_LENGTH,
  releaseUploadFormFieldsSchema,
  releaseUploadFormSchema,
  removeReleaseBodySchema,
} from '@soundid/contracts';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { Fault } from '../../lib/fault';
import type { AuditTrail } from '../operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../operators/operator-guard';
import type { ReleaseService } from './service';

export interface ReleaseAdminRoutesOptions {
  releases: ReleaseService;
  /** Admins publish and withdraw; every operator lists (ADR 0044). */
  guard: OperatorGuard;
  audit: AuditTrail;
  /** RELEASE_MAX_BYTES. */
  maxBytes: number;
}

/** The form's parts besides the installer: the five fields (the reason too), each well under this. */
const FIELD_BYTES = RELEASE_NOTES_MAX_LENGTH * 4;
/** What a multipart body adds to the installer: the fields, boundaries and part headers. */
const FORM_OVERHEAD_BYTES = FIELD_BYTES + 64 * 1024;

/**
 * The operator API of releases (`npm run admin -- upload-release | releases | remove-release`).
 * The upload is multipart/form-data: the fields first, then the installer, streamed through.
 */
export const releaseAdminRoutes: FastifyPluginAsyncZod<ReleaseAdminRoutesOptions> = async (
  app,
  { releases, guard, audit, maxBytes },
) => {
  // Here only: no other route takes multipart bodies.
  await app.register(multipart);

  app.post(
    callPathOf('AdminUploadRelease').path,
    {
      schema: {
        consumes: ['multipart/form-data'],
        body: releaseUploadFormSchema,
        response: callReplies.AdminUploadRelease,
      },
      onRequest: guard.for('AdminUploadRelease'),
      // The body is a stream read by the handler, which checks the fields with the same schema.
      validatorCompiler: () => () => true,
      // An announced size over the limit is refused before a byte of the body is read.
      preValidation: async (request) => {
        const announced = Number(request.headers['content-length'] ?? 0);
        if (announced > maxBytes + FORM_OVERHEAD_BYTES) {
          throw new Fault('ReleaseFileTooLarge', { MaxBytes: String(maxBytes) });
        }
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw new Fault('ReleaseFileMissing');
      const part = await request
        .file({ limits: { fileSize: maxBytes + 1, files: 1, fields: 5, fieldSize: FIELD_BYTES, parts: 6 } })
        .catch(multipartFault);
      if (!part) throw new Fault('ReleaseFileMissing');
      const fields = releaseUploadFormFieldsSchema.safeParse(fieldValues(part.fields));
      if (!fields.success) {
        const variables = Object.fromEntries(
          fields.error.issues.map((issue) => [issue.path.join('.') || 'form', issue.message]),
        );
        throw new Fault('RequestInvalid', variables, fields.error.issues[0]?.message);
      }
      const { reason, ...release } = fields.data;
      const published = await releases
        .publish(release, { fileName: part.filename, stream: part.file }, (tx, stored) =>
          audit
            .append(tx, {
              actor: operatorOf(request),
              action: 'AdminUploadRelease',
              outcome: 'done',
              target: { type: 'release-file', id: stored.releaseFileId },
              after: {
                product: release.product,
                platform: release.platform,
                version: release.version,
                sha256: stored.sha256,
                sizeBytes: stored.sizeBytes,
              },
              reason,
              origin: originOf(request),
            })
            .then(() => undefined),
        )
        .catch(multipartFault);
      return { Success: true as const, Result: published };
    },
  );

  app.get(
    callPathOf('AdminReleases').path,
    {
      schema: { querystring: adminReleasesQuerySchema, ...callSchemas.AdminReleases },
      onRequest: guard.for('AdminReleases'),
    },
    async (request) => ({ Success: true as const, Result: await releases.list(request.query.product) }),
  );

  app.post(
    callPathOf('AdminRemoveRelease').path,
    {
      schema: { body: removeReleaseBodySchema, response: callReplies.AdminRemoveRelease },
      onRequest: guard.for('AdminRemoveRelease'),
    },
    async (request) => {
      const removed = await releases.remove(request.body.releaseFileId, (tx) =>
        audit
          .append(tx, {
            actor: operatorOf(request),
            action: 'AdminRemoveRelease',
            outcome: 'done',
            target: { type: 'release-file', id: request.body.releaseFileId },
            reason: request.body.reason,
            origin: originOf(request),
          })
          .then(() => undefined),
      );
      return { Success: true as const, Result: removed };
    },
  );
};

/** The text fields that came before the file, by name (a repeated field keeps its first value). */
function fieldValues(fields: Record<string, unknown>): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  for (const [name, entry] of Object.entries(fields)) {
    const first = Array.isArray(entry) ? entry[0] : entry;
    if (first && typeof first === 'object' && (first as { type?: string }).type === 'field') {
      values[name] = (first as { value: unknown }).value;
    }
  }
  return values;
}

/** The multipart parser's refusals as the contract's faults (a limit hit, a malformed body). */
function multipartFault(error: unknown): never {
  if (error instanceof Fault) throw error;
  const code = (error as { code?: string }).code ?? '';
  if (code === 'FST_REQ_FILE_TOO_LARGE') throw new Fault('ReleaseFileTooLarge');
  if (code.startsWith('FST_') && /MULTIPART|PARTS|FILES|FIELDS|PROTO/.test(code)) {
    throw new Fault('RequestInvalid', {}, 'The multipart form is not valid: the fields, then one file.');
  }
  throw error;
}
