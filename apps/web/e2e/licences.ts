import { inject } from 'vitest';
import { runCli } from '../../api/test/kit';

/** Helpers of the licence specs: the operator API, an app's sign-in, and the app simulator. */

async function envelope<T>(response: Response, what: string): Promise<T> {
  const body = (await response.json()) as { Success: boolean; Result: T; Fault?: { ExceptionName: string } };
  if (!body.Success) throw new Error(`${what} failed: ${body.Fault?.ExceptionName}`);
  return body.Result;
}

/** The suite's operator (every role), made by the global setup through the bootstrap token. */
export const operatorToken = () => inject('operatorToken');

/** An operator call (`/api/admin/*` as the suite's operator; a change carries its reason). */
export async function adminPost<T>(baseUrl: string, path: string, body: object): Promise<T> {
  const response = await fetch(`${baseUrl}/api/admin/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${operatorToken()}` },
    body: JSON.stringify({ reason: 'browser suite', ...body }),
  });
  return envelope<T>(response, path);
}

/** Fresh activation keys of a catalogue product (`npm run admin -- issue-keys`). */
export async function issueKeys(baseUrl: string, product: string, count = 1): Promise<string[]> {
  return (await adminPost<{ Keys: string[] }>(baseUrl, 'issue-keys', { product, count })).Keys;
}

/** An upgrade code from one product to another (`npm run admin -- issue-upgrade-codes`). */
export async function issueUpgradeCode(baseUrl: string, product: string, from: string[]): Promise<string> {
  const { Codes } = await adminPost<{ Codes: string[] }>(baseUrl, 'issue-upgrade-codes', {
    product,
    from,
    count: 1,
    shape: 'upg',
  });
  return Codes[0] as string;
}

/** A session token for calls made outside the browser (like a desktop app's). */
export async function apiToken(baseUrl: string, email: string, password: string): Promise<string> {
  const response = await fetch(`${baseUrl}/api/accounts/LoginByEmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password, keepMeSignedIn: false }),
  });
  const body = (await response.json()) as { Token?: string };
  if (!body.Token) throw new Error('LoginByEmail gave no token');
  return body.Token;
}

export async function registerKey(baseUrl: string, token: string, key: string): Promise<void> {
  const response = await fetch(`${baseUrl}/api/accounts/RegisterKey`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authtoken: token },
    body: JSON.stringify({ key }),
  });
  await envelope(response, 'RegisterKey');
}

/**
 * `npm run app -- <args>` against the test service: the desktop-app simulator as a child process
 * (the test kit's bundle of it, from the repository root as `npm run` runs it).
 */
export async function appSimulator(baseUrl: string, stateFile: string, ...args: string[]): Promise<string> {
  const { stdout } = await runCli('app', [...args, '--url', baseUrl, '--state', stateFile]);
  return stdout;
}

/**
 * `npm run admin -- <args>` as README tells a newcomer to run it: no --url, the service found on
 * the same PORT, signed in as the suite's operator (SOUNDID_OPERATOR_TOKEN, as a script would).
 */
export async function adminCli(baseUrl: string, ...args: string[]): Promise<string> {
  const { PUBLIC_URL: _publicUrl, DATA_DIR: _dataDir, ...env } = process.env;
  const { stdout } = await runCli('admin', args, {
    env: { ...env, PORT: new URL(baseUrl).port, SOUNDID_OPERATOR_TOKEN: operatorToken() },
  });
  return stdout.trim();
}
