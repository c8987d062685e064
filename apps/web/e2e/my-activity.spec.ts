import { describe, expect, it } from 'vitest';
import { apiToken, createVerifiedAccount, logIn, mailLink, sessionOwner } from './accounts';
import { appStarted, expectAccessible, useBrowser } from './browser';
import { issueKeys } from './licences';

/**
 * My activity in Chromium (docs/decisions/0055-my-activity.md; ASVS 5.0 V7.4.1): a customer signs
 * in, registers a key and an app activates a machine; the profile's timeline shows each, newest
 * first, with its date; "This wasn't me" asks first, then signs every device out (this browser
 * and the app), mails a reset link and lands on the sign-in page.
 */
describe('My activity', () => {
  const browser = useBrowser();

  it('shows what was done, and "This wasn\'t me" signs every device out', async () => {
    const base = browser.baseUrl;
    const account = await createVerifiedAccount(base, 'my-activity');
    const page = await browser.newPage();
    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    await appStarted(page);

    // Two actions: a key registered in the browser, a machine activated by the app.
    const [key] = await issueKeys(base, 'sid-reference');
    await page.goto('/add-license');
    await appStarted(page);
    await page.getByLabel('License activation key').fill(key as string);
    await page.getByRole('button', { name: 'Register key' }).click();
    await page.getByText('Your activation key has been registered successfully!').waitFor();
    const app = await apiToken(base, account);
    const activated = await fetch(`${base}/api/apps/ActivateDevice`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', AuthToken: app },
      body: JSON.stringify({
        productName: 'SoundIDReference',
        machineId: 'e2e-activity-1',
        deviceName: 'E2E Studio Mac',
      }),
    });
    expect(activated.status).toBe(200);

    await page.goto('/profile');
    await appStarted(page);
    const panel = page.getByRole('region', { name: 'My activity' });
    await panel
      .getByText('SoundID Reference for Speakers & Headphones activated on E2E Studio Mac', { exact: true })
      .waitFor();
    const texts = await panel.locator('.activity__text').allTextContents();
    // Newest first: the app's activation and sign-in, the key, the browser's sign-in, the verification link's.
    expect(texts).toHaveLength(5);
    expect(texts[0]).toBe('SoundID Reference for Speakers & Headphones activated on E2E Studio Mac');
    expect(texts[1]).toMatch(/^Signed in/);
    expect(texts[2]).toBe('SoundID Reference for Speakers & Headphones license registered');
    expect(texts[3]).toMatch(/^Signed in from Chrome on \w+$/);
    expect(texts[4]).toMatch(/^Signed in/);
    // Each entry has its date in the histories' format (dd/mm/yy h:mm am/pm).
    expect(await panel.locator('time').first().textContent()).toMatch(/^\d\d\/\d\d\/\d\d \d{1,2}:\d\d [ap]m$/);

    await expectAccessible(page, 'my-activity');

    // The browser's sign-in: reported, after the question.
    const browserSignIn = panel.getByRole('listitem').filter({ hasText: /^Signed in from Chrome/ });
    await browserSignIn.getByRole('button', { name: /This wasn't me/ }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByText(/sign out every device \(this one too\)/).waitFor();
    await expectAccessible(page, 'my-activity-confirm');
    await dialog.getByRole('button', { name: "Yes, it wasn't me" }).click();
    await page.waitForURL('**/login**');
    await page
      .getByText('You have been signed out everywhere. Check your email for a link to choose a new password.')
      .waitFor();

    // Every session is over, the app's too; the reset link is in the mail.
    expect(await sessionOwner(base, app)).toBe('UserAuthenticationFailed');
    await page.goto('/profile');
    await page.waitForURL('**/login**');
    expect(await mailLink(base, account.email, '/reset-password/')).toMatch(/^\/reset-password\/[\w-]{43}$/);
  });
});
