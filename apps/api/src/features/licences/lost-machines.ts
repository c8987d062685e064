import {
  LOST_REPORT_WINDOW_DAYS,
  LOST_REPORTS_PER_LICENCE,
  type LostReportReason,
  licenceMessages,
} from '@soundid/contracts';
import { and, count, eq, gt, isNull, type SQLWrapper } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../../db/client';
import { type DeviceRow, devices, lostMachines } from '../../db/licences-schema';
import { addDays, type Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { deactivate, lockActiveDevice, lockLicenceById } from './repo';

/** The standing report on a machine of a licence, if any (refused by ActivateDevice and CheckLicense). */
export function standingReport(licenceId: string | SQLWrapper, machineId: string | SQLWrapper) {
  return and(
    eq(lostMachines.licenceId, licenceId),
    eq(lostMachines.machineId, machineId),
    isNull(lostMachines.undoneAt),
  );
}

export async function isReportedLost(db: Queryable, licenceId: string, machineId: string): Promise<boolean> {
  const [row] = await db.select({ id: lostMachines.id }).from(lostMachines).where(standingReport(licenceId, machineId));
  return Boolean(row);
}

/** What support's undo reports and audits. */
export interface UndoneReport {
  device: Pick<DeviceRow, 'id' | 'name' | 'machineId'>;
  productCode: string;
  userId: string;
  reason: LostReportReason;
  reportedAt: Date;
}

/**
 * Lost or stolen machines (docs/decisions/0050-lost-or-stolen.md): the customer's report frees the
 * seat outside the deactivation allowance and refuses the machine for the licence; support undoes
 * a report once the machine is found. Both lock the licence row first, as every seat change does.
 */
export class LostMachines {
  constructor(private readonly deps: { db: Database; clock: Clock }) {}

  async report(
    userId: string,
    input: { deviceId: string; reason: LostReportReason; note?: string | undefined },
  ): Promise<{ Message: string }> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const { device, licence } = await lockActiveDevice(tx, userId, input.deviceId);
      const [standing] = await tx
        .select({ n: count() })
        .from(lostMachines)
        .where(
          and(
            eq(lostMachines.licenceId, licence.id),
            gt(lostMachines.reportedAt, addDays(now, -LOST_REPORT_WINDOW_DAYS)),
            isNull(lostMachines.undoneAt),
          ),
        );
      if ((standing?.n ?? 0) >= LOST_REPORTS_PER_LICENCE) throw new Fault('LostReportLimitReached');
      await deactivate(tx, licence, [device.id], now, 'lost');
      await tx.insert(lostMachines).values({
        licenceId: licence.id,
        userId,
        deviceId: device.id,
        machineId: device.machineId,
        reason: input.reason,
        note: input.note?.trim() || null,
        reportedAt: now,
      });
      return { Message: licenceMessages.deviceReportedLost(device.name) };
    });
  }

  /** Support's undo: the machine may activate again (it takes a seat like any other); the report stops counting. */
  async undo(
    deviceId: string,
    /** Writes the change's audit entry in its transaction (ADR 0045). */
    record: (tx: Transaction, undone: UndoneReport) => Promise<void>,
  ): Promise<UndoneReport> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const [report] = await tx
        .select({ report: lostMachines, device: { id: devices.id, name: devices.name, machineId: devices.machineId } })
        .from(lostMachines)
        .innerJoin(devices, eq(devices.id, lostMachines.deviceId))
        .where(and(eq(lostMachines.deviceId, deviceId), isNull(lostMachines.undoneAt)));
      if (!report) throw new Fault('DeviceNotFound');
      const licence = await lockLicenceById(tx, report.report.userId, report.report.licenceId);
      if (!licence) throw new Fault('DeviceNotFound');
      const undone = await tx
        .update(lostMachines)
        .set({ undoneAt: now })
        .where(and(eq(lostMachines.id, report.report.id), isNull(lostMachines.undoneAt)))
        .returning({ id: lostMachines.id });
      // Undone by a racing operator between the read and the lock: nothing left to undo.
      if (undone.length === 0) throw new Fault('DeviceNotFound');
      const result: UndoneReport = {
        device: report.device,
        productCode: licence.productCode,
        userId: report.report.userId,
        reason: report.report.reason,
        reportedAt: report.report.reportedAt,
      };
      await record(tx, result);
      return result;
    });
  }
}
