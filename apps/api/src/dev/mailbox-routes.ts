import { callSchemas } from '@soundid/contracts';
import { desc, eq } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Database } from '../db/client';
import { mailOutbox } from '../db/schema';
import { normalizeEmail } from '../features/accounts/users-repo';

/** GET /api/dev/mail?to=… — the dev outbox, registered only outside production without SMTP. */
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
          CreatedAt: m.createdAt.toISOString(),
        })),
      };
    },
  );
};
