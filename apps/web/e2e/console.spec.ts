import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
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

  /**
   * An operator invited by the suite's admin (through the API), set up from the invitation link
   * in the page: a password, the secret read off the page into the "authenticator" (otplib), its
   * first code; then signed in with the password and a code of the next step. Answers the address.
   */
  async function becomeOperator(page: Page, roles: string[], name: string): Promise<string> {
    const email = `${roles.join('-')}-${Date.now().toString(36)}@operators.example.com`;
    const invited = await adminPost<{ InvitationUrl: string }>(base, 'InviteOperator', {
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

    const page = await browser.newPage();
    const refused = cspViolations(page);
    const email = await becomeOperator(page, ['support'], 'Sam Support');

    // Support opens on the customer search; the admin's screens are not offered.
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await expectAccessible(page, 'console-customers');
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

  it('an admin invites an operator, issues keys as a CSV file, proves the audit chain, sees releases and manages API tokens', async () => {
    const page = await browser.newPage();
    const refused = cspViolations(page);
    await becomeOperator(page, ['admin'], 'Ada Admin');
    const nav = page.getByRole('navigation', { name: 'Console' });
    expect(await nav.getByRole('link').allTextContents()).toEqual([
      'Audit',
      'Operators',
      'Keys and serials',
      'Releases',
      'My account',
    ]);

    // An admin reads no customer: the first screen is the audit, with the chain's proof.
    await page.getByRole('heading', { level: 1, name: 'Audit' }).waitFor();
    await page.getByRole('button', { name: 'Verify the audit trail' }).click();
    await page.getByText(/^The audit trail is intact: \d+ entries/).waitFor();

    await nav.getByRole('link', { name: 'Operators' }).click();
    const invite = page.getByRole('region', { name: 'Invite an operator' });
    const financeEmail = `finance-${Date.now().toString(36)}@operators.example.com`;
    await invite.getByLabel('Name').fill('Fay Finance');
    await invite.getByLabel('E-mail').fill(financeEmail);
    await invite.getByRole('checkbox', { name: /^finance/ }).check();
    await invite.getByLabel('Reason or ticket').fill('new finance hire');
    await invite.getByRole('button', { name: 'Invite' }).click();
    expect(await invite.getByLabel('Invitation link').inputValue()).toMatch(/\/console\/invitation\/[\w-]+$/);
    const listed = page.getByRole('row', { name: /Fay Finance/ });
    await listed.getByText('invited').waitFor();
    await expectAccessible(page, 'console-operators');

    await nav.getByRole('link', { name: 'Keys and serials' }).click();
    const keys = page.getByRole('region', { name: 'Issue activation keys' });
    await keys.getByLabel('Product').selectOption('sid-reference');
    await keys.getByLabel('How many (1–1000)').fill('2');
    await keys.getByLabel('Reason or ticket').fill('dealer order 77');
    await keys.getByRole('button', { name: 'Issue keys' }).click();
    await keys.getByText('2 keys issued for sid-reference.').waitFor();
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      keys.getByRole('button', { name: 'Download CSV' }).click(),
    ]);
    expect(download.suggestedFilename()).toMatch(/^sid-reference-keys-[\d-]+\.csv$/);
    const csv = readFileSync(await download.path(), 'utf8')
      .trimEnd()
      .split('\r\n');
    expect(csv[0]).toBe('product,key');
    expect(csv.slice(1)).toHaveLength(2);
    for (const line of csv.slice(1)) expect(line).toMatch(/^sid-reference,[A-Z0-9]{6}(-[A-Z0-9]{6}){3}$/);
    await expectAccessible(page, 'console-bulk');

    await nav.getByRole('link', { name: 'Releases' }).click();
    await page.getByRole('region', { name: 'Published' }).getByRole('row').nth(1).waitFor();
    await expectAccessible(page, 'console-releases');

    await nav.getByRole('link', { name: 'My account' }).click();
    await page.getByText('this session').waitFor();
    const tokens = page.getByRole('region', { name: /API tokens/ });
    await tokens.getByLabel('Name').fill('console walk');
    await tokens.getByRole('button', { name: 'Create token' }).click();
    expect(await tokens.getByLabel('New API token').inputValue()).toMatch(/^msid_op_/);
    await tokens.getByRole('button', { name: 'Revoke the token console walk' }).click();
    await tokens.getByText('The token “console walk” is revoked.').waitFor();
    await expectAccessible(page, 'console-account');
    expect(refused).toEqual([]);
  });
});
