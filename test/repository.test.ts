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
