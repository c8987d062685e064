import { callSchemas, fileReplies } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client';
import { mailOutbox } from '../db/schema';
import { normalizeEmail } from '../features/accounts/users-repo';
import { attachmentDisposition } from '../integrations/object-storage';
import { Fault } from '../lib/fault';

/**
 * GET /api/dev/mail?to=… — the dev outbox, registered only outside production without SMTP — and
 * GET /api/dev/mail/<id>/attachments/<n>, a mail's file as it was sent.
 */
export const devMailboxRoutes: FastifyPluginAsyncZod<{ db: Database }> = async (app, { db }) => {
  app.get(
    '/api/dev/mail',
    { schema: { querystring: z.object({ to: z.string().max(320).optional() }), ...callSchemas.DevMail } },
    async (request) => {
      const { to } = request.query;
      const rows = await db
        .select()
        .from(mailOutbox)
        .where(to ? eq(mailOutbox.to, normalizeEmail(to)) : undefined)
        .orderBy(desc(mailOutbox.id))
        .limit(100);
      return {
        Success: true as const,
        Result: rows.map((m) => ({
          To: m.to,
          Subject: m.subject,
          Text: m.text,
          Html: m.html,
          Links: m.links,
          Attachments: m.attachments.map((file, n) => ({
            FileName: file.fileName,
            ContentType: file.contentType,
            SizeBytes: Buffer.byteLength(file.contentBase64, 'base64'),
            Url: `/api/dev/mail/${m.id}/attachments/${n}`,
          })),
          CreatedAt: m.createdAt.toISOString(),
        })),
      };
    },
  );

  app.get(
    '/api/dev/mail/:id/attachments/:n',
    {
      schema: {
        params: z.object({ id: z.coerce.number().int().positive(), n: z.coerce.number().int().min(0).max(99) }),
        response: fileReplies('application/octet-stream', 'The file, as an attachment under its name'),
      },
    },
    async (request, reply) => {
      const { id, n } = request.params;
      const [mail] = await db
        .select({ attachments: mailOutbox.attachments })
        .from(mailOutbox)
        .where(eq(mailOutbox.id, id));
      const file = mail?.attachments[n];
      if (!file) throw new Fault('NotFound');
      return (reply as FastifyReply)
        .header('Content-Type', file.contentType)
        .header('Content-Disposition', attachmentDisposition(file.fileName))
        .send(Buffer.from(file.contentBase64, 'base64'));
    },
  );
};
