import { callSchemas, operatorQueries } from '@soundid/contracts';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database, DatabaseHandle } from '../../db/client';
import { sessions, socialAccounts } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { findUserByEmail, toUser } from '../accounts/users-repo';
import type { OperatorGuard } from '../operators/operator-guard';

/** The operator API behind `npm run admin`: a customer, and the process's own figures (ADR 0044). */
export const adminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  clock: Clock;
  database: DatabaseHandle;
  guard: OperatorGuard;
}> = async (app, { db, clock, database, guard }) => {
  app.get(
    '/api/admin/user',
    { schema: { querystring: operatorQueries.AdminUser, ...callSchemas.AdminUser }, onRequest: guard.for('AdminUser') },
    async (request) => {
      const user = await findUserByEmail(db, request.query.email);
      if (!user) throw new Fault('UserNotFound');
      const [live] = await db
        .select({ n: count() })
        .from(sessions)
        .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now())));
      const providers = await db
        .select({ provider: socialAccounts.provider })
        .from(socialAccounts)
        .where(eq(socialAccounts.userId, user.id));
      return {
        Success: true as const,
        Result: {
          ...toUser(user),
          CreatedAt: user.createdAt.toISOString(),
          ActiveSessions: live?.n ?? 0,
          SocialProviders: providers.map((p) => p.provider),
        },
      };
    },
  );

  /** Memory and database connections, for operators and the load test (`?gc=1` collects first when allowed). */
  app.get(
    '/api/admin/metrics',
    {
      schema: { querystring: operatorQueries.AdminMetrics, ...callSchemas.AdminMetrics },
      onRequest: guard.for('AdminMetrics'),
    },
    async (request) => {
      const collect = (globalThis as { gc?: () => void }).gc;
      if (request.query.gc === '1' && collect) collect();
      const memory = process.memoryUsage();
      return {
        Success: true as const,
        Result: {
          HeapUsedBytes: memory.heapUsed,
          RssBytes: memory.rss,
          Collected: request.query.gc === '1' && collect !== undefined,
          UptimeSeconds: Math.round(process.uptime()),
          Database: { Kind: database.kind, Connections: database.connections() },
        },
      };
    },
  );
};
