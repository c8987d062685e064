import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The stylesheets stay findable and lean (docs/decisions/0036-co-located-styles-on-design-tokens.md):
 * every .css file sits beside what it styles and is loaded once, either by the page's stylesheet
 * (styles/index.css) or by one module of its folder; every class it styles is used; every colour
 * is a token.
 */
const srcDir = path.resolve(import.meta.dirname, '..');
const contractsDir = path.resolve(srcDir, '../../../packages/contracts/src');

const filesUnder = (dir: string, pattern: RegExp) =>
  readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => pattern.test(file))
    .map((file) => path.join(dir, file));

const cssFiles = filesUnder(srcDir, /\.css$/);
const sourceFiles = [...filesUnder(srcDir, /\.tsx?$/), ...filesUnder(contractsDir, /\.ts$/)].filter(
  (file) => !/\.test\.tsx?$/.test(file),
);
const sources = new Map(sourceFiles.map((file) => [file, readFileSync(file, 'utf8')]));
const indexCss = path.join(srcDir, 'styles/index.css');
const read = (file: string) => readFileSync(file, 'utf8');
const relative = (file: string) => path.relative(srcDir, file);

/** Who loads each stylesheet: an `@import` of index.css, or a module's `import './x.css'`. */
function loadersOf(cssFile: string): string[] {
  const loaders: string[] = [];
  for (const [, target] of read(indexCss).matchAll(/@import "([^"]+)";/g)) {
    if (path.resolve(path.dirname(indexCss), target ?? '') === cssFile) loaders.push('styles/index.css');
  }
  for (const [file, text] of sources) {
    for (const [, target] of text.matchAll(/^import '([^']+\.css)';$/gm)) {
      if (path.resolve(path.dirname(file), target ?? '') === cssFile) loaders.push(relative(file));
    }
  }
  return loaders;
}

describe('stylesheets', () => {
  it('each is loaded exactly once, by index.css or by a module beside it', () => {
    for (const file of cssFiles.filter((f) => f !== indexCss)) {
      const loaders = loadersOf(file);
      expect(loaders, relative(file)).toHaveLength(1);
      const [loader] = loaders;
      if (loader !== 'styles/index.css')
        expect(path.dirname(path.join(srcDir, loader ?? '')), relative(file)).toBe(path.dirname(file));
    }
  });

  it('style no class that the code never names', () => {
    const allSource = [...sources.values()].join('\n');
    // A modifier built from a prop (`button--${variant}`) is named by its base and its value.
    const named = (name: string) => {
      if (new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(allSource)) return true;
      const [base, modifier] = name.split('--');
      return modifier !== undefined && allSource.includes(`${base}--\${`) && allSource.includes(`'${modifier}'`);
    };
    for (const file of cssFiles) {
      const text = read(file).replace(/\/\*[\s\S]*?\*\//g, '');
      const classes = new Set([...text.matchAll(/\.(-?[a-z][\w-]*)/gi)].map(([, name]) => name ?? ''));
      const unused = [...classes].filter((name) => !/^\d/.test(name) && !named(name));
      expect(unused, relative(file)).toEqual([]);
    }
  });

  it('take their colours from tokens.css', () => {
    for (const file of cssFiles.filter((f) => !f.endsWith('styles/tokens.css'))) {
      const text = read(file).replace(/\/\*[\s\S]*?\*\//g, '');
      const literals = text.match(/#[\da-f]{3,8}\b|rgba?\(/gi) ?? [];
      // The logo's mark is drawn in one colour of its own.
      const allowed = file.endsWith('app/shell/logo.css') ? ['#2a2c35'] : [];
      expect(
        literals.filter((literal) => !allowed.includes(literal)),
        relative(file),
      ).toEqual([]);
    }
  });
});
