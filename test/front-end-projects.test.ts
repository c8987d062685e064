import { describe, expect, it } from 'vitest';
import config from '../vitest.config';

/**
 * The front ends' tests share modules and jsdom per worker, except the files that would leak into
 * the files after them (docs/decisions/0035-test-kit.md, addendum "front-end tests share their
 * modules"): vitest.config.ts sorts them by their text into an isolated project.
 */
interface InlineProject {
  test: { name: string; isolate?: boolean; exclude: string[]; setupFiles?: string[] };
}

const project = (name: string) => {
  const found = (config.test?.projects ?? []).find(
    (entry): entry is InlineProject =>
      typeof entry === 'object' && 'test' in entry && (entry as InlineProject).test?.name === name,
  );
  if (!found) throw new Error(`no project ${name}`);
  return found.test;
};

describe('the front-end test projects', () => {
  const shared = project('web');
  const isolated = project('web-isolated');

  it('share modules, with an empty page before each test', () => {
    expect(shared.isolate).toBe(false);
    expect(isolated.isolate).toBeUndefined();
    expect(shared.setupFiles?.some((file) => file.endsWith('test/fresh-page.ts'))).toBe(true);
    expect(project('console').isolate).toBe(false);
  });

  it.each([
    ['a module replaced (vi.mock)', 'src/features/auth/components/social-buttons.test.tsx'],
    ['a module replaced (vi.mock)', 'src/features/voice-ai/components/stripe-embedded-checkout.test.tsx'],
    ['a render on the server', 'src/server-entry.test.tsx'],
    ['a render on the server, and a module replaced', 'src/server-entry.errors.test.tsx'],
  ])('runs a file with %s isolated: %s', (_, file) => {
    expect(shared.exclude).toContain(file);
    expect(isolated.exclude).not.toContain(file);
  });

  it('runs every other file shared, once', () => {
    for (const file of ['src/app/shell/shell.test.tsx', 'src/lib/load-script.test.ts']) {
      expect(shared.exclude).not.toContain(file);
      expect(isolated.exclude).toContain(file);
    }
  });
});
