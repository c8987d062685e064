import { TOTP_PERIOD_SECONDS } from '@soundid/contracts';
import { generateSync } from 'otplib';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { expectAccessible } from './browser';
import { adminPost } from './licences';

/** Helpers of the back-office console's specs (ADR 0047): an operator as a new hire becomes one. */

/** The authenticator's code `steps` time steps from now (a code is accepted once). */
const codeFor = (secret: string, steps = 0) =>
  generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * TOTP_PERIOD_SECONDS });

/** Scripts and styles the CSP refused: the console must need none it does not allow. */
export function cspViolations(page: Page): string[] {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  return refused;
}

/**
 * An operator invited by the suite's admin (through the API), set up from the invitation link
 * in the page: a password, the secret read off the page into the "authenticator" (otplib), its
 * first code; then signed in with the password and a code of the next step. Answers the address.
 */
export async function becomeOperator(page: Page, baseUrl: string, roles: string[], name: string): Promise<string> {
  const email = `${roles.join('-')}-${Date.now().toString(36)}@operators.example.com`;
  const invited = await adminPost<{ InvitationUrl: string }>(baseUrl, 'InviteOperator', {
    email,
    name,
    roles,
    reason: `console walk: a new ${roles.join(' and ')} hire`,
  });
  const invitation = new URL(invited.InvitationUrl);
  expect(invitation.pathname).toMatch(/^\/console\/invitation\/[\w-]+$/);

  await page.goto(invitation.pathname);
  await page.getByRole('heading', { name: 'Set up your operator account' }).waitFor();
  const password = 'a console walk password';
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByLabel('Repeat the password').fill(password);
  await page.getByRole('button', { name: 'Set password' }).click();
  await page.getByRole('img', { name: 'QR code of your authenticator secret' }).waitFor();
  const secret = ((await page.getByTestId('totp-secret').textContent()) ?? '').trim();
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByLabel('Code from your authenticator app').fill(codeFor(secret));
  await page.getByRole('button', { name: 'Confirm' }).click();

  // Sign-in: the address is filled in; the password, then a code of the next step.
  await page.getByRole('heading', { name: 'Sign in to the console' }).waitFor();
  await page.getByText('Your operator account is active.').waitFor();
  expect(await page.getByLabel('E-mail').inputValue()).toBe(email);
  await expectAccessible(page, 'console-sign-in');
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.getByLabel('Code from your authenticator app').fill(codeFor(secret, 1));
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  return email;
}

/** The console's navigation: a screen is opened by its link, as an operator does. */
export const consoleNav = (page: Page): Locator => page.getByRole('navigation', { name: 'Console' });

/**
 * Finds a customer on the Customers screen (by default by the e-mail address) and opens their
 * page from the hits.
 */
export async function openCustomer(
  page: Page,
  email: string,
  search: { query: string; lookIn: string } = { query: email, lookIn: 'email' },
): Promise<void> {
  await consoleNav(page).getByRole('link', { name: 'Customers' }).click();
  await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
  await page.getByLabel('Find a customer').fill(search.query);
  await page.getByLabel('Look in').selectOption(search.lookIn);
  await page.getByRole('button', { name: 'Search' }).click();
  await page.getByRole('link', { name: email }).click();
  await page.getByRole('heading', { level: 1, name: email }).waitFor();
}

/**
 * The audit screen searched for one call made by one operator: the row of its entry (the
 * newest), once the search has answered.
 */
export async function auditEntry(page: Page, action: string, operator: string): Promise<Locator> {
  await consoleNav(page).getByRole('link', { name: 'Audit' }).click();
  await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
  await page.getByLabel('Operator (e-mail or its beginning)').fill(operator);
  await page.getByLabel("Action (a call's name)").fill(action);
  await page.getByRole('button', { name: 'Search' }).click();
  const entry = page
    .getByRole('row', { name: new RegExp(action) })
    .filter({ hasText: operator })
    .first();
  await entry.waitFor();
  return entry;
}
