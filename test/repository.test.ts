import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/** The repository explains itself: the README's layout and the ADR index stay current. */
const root = path.resolve(import.meta.dirname, '..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const folders = (dir: string) =>
  readdirSync(path.join(root, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);

describe('README layout', () => {
  const readme = read('README.md');
  const layout = readme.slice(readme.indexOf('## Layout'), readme.indexOf('## Decisions'));

  it.each(['apps/api/src/features', 'apps/api/src/integrations', 'apps/api/src/dev', 'apps/web/src/features'])(
    'names every folder of %s',
    (dir) => {
      for (const folder of folders(dir)) expect(layout, `${dir}/${folder}`).toMatch(new RegExp(`\\b${folder}\\b`));
    },
  );
});

describe('lint boundaries (ADR 0033)', () => {
  const biome = JSON.parse(read('biome.json')) as { overrides: { includes: string[] }[] };

  it.each(folders('apps/web/src/features'))('biome.json keeps web feature %s from importing the others', (feature) => {
    expect(biome.overrides.some((o) => o.includes.includes(`apps/web/src/features/${feature}/**`))).toBe(true);
  });
});

/** Every module specifier a source file imports (static, dynamic, side-effect, re-export). */
function importsOf(file: string): string[] {
  const source = readFileSync(file, 'utf8');
  const found = source.matchAll(/(?:\bfrom\s*|\bimport\s*\(?\s*)['"]([^'"]+)['"]/g);
  return [...found].map((match) => match[1] as string);
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.(ts|tsx|css)$/.test(file) && !file.includes('node_modules') && !file.startsWith('dist'))
    .map((file) => path.join(root, dir, file));
}

describe('the console and the portal apart (ADR 0047)', () => {
  /** Where an import of `file` leads: another app's folder, or a package by name. */
  const reaches = (file: string, specifier: string, app: 'web' | 'console') => {
    if (specifier === `@soundid/${app}` || specifier.startsWith(`@soundid/${app}/`)) return true;
    if (!specifier.startsWith('.')) return false;
    const target = path.relative(root, path.resolve(path.dirname(file), specifier));
    return target === `apps/${app}` || target.startsWith(`apps/${app}/`);
  };

  it.each([
    ['apps/console', 'web'],
    ['apps/web/src', 'console'],
    ['apps/web/e2e', 'console'],
  ] as const)('%s imports nothing of apps/%s', (dir, other) => {
    const files = sourceFiles(dir);
    expect(files.length).toBeGreaterThan(3);
    const crossing = files.flatMap((file) =>
      importsOf(file)
        .filter((specifier) => reaches(file, specifier, other))
        .map((specifier) => `${path.relative(root, file)}: ${specifier}`),
    );
    expect(crossing).toEqual([]);
  });

  it('the check sees an import across (it can fail)', () => {
    const file = path.join(root, 'apps/console/src/x.ts');
    expect(reaches(file, '../../web/src/lib/api-client', 'web')).toBe(true);
    expect(reaches(file, '@soundid/web', 'web')).toBe(true);
    expect(reaches(file, '@soundid/contracts', 'web')).toBe(false);
  });

  it("biome.json keeps each app from importing the other, in every override of the portal's import rules", () => {
    const biome = JSON.parse(read('biome.json')) as {
      overrides: { includes: string[]; linter?: { rules?: { style?: { noRestrictedImports?: unknown } } } }[];
    };
    const restricting = biome.overrides.filter((o) => o.linter?.rules?.style?.noRestrictedImports);
    const names = (o: (typeof restricting)[number]) => JSON.stringify(o.linter?.rules?.style?.noRestrictedImports);
    expect(restricting.some((o) => o.includes.includes('apps/console/**') && names(o).includes('apps/web'))).toBe(true);
    // A later override of the same rule replaces an earlier one's patterns: each web one names the console.
    const web = restricting.filter((o) => o.includes.some((include) => include.startsWith('apps/web/')));
    expect(web.length).toBeGreaterThan(1);
    for (const o of web) expect(names(o), o.includes.join(', ')).toContain('apps/console');
  });
});

describe('ADR index', () => {
  const index = read('docs/decisions/README.md');
  const records = readdirSync(path.join(root, 'docs/decisions')).filter((file) => /^\d{4}-.*\.md$/.test(file));

  it('links every record with a status', () => {
    for (const record of records) {
      expect(index, record).toContain(`](${record})`);
      expect(read(`docs/decisions/${record}`), record).toMatch(/^Status: \S/m);
    }
  });

  it('accounts for every number up to the last: a record or withdrawn', () => {
    const last = Math.max(...records.map((record) => Number(record.slice(0, 4))));
    for (let n = 1; n <= last; n++) {
      const id = String(n).padStart(4, '0');
      const row = index.split('\n').find((line) => line.startsWith(`| ${id} |`));
      expect(row, id).toBeDefined();
      const hasRecord = records.some((record) => record.startsWith(`${id}-`));
      if (!hasRecord) expect(row, id).toContain('withdrawn');
    }
  });
});
