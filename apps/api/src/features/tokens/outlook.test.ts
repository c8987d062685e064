import { runwayText, TOKEN_RUNWAY_WINDOW_DAYS, tokenOutlookText } from '@soundid/contracts';
import { describe, expect, it } from 'vitest';
import { addDays } from '../../lib/clock';
import { tokenOutlook } from './outlook';

/** The token outlook's rules (docs/decisions/0056-token-histories-and-outlook.md). */
const now = new Date('2026-11-27T12:00:00Z');
const lot = (remaining: number, expiresInDays: number) => ({ remaining, expiresAt: addDays(now, expiresInDays) });

describe('tokenOutlook', () => {
  it('lists the live lots that expire within 30 days, earliest first', () => {
    const outlook = tokenOutlook([lot(1200, 5), lot(0, 10), lot(300, 30), lot(500, 31)], 0, now);
    expect(outlook.balance).toBe(2000);
    expect(outlook.expiring).toEqual([
      { tokens: 1200, expiresAt: addDays(now, 5) },
      { tokens: 300, expiresAt: addDays(now, 30) },
    ]);
  });

  it('lists the expiring lots earliest first whatever the spend order (a short grant after a purchase)', () => {
    const outlook = tokenOutlook([lot(700, 300), lot(300, 20), lot(1000, 5)], 0, now);
    expect(outlook.expiring.map((e) => e.tokens)).toEqual([1000, 300]);
  });

  it('the runway: the balance at the window’s daily pace', () => {
    // 300 tokens over 30 days: 10 a day; 700 tokens last 70 days.
    expect(tokenOutlook([lot(700, 300)], 300, now).runwayDays).toBe(70);
    expect(TOKEN_RUNWAY_WINDOW_DAYS).toBe(30);
  });

  it('no runway without a pace or without a balance', () => {
    expect(tokenOutlook([lot(700, 300)], 0, now).runwayDays).toBeNull();
    expect(tokenOutlook([], 300, now).runwayDays).toBeNull();
  });

  it('what a lot still holds when it expires does not make the balance last longer', () => {
    // 10 a day: the first lot's 1,000 would last 100 days but it expires in 20 (200 used);
    // the second lot's 100 then last 10 more days.
    expect(tokenOutlook([lot(1000, 20), lot(100, 300)], 300, now).runwayDays).toBe(30);
    // Each lot is spent until it expires: 50 of 100 by day 5, 30 of 50 by day 8, then 10 days of 100.
    expect(tokenOutlook([lot(100, 5), lot(50, 8), lot(100, 300)], 300, now).runwayDays).toBe(18);
    // A lot that expires before the pace reaches it is lost whole.
    expect(tokenOutlook([lot(100, 20), lot(50, 5), lot(100, 300)], 300, now).runwayDays).toBe(20);
  });

  it('words: the runway and a lot that expires on a day', () => {
    expect(runwayText(12.4)).toBe('At your pace over the last 30 days, about 12 days.');
    expect(runwayText(1)).toBe('At your pace over the last 30 days, about 1 day.');
    expect(runwayText(0.4)).toBe('At your pace over the last 30 days, less than a day.');
    expect(tokenOutlookText.expiresOn(1200, Date.UTC(2027, 2, 3, 23, 59))).toBe('1,200 tokens expire on 3 Mar 2027');
    expect(tokenOutlookText.expiresOn(1, Date.UTC(2027, 8, 30))).toBe('1 token expires on 30 Sep 2027');
    expect(tokenOutlookText.balance(4110)).toBe('Your tokens: 4,110 (about 6 minutes of processing)');
  });
});
