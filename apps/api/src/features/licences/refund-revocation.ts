import { eq } from 'drizzle-orm';
import type { Transaction } from '../../db/client';
import { licenseKeys } from '../../db/licences-schema';
import type { Clock } from '../../lib/clock';
import { recordAccountEvent } from '../activity/events';
import type { TokenLedger } from '../tokens/ledger';
import { isActivatable, productByCode } from './catalogue';
import { activeDevicesOfLicence, countKeys, deactivate, lockOrCreateLicence } from './repo';
import { seatsOf } from './service';

/**
 * Takes back keys whose purchase was refunded (ADR 0032): each key is released from its owner
 * and marked revoked, so that it leaves Licenses & Devices and can never be registered again;
 * the owner's devices beyond the seats that remain (other keys, a trial, tokens) are
 * deactivated, not counted against the deactivation limit. The key row, then the licence row,
 * are locked first, as every change to a licence's seats (ASVS 2.3.4). A key already revoked
 * changes nothing. Returns the keys revoked now.
 */
export async function revokeRefundedKeys(
  tx: Transaction,
  deps: { clock: Clock; ledger: TokenLedger },
  keyIds: string[],
): Promise<string[]> {
  const { clock, ledger } = deps;
  const now = clock.now();
  const revoked: string[] = [];
  for (const keyId of keyIds) {
    const [key] = await tx.select().from(licenseKeys).where(eq(licenseKeys.id, keyId)).for('update');
    if (!key || key.revokedAt) continue;
    const product = productByCode(key.productCode);
    const owner = key.userId;
    const licence =
      owner && product && isActivatable(product) ? await lockOrCreateLicence(tx, owner, product.code) : undefined;
    await tx
      .update(licenseKeys)
      .set({ userId: null, registeredAt: null, revokedAt: now })
      .where(eq(licenseKeys.id, key.id));
    revoked.push(key.id);
    if (owner) {
      await recordAccountEvent(tx, {
        userId: owner,
        at: now,
        kind: 'licence_removed',
        productCode: key.productCode,
        detail: 'refunded',
      });
    }
    if (!owner || !product || !licence) continue;
    const balance = product.paysWithTokens ? await ledger.balance(owner, tx) : 0;
    const seats = seatsOf(product, await countKeys(tx, owner, product.code), licence, now, balance);
    const active = await activeDevicesOfLicence(tx, licence.id);
    await deactivate(
      tx,
      licence,
      active.slice(seats.max).map((device) => device.id),
      now,
      'licence-removed',
    );
  }
  return revoked;
}
