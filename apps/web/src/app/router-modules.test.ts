import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RENDERED_AHEAD, type RenderedAheadPage } from './rendered-ahead';
import { routeModuleLoaders } from './router';

/**
 * The module a loader imports, as the build's manifest names it (relative to apps/web, without
 * its extension). Vitest has already resolved the import to a path from apps/web (`/src/…`).
 */
function importedModule(load: () => Promise<unknown>): string {
  const specifier = /import\w*\(\s*["'`]([^"'`]+)["'`]/.exec(load.toString())?.[1];
  if (!specifier) throw new Error(`No import in ${load.toString()}`);
  const web = path.resolve(import.meta.dirname, '../..');
  const file = specifier.startsWith('/') ? path.join(web, specifier) : path.resolve(import.meta.dirname, specifier);
  return path
    .relative(web, file)
    .split(path.sep)
    .join('/')
    .replace(/\.tsx?$/, '');
}

describe('the modules of the pages rendered ahead (rendered-ahead.ts, ADR 0043)', () => {
  it.each(Object.keys(RENDERED_AHEAD) as RenderedAheadPage[])('lists what the routes at /%s load', (page) => {
    const loaded = routeModuleLoaders(`/${page}`).map(importedModule);
    expect(loaded).toEqual(RENDERED_AHEAD[page].map((module) => module.replace(/\.tsx?$/, '')));
  });
});
