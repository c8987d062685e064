import { licenceMessages, RELEASE_IDLE_SEATS_JOB } from '@soundid/contracts';
import { and, asc, eq, gt, isNull, lt, or, type SQL } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client';
import { devices, licences } from '../../db/licences-schema';
import { users } from '../../db/schema';
import type { JobDefinition } from '../../integrations/job-queue';
import { renderMail } from '../../integrations/mail/layout';
import type { OutgoingMail } from '../../integrations/mail/types';
import { addDays, type Clock } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { Mailer } from '../mail/mailer';
import { idleReleaseDaysOf, isActivatable, PRODUCTS, type Product, productByCode } from './catalogue';
import { deactivate, lockActiveDevice } from './repo';

/**
 * Idle seats (docs/decisions/0052-idle-seats.md): an online activation whose app has not been seen
 * for the product's idle days is released, outside the deactivation allowance ('idle'), and its
 * owner is told by mail. The sweep runs hourly on the job queue (docs/decisions/0051-job-queue.md);
 * the mail is queued in the release's transaction, so it goes if and only if the seat was released.
 */
export { RELEASE_IDLE_SEATS_JOB };
export const IDLE_SEAT_MAIL_JOB = 'idle-seat-mail';
/** Minute 17 of every hour, UTC: off the hour, when other schedules of the world run. */
export const RELEASE_IDLE_SEATS_SCHEDULE = '17 * * * *';
/** Seats read per query; each is released in a transaction of its own. */
const SWEEP_BATCH = 200;

export interface ReleasedSeat {
  deviceId: string;
  userId: string;
  productCode: string;
  lastSeenAt: Date;
  idleDays: number;
}

export interface IdleSeatsDeps {
  db: Database;
  clock: Clock;
  /** Before the first release: makes ready what onReleased needs (the job queue started). */
  prepare(): Promise<void>;
  /** Called in the release's transaction: queues the owner's mail (the root wires the job queue). */
  onReleased(tx: Transaction, seat: ReleasedSeat): Promise<void>;
}

export class IdleSeats {
  constructor(private readonly deps: IdleSeatsDeps) {}

  /**
   * Releases every seat due now, product by product, oldest first. Reads only due seats (the
   * partial index devices_idle_idx); each release locks the licence and checks again that the
   * seat is still active and still unseen, so a check-in racing the sweep keeps its seat and two
   * sweeps never release one seat twice.
   */
  async sweep(): Promise<{ released: number; byProduct: Record<string, number> }> {
    await this.deps.prepare();
    const now = this.deps.clock.now();
    const byProduct: Record<string, number> = {};
    let released = 0;
    for (const product of PRODUCTS.filter(isActivatable)) {
      const n = await this.sweepProduct(product, now);
      if (n > 0) byProduct[product.code] = n;
      released += n;
    }
    return { released, byProduct };
  }

  private async sweepProduct(product: Product, now: Date): Promise<number> {
    const idleDays = idleReleaseDaysOf(product);
    const cutoff = addDays(now, -idleDays);
    let released = 0;
    let after: { lastSeenAt: Date; id: string } | undefined;
    for (;;) {
      const due = await dueSeatsPage(this.deps.db, product.code, cutoff, after);
      for (const seat of due) {
        if (await this.release(seat.userId, seat.id, cutoff, now, idleDays)) released += 1;
      }
      const last = due.at(-1);
      if (due.length < SWEEP_BATCH || !last?.lastSeenAt) return released;
      after = { lastSeenAt: last.lastSeenAt, id: last.id };
    }
  }

  private async release(userId: string, deviceId: string, cutoff: Date, now: Date, idleDays: number): Promise<boolean> {
    try {
      return await this.deps.db.transaction(async (tx) => {
        const { device, licence } = await lockActiveDevice(tx, userId, deviceId);
        // Seen (or deactivated) since it was read: it keeps its seat.
        if (device.method !== 'online' || !device.lastSeenAt || device.lastSeenAt >= cutoff) return false;
        await deactivate(tx, licence, [device.id], now, 'idle');
        await this.deps.onReleased(tx, {
          deviceId: device.id,
          userId,
          productCode: licence.productCode,
          lastSeenAt: device.lastSeenAt,
          idleDays,
        });
        return true;
      });
    } catch (error) {
      // Deactivated (or its account deleted) since it was read.
      if (error instanceof Fault && error.faultName === 'DeviceNotFound') return false;
      throw error;
    }
  }
}

/**
 * One page of a product's due seats, oldest first, after `after` (keyset): an index range scan of
 * devices_idle_idx that stops at SWEEP_BATCH rows (plan in docs/benchmarks.md, Scale).
 */
export function dueSeatsPage(
  db: Database,
  productCode: string,
  cutoff: Date,
  after?: { lastSeenAt: Date; id: string },
) {
  const page: SQL | undefined = after
    ? or(
        gt(devices.lastSeenAt, after.lastSeenAt),
        and(eq(devices.lastSeenAt, after.lastSeenAt), gt(devices.id, after.id)),
      )
    : undefined;
  return db
    .select({ id: devices.id, userId: devices.userId, lastSeenAt: devices.lastSeenAt })
    .from(devices)
    .innerJoin(licences, eq(licences.id, devices.licenceId))
    .where(and(dueSeats(cutoff), eq(licences.productCode, productCode), page))
    .orderBy(asc(devices.lastSeenAt), asc(devices.id))
    .limit(SWEEP_BATCH);
}

/** Active online activations last seen before `cutoff` (never-seen rows predate ADR 0049 and are left alone). */
export function dueSeats(cutoff: Date) {
  return and(isNull(devices.deactivatedAt), eq(devices.method, 'online'), lt(devices.lastSeenAt, cutoff));
}

/** The owner's mail about a released seat. */
export function idleSeatMail(input: {
  to: string;
  deviceName: string;
  productName: string;
  idleDays: number;
  lastSeenAt: Date;
  publicUrl: string;
}): OutgoingMail {
  const device = input.deviceName || licenceMessages.unnamedDevice;
  const seen = new Intl.DateTimeFormat('en-GB', {
    day: 'numeric',
    month: 'long',
    year: 'numeric',
    timeZone: 'UTC',
  }).format(input.lastSeenAt);
  return renderMail({
    to: input.to,
    subject: `${device} was signed out of ${input.productName}`,
    heading: `A seat of your ${input.productName} license is free again`,
    intro: [
      `${device} had not checked in with ${input.productName} for ${input.idleDays} days (it was last seen on ${seen}), so we signed it out and freed its seat for another computer.`,
      'This did not use one of your deactivations.',
      `If you use that computer again, open ${input.productName} while it is online: it gets its seat back by itself if one is free.`,
    ],
    action: { label: licenceMessages.toProducts, link: `${input.publicUrl}/products` },
    outro: ['You can see your computers and free seats on Licenses & Devices at any time.'],
  });
}

/**
 * The jobs: the hourly sweep (one at a time across the replicas) and one mail per released seat
 * (the mailer records a delivery that failed, as for every mail: ADR 0038, and the job is tried
 * again with backoff until its retry limit).
 */
export function idleSeatJobs(deps: {
  idleSeats: IdleSeats;
  db: Database;
  mailer: Mailer;
  publicUrl: string;
}): JobDefinition<object>[] {
  const sweep: JobDefinition<object> = {
    name: RELEASE_IDLE_SEATS_JOB,
    schedule: RELEASE_IDLE_SEATS_SCHEDULE,
    policy: 'exclusive',
    retryLimit: 2,
    expireInSeconds: 15 * 60,
    run: async () => deps.idleSeats.sweep(),
  };
  const mail: JobDefinition<ReleasedSeat> = {
    name: IDLE_SEAT_MAIL_JOB,
    retryLimit: 5,
    run: async (seat) => {
      const [row] = await deps.db
        .select({ to: users.email, deviceName: devices.name })
        .from(devices)
        .innerJoin(users, eq(users.id, devices.userId))
        .where(eq(devices.id, seat.deviceId));
      // The account was deleted since: no one to tell.
      if (!row) return { sent: false };
      const product = productByCode(seat.productCode);
      await deps.mailer.send(
        idleSeatMail({
          to: row.to,
          deviceName: row.deviceName,
          productName: product?.displayName ?? seat.productCode,
          idleDays: seat.idleDays,
          lastSeenAt: new Date(seat.lastSeenAt),
          publicUrl: deps.publicUrl,
        }),
        { userId: seat.userId },
        // A failed delivery fails the job: the queue tries it again later (retryLimit above).
        { onFailure: 'throw' },
      );
      return { sent: true };
    },
  };
  return [sweep, mail as unknown as JobDefinition<object>];
}
