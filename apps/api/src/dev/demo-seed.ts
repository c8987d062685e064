import { count, eq } from 'drizzle-orm';
import type { Database } from '../db/client';
import { devices, licenseKeys } from '../db/licences-schema';
import { users } from '../db/schema';
import { hashPassword, type PasswordHashCost } from '../features/accounts/passwords';
import { isUniqueViolation } from '../features/accounts/users-repo';
import { formatLicenseKey } from '../features/licences/codes';
import { addSerials, issueUpgradeCodes } from '../features/licences/issuance';
import { lockOrCreateLicence } from '../features/licences/repo';
import type { LicenceService } from '../features/licences/service';
import { addDays, addHours, type Clock, type Random } from '../lib/clock';

export const DEMO_EMAIL = 'demo@soundid.local';

/**
 * A demo customer for a newcomer on an empty database (never in production): a SoundID
 * Reference licence with two devices, a Reference 4 licence to upgrade, a VoiceAI perpetual
 * licence with a device and an expansion pack; plus spare keys, codes and serials to try.
 * Returns the lines to print, or undefined when the database already has customers.
 */
export async function seedDemoData(deps: {
  db: Database;
  clock: Clock;
  random: Random;
  licences: Pick<LicenceService, 'insertKey'>;
  /** The service's PASSWORD_HASH_COST, so that the demo customer's first sign-in keeps its hash. */
  passwordHashCost?: PasswordHashCost;
}): Promise<string[] | undefined> {
  const { db, clock, random, licences } = deps;
  const [existing] = await db.select({ n: count() }).from(users);
  if ((existing?.n ?? 0) > 0) return undefined;

  const password = `demo-${random.bytes(9).toString('base64url')}`;
  const passwordHash = await hashPassword(password, deps.passwordHashCost);
  const now = clock.now();

  const seeding = db.transaction(async (tx) => {
    const [user] = await tx
      .insert(users)
      .values({ email: DEMO_EMAIL, passwordHash, emailVerifiedAt: now, createdAt: now, updatedAt: now })
      .returning({ id: users.id });
    if (!user) throw new Error('demo customer not created');
    const own = (productCode: string, daysAgo: number) =>
      licences.insertKey(tx, productCode, { userId: user.id, registeredAt: addDays(now, -daysAgo), source: 'issued' });
    /** A machine whose app last checked in `seen` hours ago, saying its version and OS (ADR 0049). */
    const activateSeeded = async (
      productCode: string,
      machineId: string,
      name: string,
      daysAgo: number,
      seen: { hoursAgo: number; appVersion: string; os: string },
    ) => {
      const licence = await lockOrCreateLicence(tx, user.id, productCode);
      await tx.insert(devices).values({
        licenceId: licence.id,
        userId: user.id,
        machineId,
        name,
        activatedAt: addDays(now, -daysAgo),
        lastSeenAt: addHours(now, -seen.hoursAgo),
        appVersion: seen.appVersion,
        os: seen.os,
      });
    };

    await own('sid-reference', 120);
    const studio = { hoursAgo: 2, os: 'macOS 14.5' };
    await activateSeeded('sid-reference', 'demo-imac-7f3a9c21', 'Studio iMac', 118, {
      ...studio,
      appVersion: '5.12.1',
    });
    await activateSeeded('sid-reference', 'demo-mbp-20d4e611', 'MacBook Pro', 30, {
      hoursAgo: 23 * 24,
      appVersion: '5.11.0',
      os: 'macOS 13.6',
    });
    await own('ref4-hp', 900);
    await lockOrCreateLicence(tx, user.id, 'ref4-hp');
    await own('voice-ai', 45);
    await activateSeeded('voice-ai', 'demo-imac-7f3a9c21', 'Studio iMac', 44, { ...studio, appVersion: '2.3.0' });
    await own('voice-pack-pop', 20);

    return {
      referenceHeadphonesKey: formatLicenseKey(await licences.insertKey(tx, 'sid-reference-hp')),
      choirPackKey: formatLicenseKey(await licences.insertKey(tx, 'voice-pack-choir')),
      upgradeCode: (
        await issueUpgradeCodes(tx, random, { target: 'sid-reference-hp', from: ['ref4-hp'], count: 1, shape: 'seven' })
      )[0],
    };
  });
  let spare: Awaited<typeof seeding>;
  try {
    spare = await seeding;
  } catch (error) {
    // Another replica starting at the same moment seeded first.
    if (isUniqueViolation(error)) return undefined;
    throw error;
  }
  const serials = ['ADAM-DEMO-000001', 'ADAM-DEMO-000002', 'ADAM-DEMO-000003'];
  await addSerials(db, serials);
  const [keyCount] = await db.select({ n: count() }).from(licenseKeys).where(eq(licenseKeys.source, 'issued'));

  return [
    'Demo customer (not in production):',
    `  e-mail ${DEMO_EMAIL}   password ${password}`,
    '  owns SoundID Reference (2 devices), Reference 4 Headphone, SoundID VoiceAI perpetual (1 device), Pop Vocals Pack',
    `  try RegisterKey with ${spare.referenceHeadphonesKey} (SoundID Reference for Headphones, a new product card) or ${spare.choirPackKey} (expansion pack)`,
    `  try UpgradeKey on the Reference 4 Headphone licence with code ${spare.upgradeCode}`,
    `  try the ADAM Audio trial with serial ${serials[0]}`,
    `  (${keyCount?.n ?? 0} keys in the catalogue database; more with npm run admin -- issue-keys)`,
  ];
}
