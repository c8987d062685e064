import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { apiErrorsStore } from '../../../lib/api-errors';
import * as browserLocation from '../../../lib/browser-location';
import { sessionStore } from '../../../lib/session';
import { emptyLicenceList } from '../../../testing/licence-list';
import { fault, mockApi, ok, signedIn, testUser } from '../../../testing/mock-api';
import { renderApp } from '../../../testing/render-app';
import { startWithLoginCode } from '../api/exchange-web-login-code';

/**
 * The start-up's query token (docs/requirements.md §2) is a desktop app's one-time code, exchanged by the
 * service; a session a link carries is never taken over, and another customer's session is
 * replaced only when the customer says so (ADR 0029; ASVS 7.2.4, 7.6.2).
 */
const bob = { ...testUser, Id: 'u2', Email: 'bob@example.com' };
const switchQuestion = fault('WebLoginSwitchUnconfirmed', {
  ExceptionCode: 409,
  ExceptionVariables: [
    { Key: 'CurrentEmail', Value: testUser.Email },
    { Key: 'LinkEmail', Value: bob.Email },
  ],
});
const list = { '/api/licenses/GetAccountLicensesByProductLine': ok(emptyLicenceList()) };

describe('start-up with a query token', () => {
  it('exchanges it as a one-time code, and never sends it as the session (AuthToken)', async () => {
    const api = mockApi({ ExchangeWebLoginCode: ok({ User: bob }) });
    await startWithLoginCode('code-1');
    expect(sessionStore.get()).toEqual(bob);
    expect(api.callsTo('ExchangeWebLoginCode')[0]?.body).toEqual({ code: 'code-1', silent: true });
    expect(api.calls.some((call) => call.headers.has('AuthToken'))).toBe(false);
    expect(api.callsTo('LoginByToken')).toHaveLength(0);
  });

  it('signs nobody in with a token that is no code: the customer signed in stays, and hears the link is not valid', async () => {
    const api = mockApi({ ExchangeWebLoginCode: fault('WebLoginCodeInvalid'), LoginByToken: signedIn(testUser) });
    await startWithLoginCode('eyJhbGciOiJIUzI1NiJ9.a-session-of-someone-else.sig');
    expect(sessionStore.get()).toEqual(testUser);
    expect(api.calls.some((call) => call.headers.has('AuthToken'))).toBe(false);
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['WebLoginCodeInvalid']);
  });
});

describe('switching accounts through a portal link', () => {
  it('asks first, naming both addresses; staying keeps the current customer and asks the service nothing more', async () => {
    const api = mockApi({ ExchangeWebLoginCode: switchQuestion, LoginByToken: signedIn(testUser), ...list });
    await startWithLoginCode('code-2');
    expect(sessionStore.get()).toEqual(testUser);
    const { user } = renderApp('/products');
    const dialog = await screen.findByRole('dialog', { name: 'Switch account?' });
    expect(dialog).toHaveTextContent(
      'You are signed in as ada@example.com. The link you opened signs in as bob@example.com. Sign out ada@example.com and continue as bob@example.com?',
    );
    await user.click(screen.getByRole('button', { name: 'Stay signed in as ada@example.com' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(api.callsTo('ExchangeWebLoginCode')).toHaveLength(1);
    expect(sessionStore.get()).toEqual(testUser);
  });

  it('switching confirms it to the service, then loads the page again as the link’s customer', async () => {
    const reload = vi.spyOn(browserLocation, 'reloadPage').mockImplementation(() => undefined);
    let confirmed = false;
    const api = mockApi({
      '/api/accounts/ExchangeWebLoginCode': (call) => {
        confirmed = call.body.confirmSwitch === true;
        return confirmed ? ok({ User: bob }) : switchQuestion;
      },
      LoginByToken: signedIn(testUser),
      ...list,
    });
    await startWithLoginCode('code-3');
    const { user } = renderApp('/products');
    await user.click(await screen.findByRole('button', { name: 'Continue as bob@example.com' }));
    await waitFor(() => expect(reload).toHaveBeenCalledTimes(1));
    expect(api.callsTo('ExchangeWebLoginCode').map((call) => call.body)).toEqual([
      { code: 'code-3', silent: true },
      { code: 'code-3', confirmSwitch: true, silent: true },
    ]);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('stays with the current customer when the link ran out meanwhile, and says so', async () => {
    const reload = vi.spyOn(browserLocation, 'reloadPage').mockImplementation(() => undefined);
    mockApi({
      '/api/accounts/ExchangeWebLoginCode': (call) =>
        call.body.confirmSwitch ? fault('WebLoginCodeExpired', { ExceptionCode: 410 }) : switchQuestion,
      LoginByToken: signedIn(testUser),
      ...list,
    });
    await startWithLoginCode('code-4');
    const { user } = renderApp('/products');
    await user.click(await screen.findByRole('button', { name: 'Continue as bob@example.com' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(reload).not.toHaveBeenCalled();
    expect(sessionStore.get()).toEqual(testUser);
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['WebLoginCodeExpired']);
  });
});
