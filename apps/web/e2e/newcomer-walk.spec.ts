import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createVerifiedAccount, logIn, signInByCookie } from './accounts';
import { appStarted, MOBILE, useBrowser } from './browser';
import { adminCli, appSimulator } from './licences';

/**
 * As README walks a newcomer through it: the demo customer's full page
 * after `npm start`, then a key issued with `npm run admin` (the CLI itself, found on PORT)
 * registered in the browser, a machine activated with `npm run app`, and that machine
 * deactivated in the browser. The demo customer is shared by the suite, so it is only read
 * here; the changes are made by a customer of this test's own, at 360 px.
 */
describe('newcomer walk: licences and devices', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;
  const scratch = mkdtempSync(path.join(tmpdir(), 'soundid-newcomer-e2e-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('the demo customer printed at start-up sees every section of the page', async () => {
    const page = await browser.newPage();
    await logIn(page, browser.demoAccount.email, browser.demoAccount.password, '/login?nextUrl=%2Fproducts');

    const voice = page.getByRole('region', { name: 'SoundID VoiceAI' });
    await voice.getByText('Perpetual mode is active.').waitFor();
    await voice.getByText(/^Perpetual license key: \*{6}-\*{6}-\*{6}-[A-Z0-9]{6}$/).waitFor();
    await voice.getByRole('button', { name: 'Manage devices (1)' }).waitFor();
    await voice.getByRole('button', { name: 'Remove Perpetual' }).waitFor();
    await page.getByRole('button', { name: 'Explore and manage preset expansion packs' }).click();
    await page.getByRole('rowheader', { name: 'Pop Vocals Pack' }).waitFor();

    const reference = page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    await reference.getByRole('button', { name: '2 of 3 devices activated' }).click();
    const devices = page.getByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' });
    const names = await devices
      .getByRole('rowheader')
      .evaluateAll((cells) => cells.map((c) => c.firstChild?.textContent));
    expect(names).toEqual(['Studio iMac', 'MacBook Pro']);
    // The demo machines' apps have checked in: under each name, what they said and when (ADR 0049).
    expect(await devices.locator('.licence-table__seen').allTextContents()).toEqual([
      'version 5.12.1 on macOS 14.5 · last seen today',
      'version 5.11.0 on macOS 13.6 · last seen 23 days ago',
    ]);
    const legacy = page.getByRole('listitem', { name: 'Reference 4 Headphone Edition' });
    await legacy.getByRole('button', { name: '0 of 2 devices activated' }).waitFor();
    await legacy.getByRole('button', { name: 'Upgrade' }).waitFor();
  });

  it('registers a key from `npm run admin`, activates it with `npm run app`, deactivates the machine in the browser', async () => {
    const account = await createVerifiedAccount(base, 'newcomer');
    const key = await adminCli(
      base,
      'issue-keys',
      '--product',
      'sid-reference',
      '--count',
      '1',
      '--reason',
      'newcomer walk',
    );
    expect(key).toMatch(/^[A-Z0-9]{6}-[A-Z0-9]{6}-[A-Z0-9]{6}-[A-Z0-9]{6}$/);

    const page = await browser.newPage(MOBILE);
    await signInByCookie(page, base, account, '/products');
    await page.getByRole('link', { name: 'Register a new license' }).click();
    await page.getByLabel('License activation key').fill(key);
    await page.getByRole('button', { name: 'Register key' }).click();
    await page.getByText('Your activation key has been registered successfully!').waitFor();
    const card = page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    await card.getByRole('button', { name: '0 of 3 devices activated' }).waitFor();

    const state = path.join(scratch, 'app.json');
    await appSimulator(base, state, 'login', '--email', account.email, '--password', account.password);
    const activated = ['--product', 'SoundIDReference', '--machine', 'newcomer-mac', '--name', 'My Mac'];
    expect(await appSimulator(base, state, 'activate', ...activated)).toContain('1 of 3 devices activated');

    // The reloaded page is sent rendered: its toggles answer once React owns them (CI lost the click).
    await page.reload();
    await appStarted(page);
    await card.getByRole('button', { name: '1 of 3 devices activated' }).click();
    const devices = page.getByRole('region', { name: 'Devices of SoundID Reference for Speakers & Headphones' });
    await devices.getByRole('button', { name: 'Deactivate My Mac' }).click();
    await devices.getByRole('button', { name: 'Yes, deactivate' }).click();
    await page.getByText('My Mac deactivated successfully.').waitFor();
    await card.getByRole('button', { name: '0 of 3 devices activated' }).waitFor();
    expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);

    const check = ['check', '--product', 'SoundIDReference', '--machine', 'newcomer-mac'];
    expect(await appSimulator(base, state, ...check).catch((e: { stdout: string }) => e.stdout)).toContain(
      'not activated on newcomer-mac',
    );
  });
});
