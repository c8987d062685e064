import { DEVICE_DEACTIVATION_LIMIT, DEVICE_DEACTIVATION_WINDOW_DAYS, REFERENCE_TRIAL_DAYS } from '@soundid/contracts';
import { and, eq, gt, inArray, isNull } from 'drizzle-orm';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';
import { withInvariants } from '../../../test/model-commands';
import { COUNTED_DEACTIVATION_CAUSES, devices } from '../../db/licences-schema';
import { users } from '../../db/schema';
import { activate, getAction, licenceList, ownKey, signIn } from './test-helpers';

/**
 * Model-based test of one customer's licence of SoundID Reference (fast-check `commands`):
 * keys registered and removed, a trial, activations and deactivations by app and by action URL,
 * and time passing. After every command the service agrees with a small model, and the
 * invariants hold: never more active devices than seats while seats exist, one active row per
 * machine, deactivations within their limit, the same machine activating again is no new seat.
 */
const PRODUCT = 'SoundIDReference';
const CODE = 'sid-reference';
const SEATS_PER_KEY = 3;
const DAY_MS = 86_400_000;
const RUNS = Number(process.env.MODEL_RUNS ?? 12);

interface Model {
  keys: number;
  trialEndsAt: number | null;
  trialStarted: boolean;
  /** Active machines, oldest activation first, with their device ids. */
  active: { machine: string; deviceId: string; activatedAt: number }[];
  /** When each counted deactivation (customer, app, or a machine a key's removal released) happened. */
  deactivations: number[];
}

interface Real {
  t: TestApp;
  email: string;
  userId: string;
  token: string;
}

let t: TestApp;
let customers = 0;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const now = () => t.clock.now().getTime();

function seatsWith(m: Model, keys: number): number {
  if (keys > 0) return keys * SEATS_PER_KEY;
  return m.trialEndsAt !== null && m.trialEndsAt > now() ? SEATS_PER_KEY : 0;
}

const seats = (m: Model) => seatsWith(m, m.keys);

/** Counted deactivations (by customer, app or a key's removal) left in the rolling window. */
function deactivationsLeft(m: Model): number {
  const since = now() - DEVICE_DEACTIVATION_WINDOW_DAYS * DAY_MS;
  return DEVICE_DEACTIVATION_LIMIT - m.deactivations.filter((at) => at > since).length;
}

const isUnderDeactivationLimit = (m: Model) => deactivationsLeft(m) > 0;

const machines = fc.constantFrom('mac-studio', 'mac-laptop', 'win-tower', 'win-laptop', 'linux-box', 'spare-mac');

class RegisterKey implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    await ownKey(r.t, r.token, CODE);
    m.keys += 1;
  }
  toString = () => 'registerKey';
}

class RemoveKey implements fc.AsyncCommand<Model, Real> {
  constructor(readonly pick: number) {}
  check = (m: Readonly<Model>) => m.keys > 0;
  async run(m: Model, r: Real) {
    const product = (await licenceList(r.t, r.token)).ReferenceProducts.Products[0];
    const key = product.LicenseKeys[this.pick % product.LicenseKeys.length];
    const res = await getAction(r.t, key.ActionButtons[0].ExternalRequest.Url, r.token);
    // The newest activations beyond the seats that remain end, and count (ADR 0030): a removal
    // the allowance cannot cover is refused and changes nothing.
    const kept = m.active.slice(0, seatsWith(m, m.keys - 1));
    const released = m.active.length - kept.length;
    if (released > deactivationsLeft(m)) {
      expect(faultOf(res)).toBe('KeyRevokeOverLimit');
      return;
    }
    expect(res.json().Result.Message).toBe('License removed successfully.');
    m.keys -= 1;
    m.active = kept;
    for (let i = 0; i < released; i++) m.deactivations.push(now());
  }
  toString = () => `removeKey(${this.pick})`;
}

class StartTrial implements fc.AsyncCommand<Model, Real> {
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await getAction(r.t, `/api/actions/trials/${CODE}/starttrial`, r.token);
    if (m.trialEndsAt !== null && m.trialEndsAt > now()) {
      expect(res.statusCode).toBe(200);
    } else if (m.trialStarted) {
      expect(faultOf(res)).toBe('TrialAlreadyUsed');
    } else {
      expect(res.statusCode).toBe(200);
      m.trialStarted = true;
      m.trialEndsAt = now() + REFERENCE_TRIAL_DAYS * DAY_MS;
    }
  }
  toString = () => 'startTrial';
}

class Activate implements fc.AsyncCommand<Model, Real> {
  constructor(readonly machine: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    // Distinct activation times keep "the newest activations" well defined.
    r.t.clock.advanceMinutes(1);
    const res = await activate(r.t, r.token, PRODUCT, this.machine, `device ${this.machine}`);
    const existing = m.active.find((d) => d.machine === this.machine);
    if (seats(m) === 0) {
      expect(faultOf(res)).toBe('NoLicenseForProduct');
    } else if (existing) {
      expect(res.json().Result).toEqual({
        DeviceId: existing.deviceId,
        InstancesUsed: m.active.length,
        InstancesMax: seats(m),
      });
    } else if (m.active.length >= seats(m)) {
      expect(faultOf(res)).toBe('SeatLimitReached');
    } else {
      const result = res.json().Result;
      expect(result).toMatchObject({ InstancesUsed: m.active.length + 1, InstancesMax: seats(m) });
      m.active.push({ machine: this.machine, deviceId: result.DeviceId, activatedAt: now() });
    }
  }
  toString = () => `activate(${this.machine})`;
}

/** The app deactivating its own machine, or the customer through the device's action URL. */
class Deactivate implements fc.AsyncCommand<Model, Real> {
  constructor(
    readonly machine: string,
    readonly by: 'app' | 'panel',
  ) {}
  check = (m: Readonly<Model>) => this.by === 'app' || m.active.some((d) => d.machine === this.machine);
  async run(m: Model, r: Real) {
    const device = m.active.find((d) => d.machine === this.machine);
    const res =
      this.by === 'app'
        ? await r.t.call('/api/apps/DeactivateDevice', { productName: PRODUCT, machineId: this.machine }, r.token)
        : await getAction(r.t, `/api/actions/devices/${device?.deviceId}/deactivate`, r.token);
    if (!device) {
      expect(faultOf(res)).toBe('DeviceNotFound');
    } else if (!isUnderDeactivationLimit(m)) {
      expect(faultOf(res)).toBe('KeyRevokeOverLimit');
    } else {
      expect(res.statusCode).toBe(200);
      m.active = m.active.filter((d) => d !== device);
      m.deactivations.push(now());
    }
  }
  toString = () => `deactivate(${this.machine}, ${this.by})`;
}

class CheckLicense implements fc.AsyncCommand<Model, Real> {
  constructor(readonly machine: string) {}
  check = () => true;
  async run(m: Model, r: Real) {
    const res = await r.t.call('/api/apps/CheckLicense', { productName: PRODUCT, machineId: this.machine }, r.token);
    const device = m.active.find((d) => d.machine === this.machine);
    expect(res.json().Result).toMatchObject({
      Licensed: Boolean(device) && seats(m) > 0,
      DeviceId: device?.deviceId ?? null,
      InstancesUsed: m.active.length,
      InstancesMax: seats(m),
    });
  }
  toString = () => `checkLicense(${this.machine})`;
}

class AdvanceDays implements fc.AsyncCommand<Model, Real> {
  constructor(readonly days: number) {}
  check = () => true;
  async run(_m: Model, r: Real) {
    r.t.clock.advanceHours(this.days * 24);
    // Time may have ended the session; the customer signs in again, as an app would.
    r.token = await signIn(r.t, r.email);
  }
  toString = () => `advance(${this.days}d)`;
}

/** The invariants, checked against the database and the licence list after every command. */
async function assertInvariants(m: Model, r: Real): Promise<void> {
  const rows = await r.t.database.db
    .select({ machineId: devices.machineId, id: devices.id })
    .from(devices)
    .where(and(eq(devices.userId, r.userId), isNull(devices.deactivatedAt)));
  expect(new Set(rows.map((row) => row.machineId)).size).toBe(rows.length);
  expect(rows.map((row) => row.id).sort()).toEqual(m.active.map((d) => d.deviceId).sort());
  const max = seats(m);
  if (max > 0) expect(rows.length).toBeLessThanOrEqual(max);
  // Every release of a machine the customer caused counts, and they stay within the limit.
  const since = new Date(now() - DEVICE_DEACTIVATION_WINDOW_DAYS * DAY_MS);
  const counted = await r.t.database.db
    .select({ id: devices.id })
    .from(devices)
    .where(
      and(
        eq(devices.userId, r.userId),
        gt(devices.deactivatedAt, since),
        inArray(devices.deactivationCause, [...COUNTED_DEACTIVATION_CAUSES]),
      ),
    );
  expect(counted.length).toBe(DEVICE_DEACTIVATION_LIMIT - deactivationsLeft(m));
  expect(counted.length).toBeLessThanOrEqual(DEVICE_DEACTIVATION_LIMIT);
  const product = (await licenceList(r.t, r.token)).ReferenceProducts.Products.find(
    (p: { ProductName: string }) => p.ProductName === PRODUCT,
  );
  if (product) {
    expect([product.InstancesUsed, product.InstancesMax, product.LicenseKeys.length]).toEqual([
      m.active.length,
      max,
      m.keys,
    ]);
  } else {
    expect([m.keys, m.active.length, m.trialStarted]).toEqual([0, 0, false]);
  }
}

const commands = [
  fc.constant(new RegisterKey()),
  fc.nat(5).map((pick) => new RemoveKey(pick)),
  fc.constant(new StartTrial()),
  machines.map((machine) => new Activate(machine)),
  machines.map((machine) => new Activate(machine)),
  fc.tuple(machines, fc.constantFrom('app' as const, 'panel' as const)).map(([mc, by]) => new Deactivate(mc, by)),
  machines.map((machine) => new CheckLicense(machine)),
  fc.integer({ min: 1, max: 25 }).map((days) => new AdvanceDays(days)),
].map((arbitrary) => arbitrary.map((command) => withInvariants(command, assertInvariants)));

/**
 * A run the seeded ones may miss, always checked first: a removal that releases machines, which
 * count towards the allowance (ADR 0030).
 */
const removalReleasingMachines = [
  new RegisterKey(),
  new Activate('mac-studio'),
  new Activate('win-tower'),
  new Deactivate('mac-studio', 'app'),
  new RemoveKey(0),
  new RegisterKey(),
  new Activate('linux-box'),
].map((command) => withInvariants(command, assertInvariants));

describe('licence state machine', () => {
  it('agrees with the model and keeps its invariants after every command', async () => {
    await fc.assert(
      fc.asyncProperty(fc.commands(commands, { maxCommands: 18 }), async (cmds) => {
        customers += 1;
        const email = `model${customers}@example.com`;
        const token = await signUpVerified(t, email);
        const [user] = await t.database.db.select({ id: users.id }).from(users).where(eq(users.email, email));
        const setup = async () => ({
          model: { keys: 0, trialEndsAt: null, trialStarted: false, active: [], deactivations: [] } as Model,
          real: { t, email, userId: user?.id as string, token },
        });
        await fc.asyncModelRun(setup, cmds);
      }),
      { numRuns: RUNS, seed: 6_2026, examples: [[removalReleasingMachines]] },
    );
  });
});
