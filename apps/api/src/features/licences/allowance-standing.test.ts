import { DEVICE_DEACTIVATION_WINDOW_DAYS } from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../lib/clock';
import { allowanceStanding } from './allowance-standing';

/** ADR 0030's rule as the devices panel tells it: used, and when the next one comes back. */
describe('allowanceStanding', () => {
  const now = new Date('2026-11-26T12:00:00Z');
  const ago = (days: number) => addDays(now, -days);
  const back = (days: number) => addDays(ago(days), DEVICE_DEACTIVATION_WINDOW_DAYS);

  it('nothing used: nothing to come back', () => {
    expect(allowanceStanding([], now)).toEqual({ used: 0, nextReturnAt: null });
    expect(allowanceStanding([[], []], now)).toEqual({ used: 0, nextReturnAt: null });
  });

  it('counts only inside the window; the oldest inside comes back first', () => {
    expect(allowanceStanding([[ago(400), ago(300), ago(10)]], now)).toEqual({ used: 2, nextReturnAt: back(300) });
  });

  it('the largest source counts; with two as large, one comes back when both have shed their oldest', () => {
    const licence = [ago(200), ago(50)];
    const key = [ago(100), ago(20)];
    const small = [ago(300)];
    expect(allowanceStanding([licence, key, small], now)).toEqual({ used: 2, nextReturnAt: back(100) });
    expect(allowanceStanding([licence, [ago(5)]], now)).toEqual({ used: 2, nextReturnAt: back(200) });
  });
});
