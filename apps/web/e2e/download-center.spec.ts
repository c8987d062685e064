import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { appStarted, expectAccessible, useBrowser } from './browser';
import { downloadRelease, installerFile, sha256 } from './downloads';
import { adminCli } from './licences';

/**
 * The download center end to end in Chromium (docs/decisions/0046-release-storage.md): an
 * operator publishes an installer with the CLI, a signed-in customer follows the VoiceAI card's
 * Download link to the product's section, downloads the latest version through its short-lived
 * link, and the bytes saved hash to the SHA-256 the page shows (ASVS 5.0 V5: 5.4.1 the download
 * is an attachment under its own name; the checksum the customer checks an installer against).
 */
describe('download center', () => {
  const browser = useBrowser();

  it('a Download link leads to the product; the downloaded installer matches the checksum shown', async () => {
    // A version above the demo releases' (3.4.1): this upload is the latest whatever ran before.
    const version = `90.${Date.now() % 100_000}.0`;
    const installer = installerFile(`SoundIDVoiceAI-${version}.pkg`);
    const expected = installer.sha256;
    const printed = await adminCli(
      browser.baseUrl,
      'upload-release',
      '--product',
      'voice-ai',
      '--platform',
      'macos',
      '--version',
      version,
      '--notes',
      `Browser spec release ${version}.`,
      '--file',
      installer.path,
      '--reason',
      'browser spec',
    );
    expect(printed).toContain(`sha256 ${expected}`);

    const account = await createVerifiedAccount(browser.baseUrl, 'download-center');
    const page = await browser.newPage();
    await signInByCookie(page, browser.baseUrl, account, '/products');
    const voiceCard = page.getByRole('region', { name: 'SoundID VoiceAI' });
    await voiceCard.getByRole('link', { name: 'Download', exact: true }).click();
    await page.waitForURL('**/download-center#voice-ai');
    await appStarted(page);
    const section = page.getByRole('region', { name: 'SoundID VoiceAI' });
    await expect
      .poll(() => section.getByRole('heading', { level: 2 }).evaluate((h) => h === document.activeElement))
      .toBe(true);

    const release = section.getByRole('article', { name: `SoundIDVoiceAI-${version}.pkg, Version ${version}` });
    await expect.poll(() => release.getByText('Latest version').count()).toBe(1);
    const shown = (await release.locator('code').textContent())?.trim();
    expect(shown).toBe(expected);
    expect(await release.getByText(`Browser spec release ${version}.`).count()).toBe(1);
    await expectAccessible(page, 'download-center');

    const saved = await downloadRelease(page, release, `SoundIDVoiceAI-${version}.pkg`);
    expect(saved.length).toBe(installer.bytes.length);
    expect(sha256(saved)).toBe(shown);
    // The page stays where it was.
    expect(new URL(page.url()).pathname).toBe('/download-center');

    // The shell's Downloads link leads there too.
    await page.goto('/profile');
    await appStarted(page);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Downloads' }).click();
    await page.waitForURL('**/download-center');
    await expect.poll(() => page.getByRole('heading', { level: 1, name: 'Downloads' }).count()).toBe(1);
  });
});
