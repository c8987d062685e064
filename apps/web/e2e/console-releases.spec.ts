import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, signInByCookie } from './accounts';
import { expectAccessible, useBrowser } from './browser';
import { downloadRelease, installerFile, sha256 } from './downloads';
import { auditEntry, becomeOperator, consoleNav, cspViolations } from './operators';

/**
 * A release published from the back-office console (ADR 0046, 0047): an admin, invited and
 * signed in as console.spec.ts walks it, uploads an installer on the Releases screen with a
 * reason; the audit screen shows the entry with it; a customer's download center lists the
 * release with its SHA-256, and the bytes the customer downloads hash to it.
 */
describe('the console: releases', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it('an admin uploads an installer with a reason; the audit shows it; the customer downloads it and its checksum matches', async () => {
    // Windows, above the demo releases' 3.4.1: the latest of its platform (download-center.spec.ts publishes for macOS).
    const version = `91.${Date.now() % 100_000}.0`;
    const fileName = `SoundIDVoiceAI-${version}.exe`;
    const installer = installerFile(fileName);
    const notes = `Console spec release ${version}.`;

    const page = await browser.newPage();
    const refused = cspViolations(page);
    const email = await becomeOperator(page, base, ['admin'], 'Ada Admin');
    await consoleNav(page).getByRole('link', { name: 'Releases' }).click();
    const upload = page.getByRole('region', { name: 'Publish a release' });
    await upload.getByLabel('Product').selectOption('voice-ai');
    await upload.getByLabel('Platform').selectOption('windows');
    await upload.getByLabel('Version').fill(version);
    await upload.getByLabel('Release notes').fill(notes);
    await upload.getByLabel('Installer').setInputFiles(installer.path);
    const reason = `Ticket 7001: VoiceAI ${version} for Windows`;
    await upload.getByLabel('Reason or ticket').fill(reason);
    await expectAccessible(page, 'console-releases-upload');
    await upload.getByRole('button', { name: 'Publish' }).click();

    const published = page.getByRole('region', { name: 'Published' });
    await published.getByRole('status').getByText(`voice-ai ${version} (Windows) published.`).waitFor();
    const row = published.getByRole('row', { name: new RegExp(fileName.replaceAll('.', '\\.')) });
    expect(await row.getByRole('cell').nth(1).textContent()).toBe(`${version}latest`);
    // The table shows the hash's beginning; its title holds all of it.
    const hash = row.locator('code');
    expect(await hash.textContent()).toBe(`${installer.sha256.slice(0, 12)}…`);
    expect(await hash.getAttribute('title')).toBe(installer.sha256);
    // The form is cleared for the next release.
    expect(await upload.getByLabel('Version').inputValue()).toBe('');

    const entry = await auditEntry(page, 'AdminUploadRelease', email);
    await entry.getByText(reason).waitFor();
    expect(await entry.getByRole('cell').nth(3).textContent()).toBe('done');
    expect(refused).toEqual([]);

    // A customer who can try VoiceAI finds it in the download center, checksum and all.
    const customer = await createVerifiedAccount(base, 'console-release');
    const portal = await browser.newPage();
    await signInByCookie(portal, base, customer, '/download-center');
    const section = portal.getByRole('region', { name: 'SoundID VoiceAI' });
    const release = section.getByRole('article', { name: `${fileName}, Version ${version}` });
    await release.getByText('Latest version').waitFor();
    await release.getByText(notes).waitFor();
    const shown = (await release.locator('code').textContent())?.trim();
    expect(shown).toBe(installer.sha256);

    const saved = await downloadRelease(portal, release, fileName);
    expect(saved.length).toBe(installer.bytes.length);
    expect(sha256(saved)).toBe(shown);
  });
});
