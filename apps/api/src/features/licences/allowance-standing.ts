import { DEVICE_DEACTIVATION_WINDOW_DAYS } from '@soundid/contracts';
import { addDays } from '../../lib/clock';

/**
 * The deactivation allowance's standing (docs/decisions/0030-deactivation-allowance-belongs-to-the-key.md):
 * `sources` are the counted, unforgiven deactivation times of the licence itself and of each key
 * the customer holds of its product. What is used is the largest count inside the window ending
 * at `now`; it goes down by one when every source holding that count has seen its oldest one
 * leave the window, so the next deactivation returns at the latest of those oldest times plus
 * the window. One rule for the limit check, the customer page and the devices panel.
 */
export function allowanceStanding(
  sources: readonly (readonly Date[])[],
  now: Date,
): { used: number; nextReturnAt: Date | null } {
  const since = addDays(now, -DEVICE_DEACTIVATION_WINDOW_DAYS).getTime();
  const inWindow = sources.map((times) =>
    times
      .map((t) => t.getTime())
      .filter((t) => t > since)
      .sort((a, b) => a - b),
  );
  const used = Math.max(0, ...inWindow.map((times) => times.length));
  if (used === 0) return { used, nextReturnAt: null };
  const oldestOfFullest = inWindow.filter((times) => times.length === used).map((times) => times[0] as number);
  return { used, nextReturnAt: addDays(new Date(Math.max(...oldestOfFullest)), DEVICE_DEACTIVATION_WINDOW_DAYS) };
}
