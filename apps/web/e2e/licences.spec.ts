import { createPublicKey, verify } from 'node:crypto';
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { appStarted, expectAccessible, type MOBILE, useBrowser } from './browser';
import { adminPost, apiToken, appSimulator, issueKeys, issueUpgradeCode, registerKey } from './licences';

/** Licenses & Devices against the real service: keys, app activations, upgrades, offline activation. */
describe('Licenses & Devices', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const scratch = mkdtempSync(path.join(tmpdir(), 'soundid-licences-e2e-'));

  async function signedInCustomer(label: string) {
    const account = await createVerifiedAccount(base, label);
    return { ...account, token: await apiToken(base, account.email, account.password) };
  }

  async function openProducts(email: string, password: string, viewport?: typeof MOBILE) {
    const page = await browser.newPage(viewport);
    await signInByCookie(page, base, { email, password }, '/products');
    await page.getByRole('heading', { level: 2, name: 'SoundID Reference' }).waitFor();
    // The screen is sent rendered (ADR 0024): its buttons answer once the app runs.
    await appStarted(page);
    return page;
  }

  it('registers an operator-issued key on the add-license page; it shows on the page', async () => {
    const account = await signedInCustomer('add-key');
    const [key] = await issueKeys(base, 'sid-reference-hp');
    const page = await openProducts(account.email, account.password);
    expect(await page.title()).toBe('My SoundID | Licenses & Devices');
    await page.getByText('No SoundID Reference licenses yet.', { exact: false }).waitFor();

    await page.getByRole('link', { name: 'Register a new license' }).click();
    await page.getByLabel('License activation key').fill((key as string).replaceAll('-', '').toLowerCase());
    expect(await page.getByLabel('License activation key').inputValue()).toBe(key);
    await page.getByRole('button', { name: 'Register key' }).click();
    await page.waitForURL('**/products');
    await page.getByText('Your activation key has been registered successfully!').waitFor();
    const card = page.getByRole('listitem', { name: 'SoundID Reference for Headphones' });
    await card.getByRole('button', { name: '0 of 3 devices activated' }).waitFor();
    await card.getByRole('button', { name: 'Remove license' }).click();
    await page.getByRole('combobox', { name: 'License' }).waitFor();
    expect(await page.getByRole('combobox', { name: 'License' }).inputValue()).toBe(
      `******-******-******-${(key as string).slice(-6)}`,
    );
    expect(new URL(page.url()).hash).toBe('#remove-SoundIDReferenceHeadphones');

    // The same key on another account: the popup names this account's address, masked.
    const other = await signedInCustomer('add-key-other');
    const otherPage = await openProducts(other.email, other.password);
    await otherPage.goto('/add-license');
    await otherPage.getByLabel('License activation key').fill(key as string);
    await otherPage.getByRole('button', { name: 'Register key' }).click();
    const dialog = otherPage.getByRole('dialog', { name: 'Activation key already used' });
    await dialog.getByText(`This key is registered to ${account.email.slice(0, 1)}***@e***.com.`).waitFor();
    await otherPage.getByText('License registration error.').waitFor();
  });

  it('claims the ADAM Audio trial with an operator-added serial, and activates VoiceAI from its page', async () => {
    const account = await signedInCustomer('adam');
    const serial = `ADAM-E2E-${Date.now().toString(36).toUpperCase()}`;
    await adminPost(base, 'add-serials', { serials: [serial] });
    const page = await openProducts(account.email, account.password);
    await page.goto('/adam-audio');
    await page.getByLabel('Monitor serial number').fill('ADAM-NOPE-000000');
    await page.getByRole('button', { name: 'Claim trial' }).click();
    await page.getByText('Serial number is not valid.', { exact: false }).waitFor();
    await page.getByLabel('Monitor serial number').fill(serial);
    await page.getByRole('button', { name: 'Claim trial' }).click();
    await page.getByText('Your 60-day trial has been activated successfully!').waitFor();
    await page.getByRole('link', { name: 'Go to Licenses & Devices' }).click();
    const card = page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    await card.getByText('Your 60-day trial of SoundID Reference for Speakers & Headphones ends in 60 days.').waitFor();

    // The voice AI trial: its activation button starts the trial, then the how-to page opens.
    await page.getByRole('button', { name: 'Start 7-day free trial' }).click();
    await page.waitForURL('**/products/voice-ai/activate?**');
    expect(new URL(page.url()).searchParams.get('activationType')).toBe('trial');
    await page.getByRole('heading', { level: 1, name: 'How to activate SoundID VoiceAI' }).waitFor();
    await expectAccessible(page, 'voice-ai-activate');
    await page.goBack();
    await page.getByText('Free trial: 7 days left.').waitFor();
  });

  it('an app signs in through the login deeplink and activates; the customer deactivates it in the browser', async () => {
    const account = await signedInCustomer('devices');
    const [key] = await issueKeys(base, 'sid-reference');
    await registerKey(base, account.token, key as string);
    const state = path.join(scratch, 'app-simulator.json');
    expect(
      await appSimulator(base, state, 'login', '--email', account.email, '--password', account.password),
    ).toContain(`signed in as ${account.email}`);
    expect(
      await appSimulator(
        base,
        state,
        'activate',
        '--product',
        'SoundIDReference',
        '--machine',
        'e2e-mac-1',
        '--name',
        'E2E Mac',
      ),
    ).toContain('1 of 3 devices activated');
    // The app checks in with its version and OS: the panel says so under the name (ADR 0049).
    expect(
      await appSimulator(
        base,
        state,
        'check',
        '--product',
        'SoundIDReference',
        '--machine',
        'e2e-mac-1',
        '--app-version',
        '5.12.1',
        '--os',
        'macOS 14.5',
      ),
    ).toContain('licensed (Perpetual)');

    const page = await openProducts(account.email, account.password);
    const card = page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    await card.getByRole('button', { name: '1 of 3 devices activated' }).click();
    const panel = page.getByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' });
    const row = panel.getByRole('rowheader', { name: 'E2E Mac' });
    await row.waitFor();
    expect(await row.locator('.licence-table__seen').textContent()).toBe(
      'version 5.12.1 on macOS 14.5 · last seen today',
    );
    await expectAccessible(page, 'products-devices-panel');
    await panel.getByRole('button', { name: 'Deactivate E2E Mac' }).click();
    await panel.getByRole('button', { name: 'Cancel' }).click();
    await panel.getByRole('button', { name: 'Deactivate E2E Mac' }).click();
    await panel.getByRole('button', { name: 'Yes, deactivate' }).click();
    await page.getByText('E2E Mac deactivated successfully.').waitFor();
    await card.getByRole('button', { name: '0 of 3 devices activated' }).waitFor();
    expect(await panel.count()).toBe(0);
    expect(
      await appSimulator(base, state, 'check', '--product', 'SoundIDReference', '--machine', 'e2e-mac-1').catch(
        (e: { stdout: string }) => e.stdout,
      ),
    ).toContain('not activated on e2e-mac-1');
  });

  it('reports a machine stolen in the browser: its seat is free and the app is refused with a message it can show (ADR 0050)', async () => {
    const account = await signedInCustomer('lost');
    const [key] = await issueKeys(base, 'sid-reference');
    await registerKey(base, account.token, key as string);
    const state = path.join(scratch, 'app-simulator-lost.json');
    await appSimulator(base, state, 'login', '--email', account.email, '--password', account.password);
    const machine = ['--product', 'SoundIDReference', '--machine', 'e2e-stolen-1'];
    await appSimulator(base, state, 'activate', ...machine, '--name', 'Tour laptop');

    const page = await openProducts(account.email, account.password);
    const card = page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    await card.getByRole('button', { name: '1 of 3 devices activated' }).click();
    const panel = page.getByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' });
    await panel.getByRole('button', { name: 'Report lost or stolen: Tour laptop' }).click();
    await panel.getByRole('radio', { name: 'It was stolen' }).check();
    await panel.getByLabel('Anything support should know (optional)').fill('taken from the van');
    await expectAccessible(page, 'products-devices-lost-report');
    // Signed in with the password a moment ago: that is the step-up's proof (ADR 0040).
    await panel.getByRole('button', { name: 'Report and free the seat' }).click();
    await page
      .getByText('Tour laptop was reported lost or stolen: its seat is free, and it can no longer use this license.')
      .waitFor();
    await card.getByRole('button', { name: '0 of 3 devices activated' }).waitFor();

    const refused = await appSimulator(base, state, 'activate', ...machine).catch(
      (e: { stdout: string; stderr: string }) => `${e.stdout}${e.stderr}`,
    );
    expect(refused).toContain('This computer was reported lost or stolen');

    // My activity on the profile tells it, beside the activation (ADR 0055).
    await page.goto('/profile');
    await appStarted(page);
    const activity = page.getByRole('region', { name: 'My activity' });
    await activity
      .getByText('Tour laptop reported lost or stolen (SoundID Reference for Speakers & Headphones)', { exact: true })
      .waitFor();
    await activity
      .getByText('SoundID Reference for Speakers & Headphones activated on Tour laptop', { exact: true })
      .waitFor();
  });

  it('upgrades a licence with an operator-issued upgrade code', async () => {
    const account = await signedInCustomer('upgrade');
    const [key] = await issueKeys(base, 'ref4-hp');
    await registerKey(base, account.token, key as string);
    const code = await issueUpgradeCode(base, 'sid-reference-hp', ['ref4-hp']);

    const page = await openProducts(account.email, account.password);
    const card = page.getByRole('listitem', { name: 'Reference 4 Headphone Edition' });
    await card.getByRole('button', { name: 'Upgrade' }).click();
    const panel = page.getByRole('region', { name: 'Upgrade Reference 4 Headphone Edition' });
    await panel.getByRole('link', { name: /Upgrade for \$39/ }).waitFor();
    const apply = panel.getByRole('button', { name: 'Apply upgrade code' });
    expect(await apply.isDisabled()).toBe(true);
    await panel.getByRole('textbox', { name: 'Upgrade code' }).fill(code.toLowerCase());
    await expectAccessible(page, 'products-upgrade-panel');
    await apply.click();
    await page.getByText('Upgrade successful!').waitFor();
    await page.getByRole('listitem', { name: 'SoundID Reference for Headphones' }).waitFor();
    expect(await panel.count()).toBe(0);

    // The traded-in licence says Upgraded and offers no second upgrade.
    await card.getByRole('button', { name: 'Remove license' }).click();
    expect(await page.getByRole('option', { name: /\(Upgraded\)/ }).count()).toBe(1);
  });

  it('offline activation: uploads an .swinfo request and downloads a licence file that verifies with the public key', async () => {
    const account = await signedInCustomer('offline');
    const [key] = await issueKeys(base, 'sid-reference');
    await registerKey(base, account.token, key as string);
    const nonce = 'e2e-nonce-0123456789abcdef';
    const request = path.join(scratch, 'studio.swinfo');
    // A request as docs/offline-activation.md describes it.
    writeFileSync(
      request,
      JSON.stringify({
        format: 'soundid-swinfo',
        version: 1,
        productName: 'SoundIDReference',
        machineId: 'e2e-offline-1',
        deviceName: 'Offline studio',
        nonce,
        appVersion: '5.12.1',
        os: 'macOS 15.1',
      }),
    );
    const bad = path.join(scratch, 'bad.swinfo');
    writeFileSync(bad, JSON.stringify({ format: 'soundid-swinfo', version: 2 }));

    const page = await openProducts(account.email, account.password);
    await page.getByRole('button', { name: 'Offline activation' }).click();
    const panel = page.getByRole('region', { name: 'Offline activation' });
    await panel.getByLabel('License request file (.swinfo)').setInputFiles(bad);
    await panel.getByRole('button', { name: 'Download license file' }).click();
    await panel.getByRole('alert').getByText('Unsupported .swinfo version 2.', { exact: false }).waitFor();

    await panel.getByLabel('License request file (.swinfo)').setInputFiles(request);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download license file' }).click(),
    ]);
    expect(download.suggestedFilename()).toBe('SoundIDReference-e2e-offline-1.swlicense');
    const saved = path.join(scratch, download.suggestedFilename());
    await download.saveAs(saved);

    const licence = JSON.parse(readFileSync(saved, 'utf8')) as Record<string, string>;
    const published = (await (await fetch(`${base}/api/licenses/offline-public-key`)).json()) as {
      Result: { KeyId: string; PublicKeyPem: string };
    };
    expect(licence.algorithm).toBe('Ed25519');
    expect(licence.keyId).toBe(published.Result.KeyId);
    const payload = Buffer.from(licence.payload as string, 'base64url');
    const signature = Buffer.from(licence.signature as string, 'base64url');
    const publicKey = createPublicKey(published.Result.PublicKeyPem);
    expect(verify(null, payload, publicKey, signature)).toBe(true);
    expect(verify(null, Buffer.concat([payload, Buffer.from(' ')]), publicKey, signature)).toBe(false);
    expect(JSON.parse(payload.toString('utf8'))).toMatchObject({
      productName: 'SoundIDReference',
      machineId: 'e2e-offline-1',
      deviceName: 'Offline studio',
      licenseKind: 'Perpetual',
      nonce,
    });
    await page
      .getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' })
      .getByRole('button', { name: '1 of 3 devices activated' })
      .waitFor();
  });
  it("offline deactivation: the demo customer frees an offline machine with the app simulator's .swdeactivate file and gets a receipt that verifies (ADR 0053)", async () => {
    const demo = browser.demoAccount;
    const machine = `e2e-airgap-${Date.now().toString(36)}`;
    const request = path.join(scratch, `${machine}.swinfo`);
    const state = path.join(scratch, 'airgap-app.json');
    const app = (...args: string[]) => appSimulator(base, state, ...args);
    await app(
      'offline-request',
      '--product',
      'SoundIDReference',
      '--machine',
      machine,
      '--name',
      'Air-gapped rig',
      '--out',
      request,
    );

    const page = await openProducts(demo.email, demo.password);
    const card = page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    await card.getByRole('button', { name: '2 of 3 devices activated' }).waitFor();
    await page.getByRole('button', { name: 'Offline activation' }).click();
    const panel = page.getByRole('region', { name: 'Offline activation' });
    await panel.getByLabel('License request file (.swinfo)').setInputFiles(request);
    const [licenceDownload] = await Promise.all([
      page.waitForEvent('download'),
      panel.getByRole('button', { name: 'Download license file' }).click(),
    ]);
    const licence = path.join(scratch, licenceDownload.suggestedFilename());
    await licenceDownload.saveAs(licence);
    await card.getByRole('button', { name: '3 of 3 devices activated' }).waitFor();

    // On the offline machine: the app removes its licence file and writes the deactivation file.
    const deactivation = path.join(scratch, `${machine}.swdeactivate`);
    expect(await app('offline-deactivate', '--license', licence, '--out', deactivation)).toContain(
      `removed ${licence}`,
    );
    expect(existsSync(licence)).toBe(false);

    await page.getByRole('button', { name: 'Offline activation' }).click();
    const section = panel.getByRole('region', { name: 'Deactivate a computer' });
    await section.getByLabel('Deactivation file (.swdeactivate)').setInputFiles(deactivation);
    const [receiptDownload] = await Promise.all([
      page.waitForEvent('download'),
      section.getByRole('button', { name: 'Deactivate and download receipt' }).click(),
    ]);
    const receipt = path.join(scratch, receiptDownload.suggestedFilename());
    expect(path.extname(receipt)).toBe('.swreceipt');
    await receiptDownload.saveAs(receipt);
    await page
      .getByText('Air-gapped rig was deactivated: its seat is free, and no deactivation was used.', { exact: false })
      .waitFor();
    // The devices list is read again: the seat is back.
    await card.getByRole('button', { name: '2 of 3 devices activated' }).waitFor();
    expect(await app('verify-receipt', '--file', receipt, '--request-file', deactivation)).toContain(
      `valid receipt: SoundIDReference on ${machine}`,
    );

    // The same file again frees nothing: refused with the reason, in place.
    await page.getByRole('button', { name: 'Offline activation' }).click();
    await section.getByLabel('Deactivation file (.swdeactivate)').setInputFiles(deactivation);
    await section.getByRole('button', { name: 'Deactivate and download receipt' }).click();
    await section.getByRole('alert').getByText('the file was already used', { exact: false }).waitFor();
    await card.getByRole('button', { name: '2 of 3 devices activated' }).waitFor();
  });
});
