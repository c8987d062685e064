import { describe, expect, it } from 'vitest';
import { logIn, mailLink, uniqueEmail } from './accounts';
import { expectAccessible, useBrowser } from './browser';

/**
 * One customer's life, in order: each step starts from where the previous one left off.
 * Every screen on the way is also checked with axe-core.
 */
describe('account journey', () => {
  const browser = useBrowser();
  const email = uniqueEmail('journey');
  const newEmail = uniqueEmail('journey-new');
  let password = 'first-password-1';

  it('signs up and asks to verify the e-mail', async () => {
    const page = await browser.newPage();
    await page.goto('/signup');
    await page.getByRole('heading', { level: 1, name: 'Sign up' }).waitFor();
    await expectAccessible(page, 'signup');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByLabel('Repeat password').fill(password);
    await page.getByRole('button', { name: 'Sign up' }).click();
    await page.getByRole('heading', { level: 1, name: 'Please verify your email' }).waitFor();
    await expectAccessible(page, 'signup-done');
  });

  it('verifies the e-mail from the mailbox link and lands signed in on products', async () => {
    const page = await browser.newPage();
    await page.goto(await mailLink(browser.baseUrl, email, '/verify-email/'));
    await page.waitForURL('**/products');
    await page.getByText('Your email address has been verified successfully.').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Licenses & Devices' }).waitFor();
    expect(await page.getByRole('banner').getByText(email).count()).toBeGreaterThan(0);
    await expectAccessible(page, 'products');
  });

  it('sends an anonymous visitor to login with nextUrl, and back after login', async () => {
    const page = await browser.newPage();
    await page.goto('/profile');
    await page.waitForURL((url) => url.pathname === '/login' && url.searchParams.get('nextUrl') === '/profile');
    await expectAccessible(page, 'login');
    await page.getByLabel('Email').fill(email);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in', exact: true }).click();
    await page.waitForURL('**/profile');
    await page.getByRole('heading', { level: 1, name: 'Profile' }).waitFor();
    await expectAccessible(page, 'profile');

    // A signed-in customer is kept off the login screen.
    await page.goto('/login');
    await page.waitForURL('**/products');
  });

  it('edits the address', async () => {
    const page = await browser.newPage();
    await logIn(page, email, password, '/login?nextUrl=%2Fprofile');
    await page.waitForURL('**/profile');
    const row = page.getByRole('region', { name: 'Address' });
    await row.getByRole('button', { name: 'Change Address' }).click();
    const country = page.getByLabel('Country');
    await country.locator('option').nth(1).waitFor({ state: 'attached' });
    await page.getByLabel('Street address').fill('1 Main Street');
    await page.getByLabel('City').fill('Riga');
    await page.getByLabel('State / Province').fill('Riga');
    await page.getByLabel('Postal code').fill('LV-1010');
    const save = row.getByRole('button', { name: 'Save' });
    expect(await save.isDisabled()).toBe(true);
    await country.selectOption({ index: 1 });
    await expectAccessible(page, 'profile-address-editor');
    await save.click();
    await page.getByText('Your address has been updated successfully.').waitFor();
    await row.getByText('1 Main Street, Riga, Riga, LV-1010').waitFor();
  });

  it('changes the password', async () => {
    const page = await browser.newPage();
    await logIn(page, email, password, '/login?nextUrl=%2Fprofile');
    await page.waitForURL('**/profile');
    await page.getByRole('button', { name: 'Change Password' }).click();
    await page.getByLabel('Current password').fill('not-the-password');
    await page.getByLabel('New password', { exact: true }).fill('second-password-2');
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Old password is not correct.').waitFor();
    await page.getByLabel('Current password').fill(password);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Your password has been updated successfully.').waitFor();
    password = 'second-password-2';
  });

  it('changes the e-mail through the confirmation link', async () => {
    const page = await browser.newPage();
    await logIn(page, email, password, '/login?nextUrl=%2Fprofile');
    await page.waitForURL('**/profile');
    await page.getByRole('button', { name: 'Change Email' }).click();
    await page.getByLabel('New email address').fill(newEmail);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('We have sent a confirmation link to your new email address.').waitFor();
    await page.goto(await mailLink(browser.baseUrl, newEmail, '/verify-email-change/'));
    await page.waitForURL('**/profile');
    await page.getByRole('region', { name: 'Email' }).getByText(newEmail).waitFor();
  });

  it('signs out', async () => {
    const page = await browser.newPage();
    await logIn(page, newEmail, password, '/login?nextUrl=%2Fprofile');
    await page.waitForURL('**/profile');
    await page.getByRole('banner').getByRole('button', { name: newEmail }).click();
    await page.getByRole('link', { name: 'Log out' }).click();
    await page.waitForURL('**/login');
    await page.goto('/profile');
    await page.waitForURL('**/login?nextUrl=%2Fprofile');
  });

  it('resets a forgotten password through the mailbox link', async () => {
    const page = await browser.newPage();
    await page.goto('/login');
    await page.getByRole('link', { name: 'Forgot password?' }).click();
    await page.getByRole('heading', { level: 1, name: 'Forgot your password?' }).waitFor();
    await expectAccessible(page, 'reset-request');
    await page.getByLabel('Email').fill(newEmail);
    await page.getByRole('button', { name: 'Send link' }).click();
    await page.getByRole('heading', { level: 1, name: 'Please check your inbox' }).waitFor();

    await page.goto(await mailLink(browser.baseUrl, newEmail, '/reset-password/'));
    await page.getByRole('heading', { level: 1, name: 'Set a new password' }).waitFor();
    await expectAccessible(page, 'reset-set-password');
    await page.getByLabel('New password', { exact: true }).fill('third-password-3');
    await page.getByLabel('Repeat new password').fill('third-password-3');
    await page.getByRole('button', { name: 'Save password' }).click();
    await page.waitForURL('**/login');
    password = 'third-password-3';
    await logIn(page, newEmail, password);
    await page.waitForURL('**/products');
  });

  it('deletes the account through the confirmation mail', async () => {
    const page = await browser.newPage();
    await logIn(page, newEmail, password, '/login?nextUrl=%2Fprofile');
    await page.waitForURL('**/profile');
    await page.getByRole('button', { name: 'Delete account' }).click();
    await page.getByRole('button', { name: 'Yes, delete my account' }).click();
    await page.getByText('We have sent you an email to confirm the deletion of your account.').waitFor();

    await page.goto(await mailLink(browser.baseUrl, newEmail, '/delete-account/'));
    await page.getByText('Your account has been deleted. Goodbye!').waitFor();
    await expectAccessible(page, 'account-deleted');

    await logIn(page, newEmail, password);
    await page.getByRole('alert').getByText("We don't recognize this user.").waitFor();
  });
});
