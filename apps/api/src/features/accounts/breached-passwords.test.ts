import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BREACHED_SOURCES, buildFromSources, readSource } from '../../../scripts/breached-password-sources';
import { seededStrings } from '../../../test/seeded-strings';
import {
  BREACHED_PASSWORDS_FILE,
  BreachedPasswordSet,
  buildBreachedPasswordSet,
  SHIPPED_SHAPE,
  sharedBreachedPasswords,
} from './breached-passwords';
import { assertPasswordAcceptable } from './password-policy';

const shipped = BreachedPasswordSet.parse(readFileSync(BREACHED_PASSWORDS_FILE));

function draw(seed: number, count: number, minLength = 12): string[] {
  const next = seededStrings(seed, minLength);
  return Array.from({ length: count }, next);
}

// No database here: these run once, on the PGlite run.
const once = describe.skipIf(process.env.TEST_DB_KIND === 'postgres');

once('the breached-password set (ADR 0042)', () => {
  it('finds every password it was built from, and only those of at least the minimum length', () => {
    const members = ['dantheman123', 'qwerty1992', 'letmein!', 'Pässwörter2009', '🎧🎧🎧🎧🎧🎧🎧🎧'];
    const set = BreachedPasswordSet.parse(
      buildBreachedPasswordSet([...members, 'short1', ...members], { ...SHIPPED_SHAPE, minLength: 8 }),
    );
    expect(set.size).toBe(members.length);
    for (const member of members) expect(set.has(member), member).toBe(true);
    for (const other of ['short1', 'dantheman124', 'Qwerty1992', 'letmein! ', 'correct horse battery']) {
      expect(set.has(other), other).toBe(false);
    }
  });

  it('is the same bytes for the same passwords in any order', () => {
    const passwords = draw(7, 2_000);
    const shape = SHIPPED_SHAPE;
    expect(buildBreachedPasswordSet([...passwords].reverse(), shape)).toEqual(
      buildBreachedPasswordSet(passwords, shape),
    );
  });

  it('refuses a file that is not one, or is cut short', () => {
    const bytes = buildBreachedPasswordSet(['dantheman123'], SHIPPED_SHAPE);
    expect(() => BreachedPasswordSet.parse(Buffer.from('not a set'))).toThrow(/SBP1/);
    expect(() => BreachedPasswordSet.parse(bytes.subarray(0, bytes.length - 1))).toThrow(/truncated/);
  });

  it('refuses non-members at the rate n / 2^bits: a 24-bit set of 100,000 on 200,000 seeded strings', () => {
    const members = draw(1, 100_000);
    const set = BreachedPasswordSet.parse(
      buildBreachedPasswordSet(members, { prefixBytes: 1, suffixBytes: 2, minLength: 8 }),
    );
    expect(members.every((m) => set.has(m))).toBe(true);
    const expected = set.size / 2 ** 24;
    const others = draw(2, 200_000);
    const rate = others.filter((p) => set.has(p)).length / others.length;
    // 0.6 %: about 1,190 of 200,000, give or take 35 (one standard deviation).
    expect(rate).toBeGreaterThan(expected * 0.85);
    expect(rate).toBeLessThan(expected * 1.15);
  }, 120_000);
});

once('the shipped list (ADR 0042, ASVS 6.2.12)', () => {
  it('holds the sources’ passwords of 8 characters or more in 40-bit entries, a false positive at 5.7e-7', () => {
    expect(shipped.shape).toEqual(SHIPPED_SHAPE);
    expect(shipped.size).toBeGreaterThan(600_000);
    expect(shipped.size / 2 ** 40).toBeLessThan(1e-6);
    expect(readFileSync(BREACHED_PASSWORDS_FILE).length).toBeLessThan(3 * 2 ** 20);
  });

  it('finds every source password of at least 8 characters (a sample of one in 500)', () => {
    for (const source of BREACHED_SOURCES) {
      const sample = readSource(source).filter((p, i) => i % 500 === 0 && p.length >= 8);
      expect(sample.length).toBeGreaterThan(200);
      expect(sample.filter((p) => !shipped.has(p))).toEqual([]);
    }
  });

  it('refuses few random strings: at most 2 of 200,000 seeded ones (0.11 expected at 5.7e-7)', () => {
    const refused = draw(42, 200_000, 8).filter((p) => shipped.has(p));
    expect(refused.length).toBeLessThanOrEqual(2);
  }, 120_000);

  it('is what the pinned sources build (npm run breached-passwords:build -w apps/api)', () => {
    const built = buildFromSources();
    expect(built.bytes.equals(readFileSync(BREACHED_PASSWORDS_FILE)), 'rebuild and commit the file').toBe(true);
  }, 120_000);

  it('a missing file is a clear error at start-up and at every check: no password passes unchecked', async () => {
    const missing = sharedBreachedPasswords(path.join(path.dirname(BREACHED_PASSWORDS_FILE), 'missing.bin'));
    const reported = await new Promise<Error>((resolve) => missing.warm(resolve));
    expect(reported.message).toMatch(/missing\.bin cannot be read \(ENOENT\).*ADR 0042/);
    await expect(assertPasswordAcceptable('a fine long passphrase', missing)).rejects.toThrow(/cannot be read/);
  });
});
