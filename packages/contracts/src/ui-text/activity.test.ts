import { describe, expect, it } from 'vitest';
import { ACCOUNT_EVENT_KINDS, DISPUTABLE_ACCOUNT_EVENT_KINDS, isDisputable } from '../calls/activity';
import { ACCOUNT_FREEZE_HOURS, EMAIL_CHANGE_FREEZE_HOURS, EMAIL_CHANGE_LINK_VALIDITY_HOURS } from '../constants';
import { accountEventText } from './activity';

/** My activity's words and rules (docs/decisions/0055-my-activity.md). */
describe('My activity', () => {
  it('words every kind, with and without what it keeps, never leaving a hole', () => {
    for (const kind of ACCOUNT_EVENT_KINDS) {
      for (const words of [{}, { product: 'SoundID Reference', device: 'Studio Mac', detail: '12' }]) {
        const text = accountEventText(kind, words);
        expect(text.length, kind).toBeGreaterThan(3);
        expect(text, kind).not.toMatch(/undefined|null|\s{2}|^\s|\s$/);
      }
    }
  });

  it('offers "This wasn\'t me" only for what the customer may have been made to do', () => {
    for (const kind of ['support_action', 'tokens_granted', 'tokens_refunded', 'tokens_withdrawn'] as const) {
      expect(isDisputable(kind, null)).toBe(false);
    }
    expect(isDisputable('device_idle_released', 'idle')).toBe(false);
    expect(isDisputable('licence_received', null)).toBe(false);
    expect(isDisputable('not_me_reported', null)).toBe(false);
    expect(isDisputable('device_deactivated', 'support')).toBe(false);
    expect(isDisputable('device_deactivated', 'customer')).toBe(true);
    for (const kind of DISPUTABLE_ACCOUNT_EVENT_KINDS) expect(ACCOUNT_EVENT_KINDS).toContain(kind);
  });

  it('freezes e-mail changes as long as the link of a change asked for before lives', () => {
    expect(EMAIL_CHANGE_FREEZE_HOURS).toBe(ACCOUNT_FREEZE_HOURS);
    expect(EMAIL_CHANGE_LINK_VALIDITY_HOURS).toBeLessThanOrEqual(ACCOUNT_FREEZE_HOURS);
  });
});
