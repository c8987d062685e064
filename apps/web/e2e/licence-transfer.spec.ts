import { describe, expect, it } from 'vitest';
import { apiResult, apiToken, createVerifiedAccount, logIn, mailLink, uniqueEmail } from './accounts';
import { appStarted, expectAccessible, useBrowser } from './browser';
import { issueKeys, registerKey } from './licences';

/**
 * Passing a licence on in the browser (docs/decisions/0054-licence-transfer.md): the owner's offer
 * with the step-up in place, the recipient's mailed link signed out, the sign-in that returns to
 * it, and the acceptance that moves the key.
 */
describe('passing a licence on', () => {
  const browser = useBrowser();
  const base = browser.baseUrl;

  it('the owner offers a licence after confirming it is them; the recipient signs in from the link and accepts it', async () => {
    const owner = await createVerifiedAccount(base, 'transfer-owner');
    const recipient = await createVerifiedAccount(base, 'transfer-to');
    const [key] = await issueKeys(base, 'sid-reference');
    const app = await apiToken(base, owner);
    await registerKey(base, app, key as string);

    // Opened from the desktop app: a session without a proof of presence (ADR 0040).
    const page = await browser.newPage();
    const { Url } = await apiResult<{ Url: string }>(base, '/api/apps/CreateWebLoginCode', { path: '/products' }, app);
    const link = new URL(Url);
    await page.goto(`${link.pathname}${link.search}`);
    await page.waitForURL('**/products');
    await appStarted(page);
    const card = page.getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' });
    await card.getByRole('button', { name: 'Pass this license on' }).click();
    const panel = page.getByRole('region', { name: 'Pass SoundID Reference for Speakers & Headphones on' });
    await panel.getByLabel('Their email address').fill(recipient.email);
    await expectAccessible(page, 'products-transfer');
    await panel.getByRole('button', { name: 'Send the offer' }).click();
    const dialog = page.getByRole('dialog', { name: 'Confirm it’s you' });
    await dialog.getByLabel('Password').fill(owner.password);
    await dialog.getByRole('button', { name: 'Confirm' }).click();
    await page.getByText(`We emailed ${recipient.email} a link to accept this license.`, { exact: false }).waitFor();
    await panel.getByText(`Offered to ${recipient.email}, until`, { exact: false }).waitFor();
    expect(new URL(page.url()).hash).toBe('#transfer-SoundIDReference');

    // The recipient, signed out, opens the mailed link: sign in first, then back to the offer.
    const offerPath = await mailLink(base, recipient.email, '/license-transfer/');
    const other = await browser.newPage();
    await other.goto(offerPath);
    await other.waitForURL('**/login**');
    await logIn(
      other,
      recipient.email,
      recipient.password,
      new URL(other.url()).pathname + new URL(other.url()).search,
    );
    await other.waitForURL(`**${offerPath}`);
    await other
      .getByText(
        `${owner.email.slice(0, 1)}***@e***.com offers you their SoundID Reference for Speakers & Headphones license.`,
      )
      .waitFor();
    await expectAccessible(other, 'licence-transfer');
    await other.getByRole('button', { name: 'Accept the license' }).click();
    await other.waitForURL('**/products');
    await other.getByText('SoundID Reference for Speakers & Headphones is now in your account.').waitFor();
    await other
      .getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' })
      .getByRole('button', { name: 'Pass this license on' })
      .waitFor();

    // The link works once.
    await other.goto(offerPath);
    await other.getByText('This offer has already been accepted.').waitFor();
  });

  it('someone who signs up after the offer finds it on Licenses & Devices and accepts it there', async () => {
    const owner = await createVerifiedAccount(base, 'transfer-owner2');
    const [key] = await issueKeys(base, 'sid-reference');
    const app = await apiToken(base, owner);
    await registerKey(base, app, key as string);
    // A password sign-in is a fresh proof of presence: the offer's step-up is met (ADR 0040).
    const to = uniqueEmail('transfer-newcomer');
    await apiResult(base, '/api/licenses/StartLicenceTransfer', { key, email: to }, app);

    // The newcomer signs up with that address (not through the offer's link) and signs in.
    const page = await browser.newPage();
    await page.goto('/signup');
    await page.getByLabel('Email').fill(to);
    await page.getByLabel('Password', { exact: true }).fill('correct-horse-battery');
    await page.getByLabel('Repeat password').fill('correct-horse-battery');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Please verify your email' }).waitFor();
    const verify = await mailLink(base, to, '/verify-email/');
    await page.goto(verify);
    await page.waitForURL('**/products');
    const offers = page.getByRole('region', { name: 'Licenses offered to you' });
    await offers
      .getByText('offers you their SoundID Reference for Speakers & Headphones license', { exact: false })
      .waitFor();
    await expectAccessible(page, 'products-incoming-offer');
    await offers.getByRole('button', { name: 'Accept SoundID Reference for Speakers & Headphones' }).click();
    await page.getByText('SoundID Reference for Speakers & Headphones is now in your account.').waitFor();
    await page
      .getByRole('listitem', { name: 'SoundID Reference for Speakers & Headphones' })
      .getByRole('button', { name: 'Pass this license on' })
      .waitFor();
    expect(await offers.count()).toBe(0);

    // Both timelines tell it (ADR 0055): the owner passed it on, the newcomer received it.
    await page.goto('/profile');
    await appStarted(page);
    await page
      .getByRole('region', { name: 'My activity' })
      .getByText('SoundID Reference for Speakers & Headphones license received from another account', { exact: true })
      .waitFor();
    const owners = await browser.newPage();
    await logIn(owners, owner.email, owner.password);
    await owners.waitForURL('**/products');
    await owners.goto('/profile');
    await appStarted(owners);
    await owners
      .getByRole('region', { name: 'My activity' })
      .getByText('SoundID Reference for Speakers & Headphones license passed on to another account', { exact: true })
      .waitFor();
  });
});
