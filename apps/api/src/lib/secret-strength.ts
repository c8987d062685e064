/**
 * How much a configured secret could be worth to a guesser, estimated from its text alone
 * (ADR 0027). The estimate cannot prove that a value is random; it refuses what is plainly not:
 * placeholders such as 32 × `a`, a short pattern repeated, a value of few distinct characters.
 *
 * The rule: strip the value to its shortest repeating unit (`abcabcabc` counts as `abc`), then
 * bits = length × log2(distinct characters). A value passes with at least 128 bits, at least
 * 8 distinct characters, and no character repeated 6 or more times in a row. `openssl rand
 * -base64 32` (about 250 bits by this estimate) or `openssl rand -hex 32` (about 245) pass; a
 * value of exactly 128 random bits written in hex (32 characters) does not, as 32 characters of
 * hex seldom use all 16 digits: the margin is deliberate.
 */
export const MIN_SECRET_BITS = 128;
export const MIN_SECRET_DISTINCT_CHARACTERS = 8;
export const MAX_SECRET_RUN = 5;

export interface SecretWeakness {
  /** Why the value is refused, worded to follow the variable's name. */
  reason: string;
}

/** The shortest unit whose repetition (the last copy may be cut short) spells the value. */
export function repeatingUnit(value: string): string {
  for (let period = 1; period <= value.length / 2; period++) {
    let repeats = true;
    for (let i = period; i < value.length; i++) {
      if (value[i] !== value[i - period]) {
        repeats = false;
        break;
      }
    }
    if (repeats) return value.slice(0, period);
  }
  return value;
}

/** The estimate in bits: length of the repeating unit × log2 of its distinct characters. */
export function estimatedSecretBits(value: string): number {
  const unit = [...repeatingUnit(value)];
  const distinct = new Set(unit).size;
  return distinct < 2 ? 0 : unit.length * Math.log2(distinct);
}

function longestRun(value: string): number {
  let longest = 0;
  let run = 0;
  let previous: string | undefined;
  for (const character of value) {
    run = character === previous ? run + 1 : 1;
    previous = character;
    longest = Math.max(longest, run);
  }
  return longest;
}

/** Undefined when the value passes the rule above; otherwise why it does not. */
export function secretWeakness(value: string): SecretWeakness | undefined {
  const distinct = new Set(value).size;
  if (distinct < MIN_SECRET_DISTINCT_CHARACTERS)
    return { reason: `uses only ${distinct} distinct characters (at least ${MIN_SECRET_DISTINCT_CHARACTERS})` };
  const run = longestRun(value);
  if (run > MAX_SECRET_RUN) return { reason: `repeats one character ${run} times in a row` };
  const unit = repeatingUnit(value);
  if (unit.length < value.length) return { reason: `is a ${unit.length}-character pattern repeated` };
  const bits = Math.floor(estimatedSecretBits(value));
  if (bits < MIN_SECRET_BITS) return { reason: `holds about ${bits} bits of entropy (at least ${MIN_SECRET_BITS})` };
  return undefined;
}
