/**
 * Printable strings from a seeded generator (mulberry32): the same seed gives the same strings
 * in every run, so a test that draws "random" passwords is deterministic.
 */
export function seededStrings(seed: number, minLength = 12, maxLength = 24): () => string {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  return () => {
    const length = minLength + Math.floor(next() * (maxLength - minLength + 1));
    let text = '';
    // Every printable ASCII character, space included.
    for (let i = 0; i < length; i++) text += String.fromCharCode(32 + Math.floor(next() * 95));
    return text;
  };
}
