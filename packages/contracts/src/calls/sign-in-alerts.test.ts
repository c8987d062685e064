import { describe, expect, it } from 'vitest';
import { EMAIL_CHANGE_FREEZE_HOURS, EMAIL_CHANGE_LINK_VALIDITY_HOURS } from '../constants';
import { faults } from '../errors';
import { callRoutes } from './operations';
import { signInAlertCalls, signInAlertResults } from './sign-in-alerts';

/** New-device alerts (ADR 0041): the call, its fault, and the rule the freeze relies on. */
describe('ReportSignIn', () => {
  it('takes the link token and answers until when e-mail changes are frozen', () => {
    expect(signInAlertCalls.ReportSignIn.parse({ token: 'abc' })).toEqual({ token: 'abc' });
    expect(() => signInAlertCalls.ReportSignIn.parse({ token: 'abc', other: 1 })).toThrow();
    expect(signInAlertResults.ReportSignIn.parse({ EmailChangesFrozenUntil: 1 })).toEqual({
      EmailChangesFrozenUntil: 1,
    });
    expect(callRoutes.ReportSignIn).toMatchObject({ method: 'POST', path: '/api/accounts/ReportSignIn', auth: 'none' });
  });

  it('freezes e-mail changes with a business fault that is no session fault', () => {
    expect(faults.EmailChangeFrozen).toMatchObject({ status: 403, type: 20 });
    expect(faults.EmailChangeFrozen.message).toContain(`${EMAIL_CHANGE_FREEZE_HOURS} hours`);
  });

  it('lets no e-mail change link asked before a report outlive the freeze', () => {
    // VerifyEmailChange refuses during the freeze; a link older than the report must be dead by its end.
    expect(EMAIL_CHANGE_LINK_VALIDITY_HOURS).toBeLessThanOrEqual(EMAIL_CHANGE_FREEZE_HOURS);
  });
});
