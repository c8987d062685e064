import { Readable } from 'node:stream';
import { count } from 'drizzle-orm';
import type { Database } from '../db/client';
import { releases as releaseRows } from '../db/releases-schema';
import { PRODUCTS } from '../features/licences/catalogue';
import { installerLikeBytes } from '../features/releases/installer-kinds';
import type { ReleaseService } from '../features/releases/service';

/**
 * Demo releases for a newcomer (never in production, ADR 0046): for each product a customer
 * installs (every product but the expansion packs, which install inside VoiceAI) a macOS and a
 * Windows release, and an older version of SoundID Reference and VoiceAI, so that the download
 * center shows its latest and older versions at once. The files are a few kilobytes with the
 * right signature (installerLikeBytes), never a working installer; they go through the same
 * publish path as an operator's upload (checks, SHA-256, object storage). Seeded once, when there
 * are no releases yet. Returns the lines to print, or undefined when nothing was seeded.
 */
export async function seedDemoReleases(deps: {
  db: Database;
  releases: ReleaseService;
}): Promise<string[] | undefined> {
  const [existing] = await deps.db.select({ n: count() }).from(releaseRows);
  if ((existing?.n ?? 0) > 0) return undefined;

  const products = PRODUCTS.filter((p) => p.kind !== 'voice-asset-pack');
  const plan = products.flatMap((product) => {
    const current = product.line === 'voice' ? '3.4.1' : product.code.startsWith('ref4') ? '4.4.9' : '5.12.2';
    const versions = ['sid-reference', 'voice-ai'].includes(product.code)
      ? [current, product.line === 'voice' ? '3.3.0' : '5.11.0']
      : [current];
    return versions.flatMap((version) =>
      (['macos', 'windows'] as const).map((platform) => ({ product, version, platform })),
    );
  });
  let published = 0;
  for (const { product, version, platform } of plan) {
    const fileName = `${product.productName}-${version}.${platform === 'macos' ? 'dmg' : 'exe'}`;
    const filler = Buffer.from(`${product.displayName} ${version} (${platform}): a demo file, not an installer.\n`);
    const bytes = installerLikeBytes(fileName, Buffer.concat(Array.from({ length: 40 }, () => filler)));
    try {
      await deps.releases.publish(
        {
          product: product.code,
          platform,
          version,
          notes: `${product.displayName} ${version}\n- Demo release seeded for development.\n- Faster start-up and fixes.`,
        },
        { fileName, stream: Readable.from([bytes]) },
      );
      published++;
    } catch (error) {
      // Another replica starting at the same moment published it first.
      if ((error as { faultName?: string }).faultName !== 'ReleaseAlreadyExists') throw error;
    }
  }
  return [`Download center: ${published} demo releases of ${products.length} products (npm run admin -- releases)`];
}
