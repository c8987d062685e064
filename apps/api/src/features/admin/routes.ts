import { backOfficeQueries, callSchemas, operatorQueries } from '@soundid/contracts';
import { and, count, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database, DatabaseHandle } from '../../db/client';
import { sessions } from '../../db/schema';
import type { JobQueue } from '../../integrations/job-queue';
import type { Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { AccountService } from '../accounts/service';
import type { SessionService } from '../accounts/sessions';
import { findUserByEmail } from '../accounts/users-repo';
import type { AuditTrail } from '../operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../operators/operator-guard';
import type { TokenLedger } from '../tokens/ledger';
import { CustomerPages } from './customer-page';
import { searchCustomers } from './customer-search';

/**
 * The operator API behind `npm run admin` and the console: finding a customer, the customer's
 * page, support's tickets, and the process's own figures (ADR 0044).
 */
export const adminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  clock: Clock;
  database: DatabaseHandle;
  guard: OperatorGuard;
  audit: AuditTrail;
  accounts: AccountService;
  sessions: SessionService;
  ledger: TokenLedger;
  jobs: JobQueue;
}> = async (app, { db, clock, database, guard, audit, accounts, sessions: sessionService, ledger, jobs }) => {
  const pages = new CustomerPages({ db, clock, ledger, audit, accounts });
  /** A customer's page (docs/api.md, Operators): never a secret of theirs. */
  app.get(
    '/api/admin/user',
    { schema: { querystring: operatorQueries.AdminUser, ...callSchemas.AdminUser }, onRequest: guard.for('AdminUser') },
    async (request) => {
      const user = await findUserByEmail(db, request.query.email);
      if (!user) throw new Fault('UserNotFound');
      return { Success: true as const, Result: await pages.read(user) };
    },
  );

  /** Customers by e-mail prefix, licence key, device, storefront order or invoice tag (a read: not audited). */
  app.get(
    '/api/admin/search-customers',
    {
      schema: { querystring: backOfficeQueries.AdminSearchCustomers, ...callSchemas.AdminSearchCustomers },
      onRequest: guard.for('AdminSearchCustomers'),
    },
    async (request) => ({
      Success: true as const,
      Result: await searchCustomers(db, request.query.q, request.query.by),
    }),
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

  /** The job queue, job by job (ADR 0051): schedules and what is queued, running, failed and done. */
  app.get('/api/admin/jobs', { schema: callSchemas.AdminJobs, onRequest: guard.for('AdminJobs') }, async () => ({
    Success: true as const,
    Result: {
      Jobs: (await jobs.summary()).map((job) => ({
        Name: job.name,
        Schedule: job.schedule,
        Queued: job.queued,
        Active: job.active,
        Failed: job.failed,
        Completed: job.completed,
        LastCompletedAt: job.lastCompletedAt?.toISOString() ?? null,
      })),
    },
  }));

  /** A scheduled job now (ADR 0051): queued with its audit entry, in one transaction. */
  app.post(
    '/api/admin/run-job',
    { schema: callSchemas.AdminRunJob, onRequest: guard.for('AdminRunJob') },
    async (request) => {
      const { name, reason } = request.body;
      await jobs.ready();
      const jobId = await db.transaction(async (tx) => {
        const id = await jobs.enqueueIn(tx, name, {});
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminRunJob',
          outcome: 'done',
          target: { type: 'job', id: name },
          after: { jobId: id, alreadyQueued: id === null },
          reason,
          origin: originOf(request),
        });
        return id;
      });
      return { Success: true as const, Result: { Name: name, JobId: jobId } };
    },
  );

  // Support's tickets on a customer's account (ADR 0044), each audited with its customer.
  const customer = async (email: string) => {
    const user = await findUserByEmail(db, email);
    if (!user) throw new Fault('UserNotFound');
    return user;
  };

  app.post(
    '/api/admin/unlock-sign-in',
    { schema: callSchemas.AdminUnlockSignIn, onRequest: guard.for('AdminUnlockSignIn') },
    async (request) => {
      const { email, reason } = request.body;
      // An address without an account can be locked too (guesses at it count): unlock it all the same.
      const user = await findUserByEmail(db, email);
      const wasLocked = await accounts.unlockSignIn(email, (tx, locked) =>
        audit
          .append(tx, {
            actor: operatorOf(request),
            action: 'AdminUnlockSignIn',
            outcome: 'done',
            target: { type: 'address', id: email.trim().toLowerCase() },
            ...(user ? { customer: { id: user.id, email: user.email } } : {}),
            before: { locked },
            after: { locked: false },
            reason,
            origin: originOf(request),
          })
          .then(() => undefined),
      );
      return { Success: true as const, Result: { WasLocked: wasLocked } };
    },
  );

  app.post(
    '/api/admin/end-customer-sessions',
    { schema: callSchemas.AdminEndCustomerSessions, onRequest: guard.for('AdminEndCustomerSessions') },
    async (request) => {
      const { email, reason } = request.body;
      const user = await customer(email);
      const ended = await db.transaction(async (tx) => {
        const [live] = await tx
          .select({ n: count() })
          .from(sessions)
          .where(and(eq(sessions.userId, user.id), isNull(sessions.revokedAt), gt(sessions.expiresAt, clock.now())));
        await sessionService.revokeAllOf(tx, user.id);
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminEndCustomerSessions',
          outcome: 'done',
          target: { type: 'customer', id: user.id },
          customer: { id: user.id, email: user.email },
          before: { liveSessions: live?.n ?? 0 },
          after: { liveSessions: 0 },
          reason,
          origin: originOf(request),
        });
        return live?.n ?? 0;
      });
      return { Success: true as const, Result: { SessionsEnded: ended } };
    },
  );

  app.post(
    '/api/admin/resend-verification',
    { schema: callSchemas.AdminResendVerification, onRequest: guard.for('AdminResendVerification') },
    async (request) => {
      const { email, reason } = request.body;
      const user = await customer(email);
      const sent = await accounts.resendVerificationFor(user.id);
      await audit.record({
        actor: operatorOf(request),
        action: 'AdminResendVerification',
        outcome: 'done',
        target: { type: 'customer', id: user.id },
        customer: { id: user.id, email: user.email },
        after: { sent, alreadyVerified: !sent },
        reason,
        origin: originOf(request),
      });
      return { Success: true as const, Result: { Sent: sent } };
    },
  );
};
