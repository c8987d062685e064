import { callSchemas, licenceKeyEnding } from '@soundid/contracts';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Database, Queryable } from '../../db/client';
import type { Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { findUserByEmail, findUserById } from '../accounts/users-repo';
import type { AuditTrail } from '../operators/audit-trail';
import { type OperatorGuard, operatorOf, originOf } from '../operators/operator-guard';
import { CAMPAIGN_ADAM, PRODUCTS } from './catalogue';
import { addSerials, issueKeys, issueUpgradeCodes } from './issuance';
import type { LostMachines } from './lost-machines';
import { serialsFromCsv } from './serial-import';
import type { LicenceService } from './service';

/**
 * A serial import's body: the contract's 2,000,000 characters of CSV as JSON (line breaks and
 * quotes escaped) and a reason; a larger one is RequestTooLarge. The app's default is 64 KiB.
 */
const IMPORT_BODY_LIMIT = 3 * 1024 * 1024;

/** What the audit keeps of issued keys and codes: how many, and each one's last six characters. */
const tails = (codes: string[]) => codes.map(licenceKeyEnding);

/**
 * Operator API of the licences area (`npm run admin -- products|issue-keys|issue-upgrade-codes|add-serials|import-serials`):
 * the catalogue for every operator; issuing and importing for admins, each issue audited in
 * the transaction that writes it (ADR 0045).
 */
export const licenceAdminRoutes: FastifyPluginAsyncZod<{
  licences: LicenceService;
  lostMachines: LostMachines;
  db: Database;
  random: Random;
  guard: OperatorGuard;
  audit: AuditTrail;
}> = async (app, { licences, lostMachines, db, random, guard, audit }) => {
  /** Serials of the campaign and their audit entry, in one transaction (ADR 0045). */
  const addSerialsAudited = (
    request: FastifyRequest,
    action: 'AdminAddSerials' | 'AdminImportSerials',
    serials: string[],
    reason: string,
  ) =>
    db.transaction(async (tx) => {
      const added = await addSerials(tx, serials);
      await audit.append(tx, {
        actor: operatorOf(request),
        action,
        outcome: 'done',
        target: { type: 'campaign', id: CAMPAIGN_ADAM.id },
        after: { rows: serials.length, ...added },
        reason,
        origin: originOf(request),
      });
      return added;
    });

  app.get(
    '/api/admin/products',
    { schema: callSchemas.AdminProducts, onRequest: guard.for('AdminProducts') },
    async () => ({
      Success: true as const,
      Result: PRODUCTS.map((p) => ({
        Code: p.code,
        ProductName: p.productName,
        DisplayName: p.displayName,
        Line: p.line,
        Kind: p.kind,
        InstancesMax: p.instancesMax,
        TrialDays: p.trialDays ?? null,
      })),
    }),
  );

  app.post(
    '/api/admin/issue-keys',
    { schema: callSchemas.AdminIssueKeys, onRequest: guard.for('AdminIssueKeys') },
    async (request) => {
      const { product, count, reason } = request.body;
      const keys = await db.transaction(async (tx) => {
        const issued = await issueKeys(licences, tx, product, count);
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminIssueKeys',
          outcome: 'done',
          target: { type: 'product', id: product },
          after: { count, keyEndings: tails(issued) },
          reason,
          origin: originOf(request),
        });
        return issued;
      });
      return { Success: true as const, Result: { Keys: keys } };
    },
  );

  app.post(
    '/api/admin/issue-upgrade-codes',
    { schema: callSchemas.AdminIssueUpgradeCodes, onRequest: guard.for('AdminIssueUpgradeCodes') },
    async (request) => {
      const { product, from, count, shape, reason } = request.body;
      const codes = await db.transaction(async (tx) => {
        const issued = await issueUpgradeCodes(tx, random, { target: product, from, count, shape });
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminIssueUpgradeCodes',
          outcome: 'done',
          target: { type: 'product', id: product },
          after: { from, count, shape, codeEndings: tails(issued) },
          reason,
          origin: originOf(request),
        });
        return issued;
      });
      return { Success: true as const, Result: { Codes: codes } };
    },
  );

  app.post(
    '/api/admin/add-serials',
    { schema: callSchemas.AdminAddSerials, onRequest: guard.for('AdminAddSerials') },
    async (request) => {
      const { serials, reason } = request.body;
      return { Success: true as const, Result: await addSerialsAudited(request, 'AdminAddSerials', serials, reason) };
    },
  );

  // A CSV file of serials, all or nothing (docs/decisions/0048-csv-import.md): every row is
  // checked before anything is written, then the same insert as add-serials, in one transaction.
  app.post(
    '/api/admin/import-serials',
    {
      schema: callSchemas.AdminImportSerials,
      onRequest: guard.for('AdminImportSerials'),
      bodyLimit: IMPORT_BODY_LIMIT,
    },
    async (request) => {
      const { csv, reason } = request.body;
      const serials = serialsFromCsv(csv);
      const added = await addSerialsAudited(request, 'AdminImportSerials', serials, reason);
      return { Success: true as const, Result: { Rows: serials.length, ...added } };
    },
  );

  // Support's tickets on licences and devices (ADR 0044), each audited with its customer.
  app.post(
    '/api/admin/deactivate-device',
    { schema: callSchemas.AdminDeactivateDevice, onRequest: guard.for('AdminDeactivateDevice') },
    async (request) => {
      const { deviceId, reason } = request.body;
      let customer = { id: '', email: '' };
      const ended = await licences.deactivateBySupport(deviceId, async (tx, { device, productCode, userId }) => {
        customer = await customerOf(tx, userId);
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminDeactivateDevice',
          outcome: 'done',
          target: { type: 'device', id: deviceId },
          customer,
          before: { device: device.name, machineId: device.machineId, product: productCode, active: true },
          after: { active: false, counted: false },
          reason,
          origin: originOf(request),
        });
      });
      return {
        Success: true as const,
        Result: { Device: ended.device.name, Product: ended.productCode, Customer: customer.email },
      };
    },
  );

  app.post(
    '/api/admin/undo-lost-report',
    { schema: callSchemas.AdminUndoLostReport, onRequest: guard.for('AdminUndoLostReport') },
    async (request) => {
      const { deviceId, reason } = request.body;
      let customer = { id: '', email: '' };
      const undone = await lostMachines.undo(deviceId, async (tx, report) => {
        customer = await customerOf(tx, report.userId);
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminUndoLostReport',
          outcome: 'done',
          target: { type: 'device', id: deviceId },
          customer,
          before: {
            device: report.device.name,
            machineId: report.device.machineId,
            product: report.productCode,
            reported: report.reason,
            reportedAt: report.reportedAt.toISOString(),
          },
          after: { refused: false },
          reason,
          origin: originOf(request),
        });
      });
      return {
        Success: true as const,
        Result: { Device: undone.device.name, Product: undone.productCode, Customer: customer.email },
      };
    },
  );

  app.post(
    '/api/admin/move-licence',
    { schema: callSchemas.AdminMoveLicence, onRequest: guard.for('AdminMoveLicence') },
    async (request) => {
      const { key, toEmail, reason } = request.body;
      const target = await findUserByEmail(db, toEmail);
      if (!target) throw new Fault('UserNotFound');
      let from: string | null = null;
      const moved = await licences.moveKey(key, target.id, async (tx, { productCode, fromUserId }) => {
        from = fromUserId ? (await customerOf(tx, fromUserId)).email : null;
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminMoveLicence',
          outcome: 'done',
          target: { type: 'licence-key', id: licenceKeyEnding(key) },
          customer: { id: target.id, email: target.email },
          before: { owner: from, product: productCode },
          after: { owner: target.email },
          reason,
          origin: originOf(request),
        });
      });
      return { Success: true as const, Result: { Product: moved.productCode, From: from, To: target.email } };
    },
  );

  app.post(
    '/api/admin/reset-deactivations',
    { schema: callSchemas.AdminResetDeactivations, onRequest: guard.for('AdminResetDeactivations') },
    async (request) => {
      const { key, reason } = request.body;
      const reset = await licences.resetDeactivations(key, async (tx, { productCode, userId, forgiven }) => {
        await audit.append(tx, {
          actor: operatorOf(request),
          action: 'AdminResetDeactivations',
          outcome: 'done',
          target: { type: 'licence-key', id: licenceKeyEnding(key) },
          customer: await customerOf(tx, userId),
          before: { product: productCode, deactivationsUsed: forgiven },
          after: { deactivationsUsed: 0, forgiven },
          reason,
          origin: originOf(request),
        });
      });
      return {
        Success: true as const,
        Result: { Product: reset.productCode, KeyEnding: licenceKeyEnding(key), Forgiven: reset.forgiven },
      };
    },
  );
};

/** A customer's id and address, for the audit trail. */
async function customerOf(db: Queryable, userId: string): Promise<{ id: string; email: string }> {
  const user = await findUserById(db, userId);
  return { id: userId, email: user?.email ?? '(deleted)' };
}
