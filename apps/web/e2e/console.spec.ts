import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { TOTP_PERIOD_SECONDS } from '@soundid/contracts';
import { generateSync } from 'otplib';
import type { Page } from 'playwright-core';
import { afterAll, describe, expect, it } from 'vitest';
import { expectAccessible, useBrowser } from './browser';
import { adminPost, appSimulator } from './licences';

/**
 * The back-office console (ADR 0047) as a new support operator meets it: invited by an admin
 * (the suite's operator, through the API), the invitation link opened in Chromium, a password
 * set, the authenticator secret read off the page (otplib is the authenticator app, as for the
 * customers' two-step spec), signed in with password and code, the demo customer found by the
 * name of a device, that device deactivated with a reason, and the entry on the audit screen.
 * The demo customer is shared by the suite: the device is one this test activates first.
 */
describe('the back-office console', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const scratch = mkdtempSync(path.join(tmpdir(), 'soundid-console-e2e-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  /** The authenticator's code `steps` time steps from now (a code is accepted once). */
  const codeFor = (secret: string, steps = 0) =>
    generateSync({ secret, epoch: Math.floor(Date.now() / 1000) + steps * TOTP_PERIOD_SECONDS });

  /** Scripts and styles the CSP refused: the console must need none it does not allow. */
  const cspViolations = (page: Page) => {
    const refused: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) refused.push(message.text());
    });
    return refused;
  };

  it('an invited support operator signs in, finds the demo customer by a device name, deactivates it; the audit shows it', async () => {
    const demo = browser.demoAccount;
    const deviceName = `Console walk laptop ${Date.now().toString(36)}`;
    const state = path.join(scratch, 'app.json');
    await appSimulator(base, state, 'login', '--email', demo.email, '--password', demo.password);
    await appSimulator(
      base,
      state,
      'activate',
      '--product',
      'SoundIDReference',
      '--machine',
      'console-walk',
      '--name',
      deviceName,
    );

    const email = `support-${Date.now().toString(36)}@operators.example.com`;
    const invited = await adminPost<{ InvitationUrl: string }>(base, 'InviteOperator', {
      email,
      name: 'Sam Support',
      roles: ['support'],
      reason: 'console walk: a new support hire',
    });
    const invitation = new URL(invited.InvitationUrl);
    expect(invitation.pathname).toMatch(/^\/console\/invitation\/[\w-]+$/);

    const page = await browser.newPage();
    const refused = cspViolations(page);
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

    // Support opens on the customer search; the admin's screens are not offered.
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    const nav = page.getByRole('navigation', { name: 'Console' });
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Customers', 'Audit', 'Releases', 'My account']);
    await page.getByLabel('Find a customer').fill(deviceName);
    await page.getByLabel('Look in').selectOption('device');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByRole('link', { name: demo.email }).click();

    await page.getByRole('heading', { level: 1, name: demo.email }).waitFor();
    await page.getByRole('heading', { level: 2, name: 'Licences and devices' }).waitFor();
    await expectAccessible(page, 'console-customer');
    await page.getByRole('button', { name: `Deactivate ${deviceName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Deactivate ${deviceName}` });
    // No reason, no call: the dialog says why and stays.
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await dialog.getByText('Give a reason of at least 3 characters').waitFor();
    await dialog.getByLabel('Reason or ticket').fill('Ticket 4711: the laptop was stolen');
    await dialog.getByRole('button', { name: 'Deactivate' }).click();
    await page.getByRole('status').getByText(`${deviceName} deactivated`).waitFor();
    const row = page.getByRole('row', { name: new RegExp(deviceName) });
    await row.getByText(/^Deactivated .*\(support\)$/).waitFor();

    await nav.getByRole('link', { name: 'Audit' }).click();
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    await page.getByLabel("Action (a call's name)").fill('AdminDeactivateDevice');
    await page.getByRole('button', { name: 'Search' }).click();
    const entry = page
      .getByRole('row', { name: /AdminDeactivateDevice/ })
      .filter({ hasText: email })
      .first();
    await entry.getByText('Ticket 4711: the laptop was stolen').waitFor();
    expect(await entry.textContent()).toContain(demo.email);
    await expectAccessible(page, 'console-audit');
    expect(refused).toEqual([]);
  });
});
