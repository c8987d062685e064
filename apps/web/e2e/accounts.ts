import type { Page } from 'playwright-core';
import { appStarted } from './browser';

export interface DevMail {
  To: string;
  Subject: string;
  Text: string;
  Links: string[];
  CreatedAt: string;
}

let counter = 0;
/** A fresh address per use: the suite shares one database. */
export function uniqueEmail(label: string): string {
  counter += 1;
  return `${label}-${Date.now().toString(36)}-${counter}@example.com`;
}

/** Waits for a mail to `to` with a link under `pathPrefix` (/verify-email/ …) and returns that link. */
export async function mailLink(baseUrl: string, to: string, pathPrefix: string, timeoutMs = 15_000): Promise<string> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const response = await fetch(`${baseUrl}/api/dev/mail?to=${encodeURIComponent(to)}`);
    if (response.ok) {
      const body = (await response.json()) as { Success: boolean; Result: DevMail[] };
      for (const mail of body.Result ?? []) {
        const link = mail.Links.find((l) => new URL(l, baseUrl).pathname.startsWith(pathPrefix));
        if (link) return new URL(link, baseUrl).pathname;
      }
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`No mail to ${to} with a ${pathPrefix} link within ${timeoutMs} ms`);
}

async function post(baseUrl: string, call: string, body: unknown): Promise<void> {
  const response = await fetch(`${baseUrl}/api/accounts/${call}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', Software: 'MySoundID-E2E/1.0' },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { Success: boolean; Fault?: { ExceptionName: string } };
  if (!answer.Success) throw new Error(`${call} failed: ${answer.Fault?.ExceptionName}`);
}

/** A signed-up customer whose e-mail is verified, made through the API (for tests of other screens). */
export async function createVerifiedAccount(baseUrl: string, label: string) {
  const email = uniqueEmail(label);
  const password = 'correct-horse-battery';
  await post(baseUrl, 'register', { email, password });
  const link = await mailLink(baseUrl, email, '/verify-email/');
  await post(baseUrl, 'VerifyEmail', { token: link.split('/').pop() });
  return { email, password };
}

/** Signs in through the login screen: for the specs of signing in itself (journeys, keyboard, first paint). */
export async function logIn(page: Page, email: string, password: string, path = '/login'): Promise<void> {
  await page.goto(path);
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Log in', exact: true }).click();
}

/** A session token as an API client (a desktop app, a test) gets it: LoginByEmail. */
export async function apiToken(baseUrl: string, account: { email: string; password: string }): Promise<string> {
  const response = await fetch(`${baseUrl}/api/accounts/LoginByEmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  const answer = (await response.json()) as { Token?: string; Fault?: { ExceptionName: string } };
  if (!answer.Token) throw new Error(`LoginByEmail failed: ${answer.Fault?.ExceptionName}`);
  return answer.Token;
}

/** Who a session token belongs to, as an app asks (LoginByToken with AuthToken), or the fault's name. */
export async function sessionOwner(baseUrl: string, token: string): Promise<string> {
  const res = await fetch(`${baseUrl}/api/accounts/LoginByToken`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authtoken: token },
    body: '{}',
  });
  const body = await res.json();
  return body.Success ? (body.Result.User.Email as string) : (body.Fault.ExceptionName as string);
}

/** POSTs a call signed in with an AuthToken and returns its Result. */
export async function apiResult<T>(baseUrl: string, path: string, body: unknown, token: string): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authtoken: token },
    body: JSON.stringify(body),
  });
  const answer = (await response.json()) as { Success: boolean; Result: T; Fault?: { ExceptionName: string } };
  if (!answer.Success) throw new Error(`${path} failed: ${answer.Fault?.ExceptionName}`);
  return answer.Result;
}

/**
 * The session cookie the service sets when the web app signs a customer in (LoginByEmail with
 * the web app's Software header), as { name, value }.
 */
export async function sessionCookie(
  baseUrl: string,
  account: { email: string; password: string },
): Promise<{ name: string; value: string }> {
  const response = await fetch(`${baseUrl}/api/accounts/LoginByEmail`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', Software: 'MySoundID-Web/1.0' },
    body: JSON.stringify({ email: account.email, password: account.password, keepMeSignedIn: true }),
  });
  const [pair = ''] = (response.headers.getSetCookie()[0] ?? '').split(';');
  const separator = pair.indexOf('=');
  if (separator < 1) throw new Error(`sign-in of ${account.email} failed: ${response.status}`);
  return { name: pair.slice(0, separator), value: pair.slice(separator + 1) };
}

/**
 * Signs the page's browser context in by setting the session cookie made through the service,
 * opens `path` and waits until the app runs on it (the service sends the page rendered, and its
 * buttons do nothing before that): the specs of other screens skip the login screen, which the
 * journey specs test (docs/decisions/0035-test-kit.md).
 */
export async function signInByCookie(
  page: Page,
  baseUrl: string,
  account: { email: string; password: string },
  path: string,
): Promise<void> {
  const { name, value } = await sessionCookie(baseUrl, account);
  await page.context().addCookies([{ name, value, url: baseUrl, httpOnly: true, sameSite: 'Lax' }]);
  await page.goto(path);
  await appStarted(page);
}
