import {
  type ActionResult,
  type ActivateDeviceResult,
  type CheckLicenseResult,
  type ClaimAdam60DayResult,
  DEVICE_DEACTIVATION_LIMIT,
  DEVICE_DEACTIVATION_WINDOW_DAYS,
  type DeactivateDeviceResult,
  type DeactivationAllowance,
  isMaskedLicenseKey,
  isValidVoiceAiUpgradeCode,
  type KeyUpgradePathsResult,
  type LicenceKind,
  licenceMessages,
  maskEmail,
  maskLicenseKey,
  messages,
  type RegisterKeyResult,
  toDotNetDate,
  type UpgradeKeyResult,
} from '@soundid/contracts';
import { and, desc, eq, isNull } from 'drizzle-orm';
import type { Database, Queryable, Transaction } from '../../db/client';
import {
  campaignSerials,
  type DeactivationCause,
  type DeviceRow,
  devices,
  type KeySource,
  type LicenceRow,
  type LicenseKeyRow,
  licences,
  licenseKeys,
  upgradeCodes,
} from '../../db/licences-schema';
import { users } from '../../db/schema';
import { addDays, type Clock, type Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import type { SessionRowState, SessionScopedRead } from '../accounts/sessions';
import { isUniqueViolation } from '../accounts/users-repo';
import { recordAccountEvent } from '../activity/events';
import type { TokenLedger } from '../tokens/ledger';
import {
  CAMPAIGN_ADAM,
  findProduct,
  idleReleaseDaysOf,
  isActivatable,
  type Product,
  type ProductKind,
  productByCode,
} from './catalogue';
import {
  type CheckLicenseRow,
  type CheckLicenseSessionQuery,
  checkLicenseParams,
  checkLicenseSessionQuery,
} from './check-license';
import { newLicenseKey, normalizeCode } from './codes';
import type { Deeplinks } from './deeplinks';
import { isReportedLost } from './lost-machines';
import { deactivationRefusals } from './offline';
import {
  activeDevicesOfLicence,
  allowanceOf,
  countKeys,
  deactivate,
  deactivationsInWindow,
  findActiveDevice,
  findKeyByValue,
  findLicence,
  forgiveDeactivations,
  isCounted,
  keysOfUser,
  lockActiveDevice,
  lockLicenceById,
  lockOrCreateLicence,
  lockOwnedKey,
} from './repo';

export interface LicenceServiceDeps {
  db: Database;
  clock: Clock;
  random: Random;
  /** The desktop apps' deeplinks (their custom protocol). */
  deeplinks: Deeplinks;
  ledger: TokenLedger;
}

/**
 * What a licence allows right now: seats from keys, else from a live trial, else (for a
 * product paid with tokens) from a spendable token balance (ADR 0009).
 */
export interface Seats {
  max: number;
  kind: LicenceKind;
  trialEndsAt: Date | null;
}

export function seatsOf(
  product: Product,
  keyCount: number,
  licence: Pick<LicenceRow, 'trialEndsAt'> | undefined,
  now: Date,
  tokenBalance = 0,
): Seats {
  if (keyCount > 0) return { max: keyCount * product.instancesMax, kind: 'Perpetual', trialEndsAt: null };
  const trialEndsAt = licence?.trialEndsAt ?? null;
  if (trialEndsAt && trialEndsAt > now) return { max: product.instancesMax, kind: 'Trial', trialEndsAt };
  if (product.paysWithTokens && tokenBalance > 0) return { max: product.instancesMax, kind: 'Tokens', trialEndsAt };
  return { max: 0, kind: 'None', trialEndsAt };
}

/** A machine as an app (or its .swinfo request) describes it to ActivateDevice. */
export interface MachineActivation {
  productName: string;
  machineId: string;
  deviceName: string;
  appVersion?: string | undefined;
  os?: string | undefined;
}

/** What is written when a machine is seen: the time, and what the app said of itself if it said it. */
function seenFields(machine: { appVersion?: string | undefined; os?: string | undefined }, now: Date) {
  return {
    lastSeenAt: now,
    ...(machine.appVersion ? { appVersion: machine.appVersion } : {}),
    ...(machine.os ? { os: machine.os } : {}),
  };
}

/** A machine as an app describes it to CheckLicense. */
export type MachineCheck = Omit<MachineActivation, 'deviceName'>;

export interface Activation extends ActivateDeviceResult {
  device: DeviceRow;
  seats: Seats;
  product: Product;
}

/**
 * The licence rules: keys, upgrades, trials, campaign serials and device activations.
 * Knows nothing of HTTP. Every lookup is scoped to the signed-in customer (ASVS 8.2.2); a
 * change to a licence's devices locks the licence row first (ASVS 2.3.4).
 */
export class LicenceService {
  readonly deeplinks: Deeplinks;
  private readonly ledger: TokenLedger;
  private readonly checkSessionQuery: CheckLicenseSessionQuery;
  constructor(private readonly deps: LicenceServiceDeps) {
    this.deeplinks = deps.deeplinks;
    this.ledger = deps.ledger;
    this.checkSessionQuery = checkLicenseSessionQuery(deps.db);
  }

  private get db() {
    return this.deps.db;
  }
  private now() {
    return this.deps.clock.now();
  }

  // ── Keys ────────────────────────────────────────────────────────────────

  async registerKey(userId: string, key: string): Promise<RegisterKeyResult> {
    const product = await this.db.transaction(async (tx) => {
      const row = await findKeyByValue(tx, key, true);
      const product = row && productByCode(row.productCode);
      if (!row || !product) throw new Fault('KeyNotFound');
      if (product.kind === 'bundle') throw new Fault('KeyBundleNotAllowed');
      if (row.revokedAt) throw new Fault('KeyRefunded');
      if (row.userId === userId) throw new Fault('KeyAlreadyExisting');
      if (row.userId) {
        const [other] = await tx.select({ email: users.email }).from(users).where(eq(users.id, row.userId));
        throw new Fault('KeyOwnedByAnotherUser', { OtherUserEmail: maskEmail(other?.email ?? '') });
      }
      if (isActivatable(product)) await lockOrCreateLicence(tx, userId, product.code);
      await tx
        .update(licenseKeys)
        .set({ userId, registeredAt: this.now() })
        .where(and(eq(licenseKeys.id, row.id), isNull(licenseKeys.userId)));
      return product;
    });
    if (product.line === 'reference') return { ProductCount: 1 };
    const isPack = product.kind === 'voice-asset-pack';
    return {
      ProductCount: isPack ? 0 : 1,
      VoiceAi: { AssetCount: isPack ? 1 : 0, ...(isPack ? {} : { ActivationUrl: this.deeplinks.activate(product) }) },
    };
  }

  /** A key of the caller by its full value or by the masked FormattedKey of the list. */
  async resolveOwnedKey(db: Queryable, userId: string, input: string): Promise<LicenseKeyRow> {
    const own = await keysOfUser(db, userId);
    const matches = isMaskedLicenseKey(input)
      ? own.filter((k) => maskLicenseKey(k.key) === input)
      : own.filter((k) => k.key === input);
    const key = matches.find((k) => !k.usedForUpgradeAt) ?? matches[0];
    if (!key) throw new Fault('KeyNotFound');
    return key;
  }

  async keyUpgradePaths(userId: string, keyInput: string): Promise<KeyUpgradePathsResult> {
    const key = await this.resolveOwnedKey(this.db, userId, keyInput);
    const product = productByCode(key.productCode);
    return { LinksToStore: key.usedForUpgradeAt || !product ? [] : product.upgradeStoreLinks };
  }

  /**
   * Trades a key in with an upgrade code: the code is used once, the key is marked
   * IsUsedForUpgrade (it keeps its own seats) and a new key of the target product is added.
   */
  async upgradeKey(userId: string, keyInput: string, upgradeCode: string): Promise<UpgradeKeyResult> {
    const code = normalizeCode(upgradeCode);
    return this.db.transaction(async (tx) => {
      const owned = await this.resolveOwnedKey(tx, userId, keyInput);
      const key = await findKeyByValue(tx, owned.key, true);
      const product = key && productByCode(key.productCode);
      if (!key || key.userId !== userId || !product) throw new Fault('KeyNotFound');
      if (product.line === 'voice' && !isValidVoiceAiUpgradeCode(code)) {
        throw new Fault('RequestInvalid', { upgradeCode: messages.upgradeCodeFormat }, messages.upgradeCodeFormat);
      }
      const [row] = await tx.select().from(upgradeCodes).where(eq(upgradeCodes.code, code)).for('update');
      if (!row) throw new Fault('UpgradeCodeNotFound');
      if (row.usedAt) throw new Fault('UpgradeKeyAlreadyUsed');
      if (key.usedForUpgradeAt) throw new Fault('KeyAlreadyUpgraded');
      const target = productByCode(row.targetProductCode);
      if (!target || !row.fromProductCodes.includes(key.productCode)) throw new Fault('UpgradeCodeIncompatibility');

      const now = this.now();
      await tx.update(licenseKeys).set({ usedForUpgradeAt: now }).where(eq(licenseKeys.id, key.id));
      const newKey = await this.insertKey(tx, target.code, { userId, registeredAt: now, source: 'upgrade' });
      await tx
        .update(upgradeCodes)
        .set({ usedAt: now, usedByUserId: userId, usedOnKeyId: key.id })
        .where(eq(upgradeCodes.id, row.id));
      if (isActivatable(target)) await lockOrCreateLicence(tx, userId, target.code);
      return { FormattedKey: maskLicenseKey(newKey), ProductName: target.productName, DisplayName: target.displayName };
    });
  }

  /** A new random key; a collision (2^-120) is retried with another. */
  async insertKey(
    tx: Queryable,
    productCode: string,
    owner: { userId: string; registeredAt: Date; source: KeySource } | undefined = undefined,
  ): Promise<string> {
    return (await this.insertKeyRow(tx, productCode, owner ?? {})).key;
  }

  private async insertKeyRow(
    tx: Queryable,
    productCode: string,
    values: { userId?: string; registeredAt?: Date; source?: KeySource },
  ): Promise<{ id: string; key: string }> {
    for (let attempt = 0; ; attempt++) {
      const key = newLicenseKey(this.deps.random);
      const [row] = await tx
        .insert(licenseKeys)
        .values({ key, productCode, ...values })
        .onConflictDoNothing()
        .returning({ id: licenseKeys.id, key: licenseKeys.key });
      if (row) return row;
      if (attempt > 5) throw new Fault('KeySaveFailure');
    }
  }

  /**
   * Keys a storefront order bought (source 'purchase'): registered to the buyer's account when
   * there is one, whose licence row is locked first like any change to its seats; otherwise
   * unowned, for the buyer to register with the key from the order mail.
   */
  async issuePurchasedKeys(
    tx: Transaction,
    productCode: string,
    count: number,
    owner: { userId: string; registeredAt: Date } | undefined,
  ): Promise<{ id: string; key: string }[]> {
    const product = productByCode(productCode);
    if (!product) throw new Fault('ProductNotFound');
    if (owner && isActivatable(product)) await lockOrCreateLicence(tx, owner.userId, product.code);
    const keys: { id: string; key: string }[] = [];
    for (let i = 0; i < count; i++)
      keys.push(await this.insertKeyRow(tx, product.code, { ...owner, source: 'purchase' }));
    return keys;
  }

  /**
   * Removes a key from the account (licence, perpetual or expansion pack): the key is released
   * for registration again, and devices beyond the seats that remain are deactivated. Those
   * deactivations count: a removal that the allowance cannot cover is refused with
   * KeyRevokeOverLimit and changes nothing (ADR 0030).
   */
  async removeKey(userId: string, keyId: string, kinds: ProductKind[]): Promise<ActionResult> {
    await this.db.transaction(async (tx) => {
      const key = await lockOwnedKey(tx, userId, keyId);
      const product = key && productByCode(key.productCode);
      if (!key || !product || !kinds.includes(product.kind)) throw new Fault('KeyNotFound');
      await this.releaseSeatsOfKey(tx, key, 'key-removed');
      await tx.update(licenseKeys).set({ userId: null, registeredAt: null }).where(eq(licenseKeys.id, key.id));
      await recordAccountEvent(tx, { userId, at: this.now(), kind: 'licence_removed', productCode: key.productCode });
    });
    return {
      Message: kinds.includes('voice-asset-pack')
        ? licenceMessages.activationKeyRemoved
        : licenceMessages.licenseRemoved,
    };
  }

  /**
   * Before an owned key leaves its licence (the caller holds the key's row lock and then changes
   * its owner): locks the licence and ends its newest activations beyond the seats left without
   * the key. A counted cause ('key-removed') needs the allowance for them and charges them to
   * the licence's keys, this one included; 'licence-removed' (the service revoking a licence)
   * ends them uncounted. Nothing to do for a key of a product that is not activated on devices.
   */
  async releaseSeatsOfKey(tx: Transaction, key: LicenseKeyRow, cause: DeactivationCause): Promise<void> {
    const product = productByCode(key.productCode);
    if (!key.userId || !product || !isActivatable(product)) return;
    const licence = await lockOrCreateLicence(tx, key.userId, product.code);
    const now = this.now();
    const tokenBalance = (await this.tokenBalance(tx, key.userId, product)) ?? 0;
    const keysLeft = (await countKeys(tx, key.userId, product.code)) - 1;
    const seats = seatsOf(product, keysLeft, licence, now, tokenBalance);
    const over = (await activeDevicesOfLicence(tx, licence.id)).slice(seats.max).map((d) => d.id);
    if (over.length === 0) return;
    if (isCounted(cause)) await this.assertUnderDeactivationLimit(tx, licence, over.length);
    await deactivate(tx, licence, over, now, cause);
  }

  // ── Trials and campaigns ────────────────────────────────────────────────

  /** The product's free trial, once per customer; starting a running trial again changes nothing. */
  async startTrial(userId: string, productRef: string): Promise<ActionResult & { TrialEndsAt: string }> {
    const product = findProduct(productRef);
    if (!product) throw new Fault('ProductNotFound');
    const days = product.trialDays;
    if (!days) throw new Fault('TrialNotAvailable');
    return this.db.transaction(async (tx) => {
      const now = this.now();
      const licence = await lockOrCreateLicence(tx, userId, product.code);
      if (licence.trialEndsAt && licence.trialEndsAt > now) {
        return { Message: messages.trialActivated, TrialEndsAt: toDotNetDate(licence.trialEndsAt) };
      }
      if (licence.trialStartedAt) throw new Fault('TrialAlreadyUsed');
      const trialEndsAt = addDays(now, days);
      await tx
        .update(licences)
        .set({ trialStartedAt: now, trialEndsAt, trialSource: 'trial' })
        .where(eq(licences.id, licence.id));
      return { Message: messages.trialActivated, TrialEndsAt: toDotNetDate(trialEndsAt) };
    });
  }

  /** A monitor serial, once ever, grants (or lengthens to) a 60-day trial of SoundID Reference. */
  async claimAdam60Day(userId: string, serialInput: string): Promise<ClaimAdam60DayResult> {
    const serial = normalizeCode(serialInput);
    const product = productByCode(CAMPAIGN_ADAM.productCode);
    if (!product) throw new Fault('ProductNotFound');
    return this.db.transaction(async (tx) => {
      const now = this.now();
      const claimed = await tx
        .update(campaignSerials)
        .set({ claimedAt: now, claimedByUserId: userId })
        .where(
          and(
            eq(campaignSerials.serial, serial),
            eq(campaignSerials.campaign, CAMPAIGN_ADAM.id),
            isNull(campaignSerials.claimedAt),
          ),
        )
        .returning({ serial: campaignSerials.serial });
      if (claimed.length === 0) {
        const [known] = await tx
          .select({ serial: campaignSerials.serial })
          .from(campaignSerials)
          .where(and(eq(campaignSerials.serial, serial), eq(campaignSerials.campaign, CAMPAIGN_ADAM.id)));
        throw new Fault(known ? 'SerialAlreadyUsed' : 'SerialNotFound');
      }
      const licence = await lockOrCreateLicence(tx, userId, product.code);
      const campaignEnd = addDays(now, CAMPAIGN_ADAM.days);
      const trialEndsAt = licence.trialEndsAt && licence.trialEndsAt > campaignEnd ? licence.trialEndsAt : campaignEnd;
      await tx
        .update(licences)
        .set({ trialStartedAt: licence.trialStartedAt ?? now, trialEndsAt, trialSource: 'campaign' })
        .where(eq(licences.id, licence.id));
      return { ProductName: product.productName, TrialEndsAt: toDotNetDate(trialEndsAt) };
    });
  }

  /** The 'activate' server action: the customer holds a licence in force for the product. */
  async confirmActivation(userId: string, productRef: string): Promise<ActionResult> {
    const product = findProduct(productRef);
    if (!product || !isActivatable(product)) throw new Fault('ProductNotFound');
    const seats = await this.currentSeats(this.db, userId, product);
    if (seats.max === 0) throw new Fault('NoLicenseForProduct');
    return { Message: `Open ${product.displayName} on the device to activate it.` };
  }

  private async currentSeats(db: Queryable, userId: string, product: Product, licence?: LicenceRow): Promise<Seats> {
    const row = licence ?? (await findLicence(db, userId, product.code));
    const tokenBalance = (await this.tokenBalance(db, userId, product)) ?? 0;
    return seatsOf(product, await countKeys(db, userId, product.code), row, this.now(), tokenBalance);
  }

  /** The spendable tokens behind pay-as-you-go seats; null for a product not paid with tokens. */
  private async tokenBalance(db: Queryable, userId: string, product: Product): Promise<number | null> {
    return product.paysWithTokens ? this.ledger.balance(userId, db) : null;
  }

  // ── Devices ─────────────────────────────────────────────────────────────

  private activatableProduct(productName: string): Product {
    const product = findProduct(productName);
    if (!product || !isActivatable(product)) throw new Fault('ProductNotFound');
    return product;
  }

  /**
   * Activates a machine against the customer's licence of a product. The licence row is locked
   * before the seats are counted, so concurrent calls never activate more than InstancesMax
   * devices; the same machine again returns its existing activation.
   */
  async activateDevice(
    userId: string,
    machine: MachineActivation,
    method: 'online' | 'offline' = 'online',
    isRetry = false,
  ): Promise<Activation> {
    const { productName, machineId, deviceName } = machine;
    const product = this.activatableProduct(productName);
    const now = this.now();
    const seen = seenFields(machine, now);
    try {
      return await this.db.transaction(async (tx) => {
        const licence = await this.lockLicenceForActivation(tx, userId, product);
        if (await isReportedLost(tx, licence.id, machineId)) throw new Fault('DeviceReportedLost');
        const seats = await this.currentSeats(tx, userId, product, licence);
        if (seats.max === 0) throw new Fault('NoLicenseForProduct');
        // A licence file works without the service; tokens are spent online, request by request.
        if (method === 'offline' && seats.kind === 'Tokens') throw new Fault('OfflineActivationNeedsLicence');
        const active = await activeDevicesOfLicence(tx, licence.id);
        const existing = active.find((d) => d.machineId === machineId);
        if (existing) {
          // The app is here: the machine is seen (ADR 0049).
          const [device = existing] = await tx.update(devices).set(seen).where(eq(devices.id, existing.id)).returning();
          return {
            device,
            seats,
            product,
            DeviceId: existing.id,
            InstancesUsed: active.length,
            InstancesMax: seats.max,
          };
        }
        if (active.length >= seats.max) throw new Fault('SeatLimitReached');
        const [device] = await tx
          .insert(devices)
          .values({ licenceId: licence.id, userId, machineId, name: deviceName, method, activatedAt: now, ...seen })
          .returning();
        if (!device) throw new Fault('Unknown');
        return {
          device,
          seats,
          product,
          DeviceId: device.id,
          InstancesUsed: active.length + 1,
          InstancesMax: seats.max,
        };
      });
    } catch (error) {
      // Backstop: were the lock ever skipped, the unique index refuses a second active row; the retry finds it.
      if (isUniqueViolation(error) && !isRetry) {
        return this.activateDevice(userId, machine, method, true);
      }
      throw error;
    }
  }

  /**
   * The licence row, locked. Keys and trials create it; a pay-as-you-go customer (tokens, no
   * key, no trial) gets it on the first activation.
   */
  private async lockLicenceForActivation(tx: Transaction, userId: string, product: Product): Promise<LicenceRow> {
    const licence = await findLicence(tx, userId, product.code, true);
    if (licence) return licence;
    const tokenBalance = (await this.tokenBalance(tx, userId, product)) ?? 0;
    if (tokenBalance > 0) return lockOrCreateLicence(tx, userId, product.code);
    throw new Fault('NoLicenseForProduct');
  }

  /** The app's deactivation of its own machine. */
  async deactivateMachine(userId: string, productName: string, machineId: string): Promise<DeactivateDeviceResult> {
    const product = this.activatableProduct(productName);
    return this.db.transaction(async (tx) => {
      const licence = await findLicence(tx, userId, product.code, true);
      if (!licence) throw new Fault('DeviceNotFound');
      const active = await activeDevicesOfLicence(tx, licence.id);
      const device = active.find((d) => d.machineId === machineId);
      if (!device) throw new Fault('DeviceNotFound');
      await this.assertUnderDeactivationLimit(tx, licence);
      await deactivate(tx, licence, [device.id], this.now(), 'app');
      const seats = await this.currentSeats(tx, userId, product, licence);
      return { InstancesUsed: active.length - 1, InstancesMax: seats.max };
    });
  }

  /**
   * Support's deactivation (ADR 0044): any active device, whoever's, outside the customer's
   * allowance (cause 'support', not counted) — what KeyRevokeOverLimit's "Learn more" promises.
   */
  async deactivateBySupport(
    deviceId: string,
    /** Writes the change's audit entry in its transaction (ADR 0045). */
    record: (tx: Transaction, ended: { device: DeviceRow; productCode: string; userId: string }) => Promise<void>,
  ): Promise<{ device: DeviceRow; productCode: string; userId: string }> {
    return this.db.transaction(async (tx) => {
      const [found] = await tx
        .select()
        .from(devices)
        .where(and(eq(devices.id, deviceId), isNull(devices.deactivatedAt)));
      if (!found) throw new Fault('DeviceNotFound');
      // Whoever's it is: support acts for its owner.
      const { device, licence } = await lockActiveDevice(tx, found.userId, deviceId);
      await deactivate(tx, licence, [device.id], this.now(), 'support');
      const ended = { device, productCode: licence.productCode, userId: licence.userId };
      await record(tx, ended);
      return ended;
    });
  }

  /**
   * Support moves a key to another account (bought under another address): its seats leave the
   * old licence uncounted ('support'), the key and its deactivation history go to the new owner
   * (ADR 0030), whose licence of the product is made if missing.
   */
  async moveKey(
    keyValue: string,
    toUserId: string,
    /** Writes the change's audit entry in its transaction (ADR 0045). */
    record: (tx: Transaction, moved: { productCode: string; fromUserId: string | null }) => Promise<void>,
  ): Promise<{ productCode: string; fromUserId: string | null }> {
    return this.db.transaction(async (tx) => {
      const key = await findKeyByValue(tx, keyValue, true);
      const product = key && productByCode(key.productCode);
      if (!key || !product) throw new Fault('KeyNotFound');
      if (key.revokedAt) throw new Fault('KeyRefunded');
      if (key.userId === toUserId) throw new Fault('KeyAlreadyExisting');
      await this.releaseSeatsOfKey(tx, key, 'support');
      if (isActivatable(product)) await lockOrCreateLicence(tx, toUserId, product.code);
      await tx
        .update(licenseKeys)
        .set({ userId: toUserId, registeredAt: this.now() })
        .where(eq(licenseKeys.id, key.id));
      const moved = { productCode: product.code, fromUserId: key.userId };
      await record(tx, moved);
      return moved;
    });
  }

  /**
   * Support gives a licence its whole deactivation allowance back (AdminResetDeactivations): the
   * deactivations counted in the current window, the licence's and its keys', are forgiven (kept
   * in the history, no longer counted). The key's row, then the licence's, are locked first, as
   * every change to a licence's allowance; forgiving again forgives nothing more.
   */
  async resetDeactivations(
    keyValue: string,
    /** Writes the change's audit entry in its transaction (ADR 0045). */
    record: (tx: Transaction, reset: { productCode: string; userId: string; forgiven: number }) => Promise<void>,
  ): Promise<{ productCode: string; userId: string; forgiven: number }> {
    return this.db.transaction(async (tx) => {
      const key = await findKeyByValue(tx, keyValue, true);
      const product = key && productByCode(key.productCode);
      if (!key?.userId || !product) throw new Fault('KeyNotFound');
      const licence = isActivatable(product) ? await lockOrCreateLicence(tx, key.userId, product.code) : undefined;
      const now = this.now();
      const since = addDays(now, -DEVICE_DEACTIVATION_WINDOW_DAYS);
      const forgiven = licence ? await deactivationsInWindow(tx, licence, now) : 0;
      if (licence && forgiven > 0) await forgiveDeactivations(tx, licence, since, now);
      const reset = { productCode: product.code, userId: key.userId, forgiven };
      await record(tx, reset);
      return reset;
    });
  }

  /**
   * The offline deactivation (docs/decisions/0053-offline-deactivation.md): an .swdeactivate
   * request for one of the customer's devices, checked by `check` (its proof, its machine) before
   * anything changes, frees the seat outside the allowance (cause 'offline'). A device no longer
   * active is a replay, refused; another customer's device or none is DeviceNotFound.
   */
  async deactivateOffline(
    userId: string,
    deviceId: string,
    check: (device: { machineId: string; productName: string }) => void,
  ): Promise<{ device: DeviceRow; product: Product; deactivatedAt: Date } & DeactivateDeviceResult> {
    const now = this.now();
    return this.db.transaction(async (tx) => {
      const [found] = await tx
        .select()
        .from(devices)
        .where(and(eq(devices.id, deviceId), eq(devices.userId, userId)));
      // The licence locked first, as every seat change (ASVS 2.3.4); the device read again under it.
      const locked = found && (await lockLicenceById(tx, userId, found.licenceId));
      const product = locked && productByCode(locked.productCode);
      if (!found || !locked || !product) throw new Fault('DeviceNotFound');
      check({ machineId: found.machineId, productName: product.productName });
      const device = await findActiveDevice(tx, userId, deviceId);
      if (!device) throw new Fault('OfflineDeactivationInvalid', { Reason: deactivationRefusals.replayed });
      await deactivate(tx, locked, [device.id], now, 'offline');
      const seats = await this.currentSeats(tx, userId, product, locked);
      const used = (await activeDevicesOfLicence(tx, locked.id)).length;
      return { device, product, deactivatedAt: now, InstancesUsed: used, InstancesMax: seats.max };
    });
  }

  /** The customer's deactivation from the devices panel (action URL). */
  async deactivateDevice(userId: string, deviceId: string): Promise<ActionResult> {
    return this.db.transaction(async (tx) => {
      const { device, licence } = await lockActiveDevice(tx, userId, deviceId);
      await this.assertUnderDeactivationLimit(tx, licence);
      await deactivate(tx, licence, [device.id], this.now(), 'customer');
      return { Message: licenceMessages.deviceDeactivated(device.name) };
    });
  }

  /**
   * The devices panel's allowance line (ADR 0030): deactivations left of the limit, and when the
   * next used one comes back. A product with no licence yet has used none.
   */
  async deactivationAllowance(userId: string, productName: string): Promise<DeactivationAllowance> {
    const product = this.activatableProduct(productName);
    const licence = await findLicence(this.db, userId, product.code);
    const { used, nextReturnAt } = licence
      ? await allowanceOf(this.db, licence, this.now())
      : { used: 0, nextReturnAt: null };
    return {
      DeactivationsLeft: Math.max(0, DEVICE_DEACTIVATION_LIMIT - used),
      DeactivationsAllowed: DEVICE_DEACTIVATION_LIMIT,
      NextDeactivationReturns: nextReturnAt ? toDotNetDate(nextReturnAt) : null,
      IdleReleaseDays: idleReleaseDaysOf(product),
    };
  }

  /**
   * Room in the allowance for `count` more deactivations of the licence (locked by the caller):
   * its used count is the largest of its own and its keys' (ADR 0030).
   */
  private async assertUnderDeactivationLimit(tx: Transaction, licence: LicenceRow, count = 1): Promise<void> {
    if ((await deactivationsInWindow(tx, licence, this.now())) + count > DEVICE_DEACTIVATION_LIMIT) {
      throw new Fault('KeyRevokeOverLimit', {
        Limit: String(DEVICE_DEACTIVATION_LIMIT),
        WindowDays: String(DEVICE_DEACTIVATION_WINDOW_DAYS),
      });
    }
  }

  /**
   * A machine whose seat was released while it was idle (docs/decisions/0052-idle-seats.md) and
   * that calls again: it is activated again under the name it had, as ActivateDevice would (the
   * licence locked, the seats counted), or told that no seat is free (IdleSeatTaken). Any other
   * machine without an activation: undefined. Off the hot path: only a check that found no
   * activation reads this.
   */
  private async returnIdleSeat(userId: string, product: Product, check: MachineCheck): Promise<Activation | undefined> {
    const [last] = await this.db
      .select({ name: devices.name, cause: devices.deactivationCause })
      .from(devices)
      .innerJoin(licences, eq(licences.id, devices.licenceId))
      .where(
        and(
          eq(licences.userId, userId),
          eq(licences.productCode, product.code),
          eq(devices.machineId, check.machineId),
        ),
      )
      .orderBy(desc(devices.activatedAt))
      .limit(1);
    if (last?.cause !== 'idle') return undefined;
    try {
      return await this.activateDevice(userId, { ...check, deviceName: last.name });
    } catch (error) {
      if (error instanceof Fault && error.faultName === 'SeatLimitReached') {
        const seats = await this.currentSeats(this.db, userId, product);
        throw new Fault('IdleSeatTaken', {
          IdleDays: String(idleReleaseDaysOf(product)),
          InstancesMax: String(seats.max),
        });
      }
      throw error;
    }
  }

  /**
   * Whether the machine is licensed, and the machine recorded as seen with what the app says of
   * itself: one statement on the hot path (check-license.ts, docs/decisions/0049-devices-seen.md).
   */
  /**
   * CheckLicense's session-scoped read (for `requireSessionWith`): the session row and the check
   * in one statement (check-license.ts). Then `checkLicenseFrom` answers from the row.
   */
  checkLicenseRead(check: MachineCheck): SessionScopedRead<SessionRowState & CheckLicenseRow> | undefined {
    // Not a product the apps activate: undefined, and the caller checks the session first, as before.
    const product = findProduct(check.productName);
    if (!product || !isActivatable(product)) return undefined;
    return async ({ sid, sub }) => {
      const [row] = await this.checkSessionQuery.execute({
        ...this.checkParams(sub, product, check, this.now()),
        sid,
        sub,
      });
      return row;
    };
  }

  /** The answer from the row `checkLicenseRead` read, once its session proved live. */
  async checkLicenseFrom(userId: string, check: MachineCheck, row: CheckLicenseRow): Promise<CheckLicenseResult> {
    return this.checkResult(userId, this.activatableProduct(check.productName), check, row, this.now());
  }

  private checkParams(userId: string, product: Product, check: MachineCheck, now: Date) {
    return checkLicenseParams({
      ...check,
      userId,
      productCode: product.code,
      paysWithTokens: Boolean(product.paysWithTokens),
      now,
    });
  }

  private async checkResult(
    userId: string,
    product: Product,
    check: MachineCheck,
    row: CheckLicenseRow | undefined,
    now: Date,
  ): Promise<CheckLicenseResult> {
    if (row?.lost) throw new Fault('DeviceReportedLost');
    const tokenBalance = product.paysWithTokens ? Number(row?.tokenBalance ?? 0) : null;
    const trialEndsAt = row?.trialEndsAt ? new Date(row.trialEndsAt) : null;
    const seats = seatsOf(product, row?.keyCount ?? 0, { trialEndsAt }, now, tokenBalance ?? 0);
    const deviceId = row?.deviceId ?? null;
    if (deviceId === null && seats.max > 0) {
      const returned = await this.returnIdleSeat(userId, product, check);
      if (returned) {
        return {
          Licensed: true,
          LicenseKind: seats.kind,
          TrialEndsAt: seats.kind === 'Trial' && seats.trialEndsAt ? toDotNetDate(seats.trialEndsAt) : null,
          DeviceId: returned.DeviceId,
          InstancesUsed: returned.InstancesUsed,
          InstancesMax: returned.InstancesMax,
          TokenBalance: tokenBalance,
          Reactivated: true,
        };
      }
    }
    return {
      Licensed: deviceId !== null && seats.max > 0,
      LicenseKind: seats.kind,
      TrialEndsAt: seats.kind === 'Trial' && seats.trialEndsAt ? toDotNetDate(seats.trialEndsAt) : null,
      DeviceId: deviceId,
      InstancesUsed: row?.activeCount ?? 0,
      InstancesMax: seats.max,
      TokenBalance: tokenBalance,
    };
  }
}
