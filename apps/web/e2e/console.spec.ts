import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { expectAccessible, useBrowser } from './browser';
import { appSimulator } from './licences';
import { auditEntry, becomeOperator, consoleNav, cspViolations, openCustomer } from './operators';

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
    const email = await becomeOperator(page, base, ['support'], 'Sam Support');

    // Support opens on the customer search; the admin's screens are not offered.
    await page.getByRole('heading', { level: 1, name: 'Customers' }).waitFor();
    await expectAccessible(page, 'console-customers');
    const nav = consoleNav(page);
    expect(await nav.getByRole('link').allTextContents()).toEqual(['Customers', 'Audit', 'Releases', 'My account']);
    await openCustomer(page, demo.email, { query: deviceName, lookIn: 'device' });
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

    const entry = await auditEntry(page, 'AdminDeactivateDevice', email);
    await entry.getByText('Ticket 4711: the laptop was stolen').waitFor();
    expect(await entry.textContent()).toContain(demo.email);
    await expectAccessible(page, 'console-audit');
    expect(refused).toEqual([]);
  });

  it('an admin invites an operator, issues keys as a CSV file, proves the audit chain, sees releases and manages API tokens', async () => {
    const page = await browser.newPage();
    const refused = cspViolations(page);
    await becomeOperator(page, base, ['admin'], 'Ada Admin');
    const nav = consoleNav(page);
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
