import { describe, expect, it, vi } from 'vitest';
import { fault, inSequence, mockApi, ok, testUser } from '../testing/mock-api';
import { setTestCookie } from '../testing/reset-client-state';
import { apiGet, apiPost, postAccountCall, STEP_UP_HOST_WAIT_MS, stepUpSlot } from './api-client';
import { ApiError, apiErrorsStore } from './api-errors';
import * as browserLocation from './browser-location';
import { saveHeadersFromQuery } from './saved-headers';
import { sessionStore } from './session';

describe('api-client', () => {
  it('sends the fixed headers, same-origin credentials and the JSON body', async () => {
    const api = mockApi({ ChangeEmail: ok() });
    await postAccountCall('ChangeEmail', { newEmail: 'new@example.com' });
    const [call] = api.calls;
    expect(call?.path).toBe('/api/accounts/ChangeEmail');
    expect(call?.method).toBe('POST');
    expect(call?.body).toEqual({ newEmail: 'new@example.com' });
    expect(call?.headers.get('Accept')).toBe('application/json');
    expect(call?.headers.get('Branding')).toBe('SoundID');
    expect(call?.headers.get('Software')).toMatch(/^MySoundID-Web\//);
    expect(call?.headers.get('Content-Type')).toBe('application/json');
    expect(call?.headers.has('AuthToken')).toBe(false);
    expect(vi.mocked(fetch).mock.calls[0]?.[1]?.credentials).toBe('same-origin');
  });

  it('forwards DevelopmentEnv always, UTI on posts only, PaymentsEnv where asked, and saved headers', async () => {
    setTestCookie('DevelopmentEnv', 'staging');
    setTestCookie('UTI', 'tracking-1');
    setTestCookie('PaymentsEnv', 'sandbox');
    saveHeadersFromQuery(JSON.stringify({ 'X-Partner': 'adam' }));
    const api = mockApi({ '/api/accounts/features': ok({ CoProducer: false }), DeleteAccount: ok() });

    await apiGet('/api/accounts/features');
    await apiPost('/api/accounts/DeleteAccount', {}, { paymentsEnv: true });

    const [get, post] = api.calls;
    expect(get?.headers.get('DevelopmentEnv')).toBe('staging');
    expect(get?.headers.has('UTI')).toBe(false);
    expect(get?.headers.has('PaymentsEnv')).toBe(false);
    expect(get?.headers.get('X-Partner')).toBe('adam');
    expect(post?.headers.get('UTI')).toBe('tracking-1');
    expect(post?.headers.get('PaymentsEnv')).toBe('sandbox');
  });

  it('turns Success:false into an ApiError with the fault and shows it in the banner', async () => {
    mockApi({ ChangeEmail: fault('EmailChangeEmailAlreadyUsedByAnotherUser') });
    const error = await postAccountCall('ChangeEmail', { newEmail: 'x@example.com' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).faultName).toBe('EmailChangeEmailAlreadyUsedByAnotherUser');
    expect((error as ApiError).message).toBe('Email address already used by another user.');
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual([
      'EmailChangeEmailAlreadyUsedByAnotherUser',
    ]);
  });

  it("takes down a call's banner errors when that call next succeeds, and only those", async () => {
    mockApi({
      ChangeEmail: inSequence(fault('EmailChangeEmailAlreadyUsedByAnotherUser'), ok()),
      UpdateUserDetails: fault('ServiceUnavailable', { ExceptionCode: 503 }),
    });
    await postAccountCall('ChangeEmail', { newEmail: 'taken@example.com' }).catch(() => undefined);
    await postAccountCall('UpdateUserDetails', {
      addressLine1: '1 Main St',
      city: 'Riga',
      state: '',
      postalCode: 'LV-1010',
      country: 'LV',
    }).catch(() => undefined);
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual([
      'EmailChangeEmailAlreadyUsedByAnotherUser',
      'ServiceUnavailable',
    ]);
    await postAccountCall('ChangeEmail', { newEmail: 'free@example.com' });
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['ServiceUnavailable']);
  });

  it('treats Success:false as an error even with HTTP 200, and an answer without Success:true too', async () => {
    const answer = (body: unknown) => new Response(JSON.stringify(body), { status: 200 });
    const keyNotFound = fault('KeyNotFound');
    vi.stubGlobal(
      'fetch',
      vi
        .fn()
        .mockResolvedValueOnce(answer(keyNotFound))
        .mockResolvedValueOnce(answer({ Result: { User: testUser } }))
        .mockResolvedValueOnce(answer({ Success: 'true', Result: {} })),
    );
    await expect(apiPost('/api/accounts/RegisterKey', { key: 'x' })).rejects.toMatchObject({
      faultName: 'KeyNotFound',
      status: 200,
    });
    await expect(apiPost('/api/accounts/GetOrUpdateProfile')).rejects.toMatchObject({ faultName: 'Unknown' });
    await expect(apiPost('/api/accounts/GetOrUpdateProfile')).rejects.toMatchObject({ faultName: 'Unknown' });
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['KeyNotFound', 'Unknown']);
  });

  it('drops the session and reloads on any ExceptionType 30, whatever its name', async () => {
    const reload = vi.spyOn(browserLocation, 'reloadPage').mockImplementation(() => undefined);
    sessionStore.set(testUser);
    mockApi({ GetSessions: fault('LoginNeeded', { ExceptionType: 30, ExceptionCode: 401 }) });
    await expect(postAccountCall('GetSessions', {})).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get()).toBe(null);
    expect(reload).toHaveBeenCalledOnce();
    expect(apiErrorsStore.get()).toEqual([]);
  });

  it('keeps silent calls and locally handled faults out of the banner', async () => {
    mockApi({ RegisterKey: fault('KeyNotFound'), UpgradeKey: fault('KeyOwnedByAnotherUser') });
    await expect(apiPost('/api/accounts/RegisterKey', { silent: true })).rejects.toBeInstanceOf(ApiError);
    await expect(apiPost('/api/accounts/UpgradeKey', {})).rejects.toBeInstanceOf(ApiError);
    expect(apiErrorsStore.get()).toEqual([]);
  });

  it('reports a network failure as Network Error, and a non-envelope answer as Unknown', async () => {
    vi.stubGlobal('fetch', vi.fn().mockRejectedValueOnce(new TypeError('Failed to fetch')));
    await expect(apiPost('/api/accounts/X')).rejects.toMatchObject({ faultName: 'Network Error' });
    vi.stubGlobal('fetch', vi.fn().mockResolvedValueOnce(new Response('<html>', { status: 502 })));
    await expect(apiPost('/api/accounts/X')).rejects.toMatchObject({ faultName: 'Unknown', status: 502 });
  });

  it('drops a signed-in user and reloads on a session fault', async () => {
    const reload = vi.spyOn(browserLocation, 'reloadPage').mockImplementation(() => undefined);
    sessionStore.set(testUser);
    mockApi({ ChangeEmail: fault('SecurityAuthTokenExpired', { ExceptionType: 30 }) });
    await expect(postAccountCall('ChangeEmail', { newEmail: 'x@example.com' })).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get()).toBe(null);
    expect(reload).toHaveBeenCalledOnce();
    expect(apiErrorsStore.get()).toEqual([]);
  });

  it('does not reload when the session fault answers the start-up check', async () => {
    const reload = vi.spyOn(browserLocation, 'reloadPage').mockImplementation(() => undefined);
    mockApi({ LoginByToken: fault('SecurityAuthTokenNotPassed', { ExceptionType: 30 }) });
    await expect(postAccountCall('LoginByToken', { getProfile: true })).rejects.toBeInstanceOf(ApiError);
    expect(sessionStore.get()).toBe(null);
    expect(reload).not.toHaveBeenCalled();
  });

  it('sends GETs (the action URLs) with the same headers, cookie and envelope handling as posts', async () => {
    const api = mockApi({
      '/api/actions/devices/d1/deactivate': ok({ Message: 'done' }),
      '/api/actions/devices/d2/deactivate': fault('DeviceNotFound'),
    });
    expect(await apiGet('/api/actions/devices/d1/deactivate')).toEqual({ Result: { Message: 'done' } });
    const [get] = api.calls;
    expect(get?.method).toBe('GET');
    expect(get?.headers.get('Software')).toMatch(/^MySoundID-Web\//);
    expect(get?.headers.get('Branding')).toBe('SoundID');
    expect(get?.headers.get('Accept')).toBe('application/json');
    expect(get?.headers.has('Content-Type')).toBe(false);
    expect(vi.mocked(fetch).mock.calls[0]?.[1]?.credentials).toBe('same-origin');
    expect(vi.mocked(fetch).mock.calls[0]?.[1]?.body).toBeUndefined();

    const error = await apiGet('/api/actions/devices/d2/deactivate').catch((e: unknown) => e);
    expect((error as ApiError).faultName).toBe('DeviceNotFound');
    expect(apiErrorsStore.get().map((e) => e.fault.ExceptionName)).toEqual(['DeviceNotFound']);
    apiErrorsStore.set([]);
    await apiGet('/api/actions/devices/d2/deactivate', { silent: true }).catch(() => undefined);
    expect(apiErrorsStore.get()).toEqual([]);
  });

  describe('a call that answers StepUpRequired (ADR 0040)', () => {
    it('fails at once when nobody is signed in: no host will come to ask', async () => {
      vi.useFakeTimers();
      try {
        mockApi({ DeleteAccount: fault('StepUpRequired') });
        let settled = false;
        const call = apiPost('/api/accounts/DeleteAccount', {}).catch((e: unknown) => {
          settled = true;
          return e;
        });
        // Only the fetch's own microtasks: no timer is run.
        await vi.advanceTimersByTimeAsync(0);
        expect(settled).toBe(true);
        expect(((await call) as ApiError).faultName).toBe('StepUpRequired');
      } finally {
        vi.useRealTimers();
      }
    });

    it('signed in, waits for the host that has not loaded yet, then sends the call once more when proven', async () => {
      vi.useFakeTimers();
      try {
        sessionStore.set(testUser);
        const api = mockApi({ DeleteAccount: inSequence(fault('StepUpRequired'), ok()) });
        const call = apiPost('/api/accounts/DeleteAccount', {});
        await vi.advanceTimersByTimeAsync(STEP_UP_HOST_WAIT_MS / 2);
        const ask = vi.fn(async () => true);
        stepUpSlot.ask = ask;
        await vi.advanceTimersByTimeAsync(100);
        await expect(call).resolves.toMatchObject({ Result: {} });
        expect(ask).toHaveBeenCalledTimes(1);
        expect(api.calls).toHaveLength(2);
      } finally {
        stepUpSlot.ask = undefined;
        vi.useRealTimers();
      }
    });

    it('signed in with no host after the wait, fails with the fault as it came', async () => {
      vi.useFakeTimers();
      try {
        sessionStore.set(testUser);
        mockApi({ DeleteAccount: fault('StepUpRequired') });
        const call = apiPost('/api/accounts/DeleteAccount', {}).catch((e: unknown) => e);
        await vi.advanceTimersByTimeAsync(STEP_UP_HOST_WAIT_MS + 100);
        expect(((await call) as ApiError).faultName).toBe('StepUpRequired');
      } finally {
        vi.useRealTimers();
      }
    });
  });
});
