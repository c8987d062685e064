import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { BreachedPasswordSet } from '../src/features/accounts/breached-passwords';
import { BREACHED_PASSWORDS_FILE, buildFromSources } from './breached-password-sources';

/**
 * `npm run breached-passwords:build -w apps/api`: writes apps/api/assets/breached-passwords.bin
 * from the pinned sources (ADR 0042). With `--check`, writes nothing and fails when the committed
 * file differs from a fresh build.
 */
const check = process.argv.includes('--check');
const built = buildFromSources();
const set = BreachedPasswordSet.parse(built.bytes);
const relative = path.relative(process.cwd(), BREACHED_PASSWORDS_FILE);

for (const [name, lines] of Object.entries(built.read)) console.log(`${name}: ${lines.toLocaleString('en')} lines`);
console.log(
  `${built.distinct.toLocaleString('en')} distinct passwords, ${built.kept.toLocaleString('en')} of at least ` +
    `${set.shape.minLength} characters, ${set.size.toLocaleString('en')} entries; ` +
    `${(built.bytes.length / 2 ** 20).toFixed(2)} MiB; built in ${(built.milliseconds / 1000).toFixed(1)} s`,
);

if (check) {
  let committed: Buffer;
  try {
    committed = readFileSync(BREACHED_PASSWORDS_FILE);
  } catch {
    console.error(`${relative} is missing: run npm run breached-passwords:build -w apps/api`);
    process.exit(1);
  }
  if (!committed.equals(built.bytes)) {
    console.error(`${relative} differs from a build of the pinned sources: rebuild and commit it`);
    process.exit(1);
  }
  console.log(`${relative} matches the sources`);
} else {
  writeFileSync(BREACHED_PASSWORDS_FILE, built.bytes);
  console.log(`wrote ${relative}`);
}
