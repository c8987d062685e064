import { callSchemas, operatorQueries } from '@soundid/contracts';
import { and, asc, count, eq, gt, isNull } from 'drizzle-orm';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database, DatabaseHandle } from '../../db/client';
import { devices, licences, licenseKeys } from '../../db/licences-schema';
import { sessions, socialAccounts } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { AccountService } from '../accounts/service';
import type { SessionService } from '../accounts/sessions';
import { findUserByEmail, toUser } from '../accounts/users-repo';
import type { AuditTrail } from '../operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../operators/operator-guard';

/** The operator API behind `npm run admin`: a customer, and the process's own figures (ADR 0044). */
export const adminRoutes: FastifyPluginAsyncZod<{
  db: Database;
  clock: Clock;
  database: DatabaseHandle;
  guard: OperatorGuard;
  audit: AuditTrail;
  accounts: AccountService;
  sessions: SessionService;
}> = async (app, { db, clock, database, guard, audit, accounts, sessions: sessionService }) => {
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
      const keys = await db
        .select({ key: licenseKeys.key, product: licenseKeys.productCode, registeredAt: licenseKeys.registeredAt })
        .from(licenseKeys)
        .where(eq(licenseKeys.userId, user.id))
        .orderBy(asc(licenseKeys.registeredAt));
      const active = await db
        .select({ device: devices, product: licences.productCode })
        .from(devices)
        .innerJoin(licences, eq(licences.id, devices.licenceId))
        .where(and(eq(devices.userId, user.id), isNull(devices.deactivatedAt)))
        .orderBy(asc(devices.activatedAt));
      return {
        Success: true as const,
        Result: {
          ...toUser(user),
          CreatedAt: user.createdAt.toISOString(),
          ActiveSessions: live?.n ?? 0,
          SocialProviders: providers.map((p) => p.provider),
          SignInLocked: await accounts.signInLocked(user.email),
          Keys: keys.map((k) => ({
            Product: k.product,
            KeyEnding: k.key.slice(-6),
            RegisteredAt: k.registeredAt?.toISOString() ?? null,
          })),
          Devices: active.map(({ device, product }) => ({
            Id: device.id,
            Product: product,
            Name: device.name,
            MachineId: device.machineId,
            ActivatedAt: device.activatedAt.toISOString(),
          })),
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
