import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, type DevMail, logIn, mailLink, sessionOwner } from './accounts';
import { appStarted, useBrowser } from './browser';

/**
 * New-device alerts in Chromium (ADR 0041; ASVS 5.0 V6.3.5, V7.4.1): a customer who signed in
 * before signs in from a new browser, the dev mailbox holds the alert with the device, time and
 * address, and its "This wasn't me" link, opened in another browser, ends every session, mails a
 * reset link and says what was done.
 */
describe('a sign-in from a new browser', () => {
  const browser = useBrowser();

  const mailsTo = async (email: string) => {
    const res = await fetch(`${browser.baseUrl}/api/dev/mail?to=${encodeURIComponent(email)}`);
    return ((await res.json()) as { Result: DevMail[] }).Result;
  };
  /** A session for the client createVerifiedAccount used (its Software header): a device the account knows. */
  const sameClientToken = async (account: { email: string; password: string }) => {
    const res = await fetch(`${browser.baseUrl}/api/accounts/LoginByEmail`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', Software: 'MySoundID-E2E/1.0' },
      body: JSON.stringify(account),
    });
    return (await res.json()).Token as string;
  };

  it('mails the customer, and "This wasn\'t me" signs every device out and starts a reset', async () => {
    const base = browser.baseUrl;
    // Signed up and in through the API: the account has seen that client, and mails nothing for it.
    const account = await createVerifiedAccount(base, 'new-device');
    const appSession = await sameClientToken(account);
    expect((await mailsTo(account.email)).map((mail) => mail.Subject)).not.toContain(
      'New sign-in to your My SoundID account',
    );

    // A browser the account has not seen.
    const page = await browser.newPage();
    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    const deviceCookie = (await page.context().cookies()).find((c) => c.name.endsWith('soundid_device'));
    expect(deviceCookie).toMatchObject({ httpOnly: true, sameSite: 'Lax' });

    const reportPath = await mailLink(base, account.email, '/report-sign-in/');
    const [alert] = (await mailsTo(account.email)).filter(
      (mail) => mail.Subject === 'New sign-in to your My SoundID account',
    );
    expect(alert?.Text).toMatch(/Device: Chrome on \w+/);
    expect(alert?.Text).toMatch(/IP address: (127\.0\.0\.1|::1|::ffff:127\.0\.0\.1)/);

    // The customer opens the link from the mail, in another browser.
    const other = await page.context().browser()?.newContext({ baseURL: base });
    const mailPage = await other?.newPage();
    if (!mailPage) throw new Error('no second browser context');
    await mailPage.goto(reportPath);
    await appStarted(mailPage);
    await mailPage.getByRole('heading', { level: 1, name: 'Secure your account' }).waitFor();
    await mailPage.getByText('Every device signed in to your account has been signed out.').waitFor();
    await mailPage.getByText(/Your email address cannot be changed until/).waitFor();

    // Every session is over: the app's, and the browser's, which goes back to the login screen.
    expect(await sessionOwner(base, appSession)).toBe('UserAuthenticationFailed');
    await page.reload();
    await page.waitForURL('**/login**');
    // The reset link is on its way, and the link works once.
    expect(await mailLink(base, account.email, '/reset-password/')).toMatch(/^\/reset-password\/[\w-]{43}$/);
    await mailPage.goto(reportPath);
    await mailPage.getByText(/This link is invalid, has expired or has already been used/).waitFor();
    await other?.close();
  });
});
