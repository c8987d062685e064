import type { UpgradeCodeShape } from '@soundid/contracts';
import type { Queryable } from '../../db/client';
import { campaignSerials, upgradeCodes } from '../../db/licences-schema';
import type { Random } from '../../lib/clock';
import { Fault } from '../../lib/fault';
import { CAMPAIGN_ADAM, productByCode } from './catalogue';
import { formatLicenseKey, newUpgradeCode, normalizeCode } from './codes';
import type { LicenceService } from './service';

/** What operators create (`npm run admin`): activation keys, upgrade codes, campaign serials. */

export async function issueKeys(licences: LicenceService, db: Queryable, productCode: string, count: number) {
  if (!productByCode(productCode)) throw new Fault('ProductNotFound');
  const keys: string[] = [];
  for (let i = 0; i < count; i++) keys.push(formatLicenseKey(await licences.insertKey(db, productCode)));
  return keys;
}

export async function issueUpgradeCodes(
  db: Queryable,
  random: Random,
  options: { target: string; from: string[]; count: number; shape: UpgradeCodeShape },
): Promise<string[]> {
  const target = productByCode(options.target);
  if (!target || target.kind === 'bundle' || target.kind === 'voice-asset-pack') throw new Fault('ProductNotFound');
  for (const code of options.from) {
    const source = productByCode(code);
    if (!source || source.line !== target.line || source.code === target.code) {
      throw new Fault('RequestInvalid', { from: code }, `${code} cannot be upgraded to ${target.code}.`);
    }
  }
  // Voice AI codes are only ever the UPG- form (docs/requirements.md §5).
  if (target.line === 'voice' && options.shape !== 'upg') {
    throw new Fault('RequestInvalid', { shape: options.shape }, 'Voice AI upgrade codes are UPG- codes only.');
  }
  const codes: string[] = [];
  while (codes.length < options.count) {
    const code = newUpgradeCode(random, options.shape);
    const rows = await db
      .insert(upgradeCodes)
      .values({ code, targetProductCode: target.code, fromProductCodes: options.from })
      .onConflictDoNothing()
      .returning({ code: upgradeCodes.code });
    if (rows[0]) codes.push(rows[0].code);
  }
  return codes;
}

/** Adds monitor serials of the campaign; serials already present are left as they are. */
export async function addSerials(db: Queryable, serials: string[]): Promise<{ Added: number; AlreadyPresent: number }> {
  const unique = [...new Set(serials.map(normalizeCode))];
  const rows = await db
    .insert(campaignSerials)
    .values(unique.map((serial) => ({ serial, campaign: CAMPAIGN_ADAM.id })))
    .onConflictDoNothing()
    .returning({ serial: campaignSerials.serial });
  return { Added: rows.length, AlreadyPresent: unique.length - rows.length };
}
