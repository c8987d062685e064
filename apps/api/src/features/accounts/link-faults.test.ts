import { faults } from '@soundid/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { faultOf, signUpVerified } from '../../../test/accounts-flow';
import { createTestApp, type TestApp } from '../../../test/kit/test-app';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

/** Each mail link's call and the fault it answers for a link that is no link of its kind. */
const LINK_CALLS = [
  { call: 'VerifyEmail', body: {}, fault: 'EmailValidationTokenNotFound' },
  { call: 'ResendVerificationEmailForToken', body: {}, fault: 'EmailValidationTokenNotFound' },
  { call: 'VerifyEmailChange', body: {}, fault: 'EmailChangeValidationTokenNotFound' },
  { call: 'DeleteAccountConfirm', body: {}, fault: 'AccountDeletionTokenNotFound' },
  { call: 'PasswordReset', body: { password: 'a brand new one' }, fault: 'TokenInvalid' },
] as const;

describe('a mail link that is cut short or mangled', () => {
  // A mail client that wraps or truncates a long link, or a hand-copied one: the customer
  // must read "this link is invalid", not "the request is not valid" (docs/requirements.md §8 messages).
  const mangled = ['', 'abc', 'has spaces and !', 'trailing-part-of-a-link=='];

  it.each(LINK_CALLS)('$call answers $fault', async ({ call, body, fault }) => {
    for (const token of mangled) {
      const res = await t.call(`/api/accounts/${call}`, { ...body, token });
      expect([res.statusCode, faultOf(res)]).toEqual([faults[fault].status, fault]);
    }
  });

  it('still refuses an oversize token as bad input', async () => {
    const res = await t.call('/api/accounts/VerifyEmail', { token: 'x'.repeat(201) });
    expect([res.statusCode, faultOf(res)]).toEqual([400, 'RequestInvalid']);
  });
});

describe('a link of one kind used for another', () => {
  it('is no link of the other kind', async () => {
    const session = await signUpVerified(t, 'kind@example.com');
    await t.call('/api/accounts/DeleteAccount', {}, session);
    const deletion = await t.lastLinkToken('kind@example.com');
    expect(faultOf(await t.call('/api/accounts/VerifyEmail', { token: deletion }))).toBe(
      'EmailValidationTokenNotFound',
    );
    expect(faultOf(await t.call('/api/accounts/VerifyEmailChange', { token: deletion }))).toBe(
      'EmailChangeValidationTokenNotFound',
    );
    expect(faultOf(await t.call('/api/accounts/PasswordReset', { token: deletion, password: 'a brand new one' }))).toBe(
      'TokenInvalid',
    );
    // The deletion link itself still works: the attempts above did not use it up.
    expect((await t.call('/api/accounts/DeleteAccountConfirm', { token: deletion })).statusCode).toBe(200);
  });
});
