import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Comments point inside the repository: to docs/requirements.md by area, to an ADR, to a file
 * that exists; never to an issue number, a section of a document the repository does not hold,
 * or a path outside it (docs/requirements.md, "Code comments that explain a requirement").
 */
const root = path.resolve(import.meta.dirname, '..');
const SKIP = new Set(['node_modules', 'dist', '.git', 'coverage', 'screenshots', 'migrations']);
const CODE = /\.(ts|tsx|mts|mjs|js|css|sh)$/;

function codeFiles(dir: string): string[] {
  return readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = path.posix.join(dir, entry.name);
    if (entry.isDirectory()) return SKIP.has(entry.name) || entry.name.startsWith('.') ? [] : codeFiles(file);
    return CODE.test(entry.name) ? [file] : [];
  });
}

const files = [...['apps', 'packages', 'bench', 'test'].flatMap(codeFiles), '.ci/run', 'Dockerfile'].filter((file) =>
  existsSync(path.join(root, file)),
);
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const requirementAreas = new Set(
  [...read('docs/requirements.md').matchAll(/^\| (\d+) \|/gm)].map((match) => Number(match[1])),
);
const records = readdirSync(path.join(root, 'docs/decisions')).filter((file) => /^\d{4}-.*\.md$/.test(file));
const adrNumbers = new Set(records.map((record) => record.slice(0, 4)));

/** Every place in the code where `pattern` matches, as "file:line: text". */
function findAll(pattern: RegExp): string[] {
  return files.flatMap((file) =>
    read(file)
      .split('\n')
      .flatMap((line, i) => (pattern.test(line) ? [`${file}:${i + 1}: ${line.trim()}`] : [])),
  );
}

describe('references from the code', () => {
  it('scans the code (the walk finds the service, the portal, the contracts, the benchmarks)', () => {
    for (const file of [
      'apps/api/src/app.ts',
      'apps/web/src/main.tsx',
      'packages/contracts/src/errors.ts',
      'bench/run.ts',
    ]) {
      expect(files).toContain(file);
    }
  });

  it('never name an issue number or an outside specification', () => {
    expect(findAll(/\b[Ii]ssues? #?\d+|\bspec §|§\s?\d+ of the spec|\.\.\/shared\/|\/work\/shared/)).toEqual([]);
  });

  it('cite areas that docs/requirements.md has', () => {
    const cited = files.flatMap((file) =>
      [...read(file).matchAll(/docs\/requirements\.md §(\d+)/g)].map((match) => ({ file, area: Number(match[1]) })),
    );
    expect(cited.length).toBeGreaterThan(20);
    expect(cited.filter(({ area }) => !requirementAreas.has(area))).toEqual([]);
  });

  it('cite ADRs that exist', () => {
    const cited = files.flatMap((file) =>
      [...read(file).matchAll(/\bADRs? ((?:\d{4}(?:,\s*|\s+and\s+|\s*\/\s*)?)+)/g)].flatMap((match) =>
        (match[1]?.match(/\d{4}/g) ?? []).map((id) => ({ file, id })),
      ),
    );
    expect(cited.length).toBeGreaterThan(50);
    expect(cited.filter(({ id }) => !adrNumbers.has(id))).toEqual([]);
  });

  it('name docs/ files that exist', () => {
    const named = files.flatMap((file) =>
      [...read(file).matchAll(/\bdocs\/[\w./-]+\.(?:md|png|json)/g)].map((match) => ({ file, doc: match[0] })),
    );
    expect(named.filter(({ doc }) => !existsSync(path.join(root, doc)))).toEqual([]);
  });
});
