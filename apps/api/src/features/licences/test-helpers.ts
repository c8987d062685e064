import type { LightMyRequestResponse } from 'fastify';
import { PASSWORD, signUpVerified } from '../../../test/accounts-flow';
import type { TestApp } from '../../../test/kit/test-app';

/** Helpers of the licences tests: operator calls and the GET action URLs. */

export async function adminCall(t: TestApp, url: string, payload?: object): Promise<LightMyRequestResponse> {
  return t.app.inject({
    method: payload === undefined ? 'GET' : 'POST',
    url,
    headers: { authorization: `Bearer ${await t.operatorToken()}` },
    // Every operator change carries a reason (ADR 0045).
    ...(payload === undefined ? {} : { payload: { reason: 'test', ...payload } }),
  });
}

/** A fresh, unregistered key of a product, as 6-6-6-6. */
export async function issueKey(t: TestApp, product: string): Promise<string> {
  const res = await adminCall(t, '/api/admin/issue-keys', { product, count: 1 });
  if (res.statusCode !== 200) throw new Error(`issue-keys failed: ${res.body}`);
  return res.json().Result.Keys[0];
}

export async function issueUpgradeCode(
  t: TestApp,
  product: string,
  from: string[],
  shape: 'upg' | 'seven' | 'grace' = 'upg',
): Promise<string> {
  const res = await adminCall(t, '/api/admin/issue-upgrade-codes', { product, from, count: 1, shape });
  if (res.statusCode !== 200) throw new Error(`issue-upgrade-codes failed: ${res.body}`);
  return res.json().Result.Codes[0];
}

/** Issues a key of the product and registers it to the customer. */
export async function ownKey(t: TestApp, token: string, product: string): Promise<string> {
  const key = await issueKey(t, product);
  const res = await t.call('/api/accounts/RegisterKey', { key }, token);
  if (res.statusCode !== 200) throw new Error(`RegisterKey failed: ${res.body}`);
  return key;
}

export function getAction(t: TestApp, url: string, token?: string, headers: Record<string, string> = {}) {
  return t.app.inject({ method: 'GET', url, headers: { ...(token ? { authtoken: token } : {}), ...headers } });
}

export async function licenceList(t: TestApp, token: string) {
  const res = await t.call('/api/licenses/GetAccountLicensesByProductLine', {}, token);
  if (res.statusCode !== 200) throw new Error(`GetAccountLicensesByProductLine failed: ${res.body}`);
  return res.json().Result;
}

export function activate(t: TestApp, token: string, productName: string, machineId: string, deviceName = 'Studio Mac') {
  return t.call('/api/apps/ActivateDevice', { productName, machineId, deviceName }, token);
}

export const DAY_HOURS = 24;

/** A new session (after the clock jumped past the old one's lifetime). */
export async function signIn(t: TestApp, email: string): Promise<string> {
  const res = await t.call('/api/accounts/LoginByEmail', { email, password: PASSWORD, keepMeSignedIn: true });
  if (res.statusCode !== 200) throw new Error(`LoginByEmail failed: ${res.body}`);
  return res.json().Token;
}

/**
 * A verified customer with `keys` Reference keys (3 seats each) and `machines` activated as
 * "Machine 1"…: their token, the device ids in order, and each machine's id.
 */
export async function customerWithMachines(t: TestApp, email: string, machines: number, keys = 1) {
  const token = await signUpVerified(t, email);
  for (let k = 0; k < keys; k++) await ownKey(t, token, 'sid-reference');
  const ids: string[] = [];
  const machine = (i: number) => `${email.split('@')[0]}-m${i}`;
  for (let i = 1; i <= machines; i++) {
    const res = await activate(t, token, 'SoundIDReference', machine(i), `Machine ${i}`);
    if (res.statusCode !== 200) throw new Error(res.body);
    ids.push(res.json().Result.DeviceId);
  }
  return { token, ids, machine };
}
