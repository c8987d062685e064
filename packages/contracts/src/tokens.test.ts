import { describe, expect, it, vi } from 'vitest';
import { formatCount, voiceAiStatusText } from './tokens';

describe('formatCount', () => {
  const intl = new Intl.NumberFormat('en-US');

  it('writes whole numbers as Intl does for en-US', () => {
    const values = [
      0,
      1,
      -1,
      12,
      999,
      1000,
      -1000,
      12_345,
      999_999,
      1_000_000,
      123_456_789,
      Number.MAX_SAFE_INTEGER,
      -Number.MAX_SAFE_INTEGER,
    ];
    for (let n = 1; n < 1e15; n = n * 7 + 3) values.push(n, -n);
    for (const n of values) expect(formatCount(n), String(n)).toBe(intl.format(n));
  });

  it('leaves fractions and unsafe integers to Intl', () => {
    for (const n of [1.5, 1234.5678, 2 ** 60, Number.NaN]) expect(formatCount(n)).toBe(intl.format(n));
  });

  it('makes no Intl formatter on load, nor for whole numbers: the first one a page makes loads locale data', async () => {
    vi.resetModules();
    const Original = Intl.NumberFormat;
    let made = 0;
    Intl.NumberFormat = class extends Original {
      constructor(...args: ConstructorParameters<typeof Original>) {
        super(...args);
        made += 1;
      }
    } as typeof Original;
    try {
      const fresh = await import('./tokens');
      expect(fresh.formatCount(1_234_567)).toBe('1,234,567');
      expect(made).toBe(0);
      expect(fresh.formatCount(1.5)).toBe('1.5');
      expect(fresh.formatCount(2.5)).toBe('2.5');
      expect(made).toBe(1);
    } finally {
      Intl.NumberFormat = Original;
    }
  });

  it('is what the status texts count with', () => {
    expect(voiceAiStatusText.tokens(1_234_560)).toBe(
      'Pay-as-you-go: 1,234,560 tokens (about 2,057 minutes of processing).',
    );
  });
});
