import { generateSync } from 'otplib';
import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, logIn } from './accounts';
import { appStarted, useBrowser } from './browser';

/**
 * Passkeys end to end in Chromium (ADR 0039; ASVS 6.5.x, 6.6.x): Chromium's virtual
 * authenticator (DevTools protocol, WebAuthn domain) holds a discoverable credential with user
 * verification. Added from the profile, it signs in without an e-mail, and at the second-factor
 * step of an account with TOTP it takes the place of the code.
 */
describe('passkeys', () => {
  const browser = useBrowser();

  it('are added from the profile, sign in without an e-mail, and stand in for the TOTP code', async () => {
    const account = await createVerifiedAccount(browser.baseUrl, 'passkeys');
    const page = await browser.newPage();
    const cdp = await page.context().newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
      },
    });
    const signOut = async () => {
      await page.goto('about:blank');
      await page.context().clearCookies();
    };

    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    await page.goto('/profile');
    const panel = page.getByRole('region', { name: 'Passkeys' });
    await expect.poll(() => panel.getByText('You have no passkeys yet.').count()).toBe(1);
    await panel.getByRole('button', { name: 'Add a passkey' }).click();
    const items = panel.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await expect.poll(() => items.count()).toBe(1);
    expect(await items.first().textContent()).toContain('not used yet');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]?.isResidentCredential).toBe(true);
    expect(credentials[0]?.rpId).toBe('localhost');

    // Renamed by the customer.
    await items
      .first()
      .getByRole('button', { name: /^Rename/ })
      .click();
    await panel.getByLabel('Passkey name').fill('Test laptop');
    await panel.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => panel.getByText('Test laptop').count()).toBe(1);

    // Signed out, the passkey signs in: no e-mail, no password typed.
    await signOut();
    await page.goto('/login');
    // The sign-in screen is sent rendered (ADR 0024): its buttons answer once the app runs.
    await appStarted(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/products');
    await page.goto('/profile');
    await expect
      .poll(() =>
        page
          .getByRole('region', { name: 'Passkeys' })
          .getByText(/last used/)
          .count(),
      )
      .toBe(1);

    // Two-step verification on: the password asks for the code, and the passkey may answer instead.
    const twoStep = page.getByRole('region', { name: 'Two-step verification' });
    await twoStep.getByRole('button', { name: 'Turn on' }).click();
    await expect.poll(() => twoStep.locator('.two-step__secret code').count()).toBe(1);
    const secret = ((await twoStep.locator('.two-step__secret code').textContent()) ?? '').replaceAll(' ', '');
    await twoStep.getByLabel('Code from the app').fill(generateSync({ secret }));
    await twoStep.getByRole('button', { name: 'Turn on two-step verification' }).click();
    await twoStep.getByRole('button', { name: 'I have saved my codes' }).click();

    await signOut();
    await logIn(page, account.email, account.password);
    await page.getByRole('heading', { name: 'Two-step verification' }).waitFor();
    // One passkey choice on the code step: the one that completes this sign-in.
    expect(await page.getByRole('button', { name: /passkey/i }).allTextContents()).toEqual(['Use a passkey']);
    await page.getByRole('button', { name: 'Use a passkey' }).click();
    await page.waitForURL('**/products');

    // And the passkey alone still signs the TOTP account in: it is both factors.
    await signOut();
    await page.goto('/login');
    // The sign-in screen is sent rendered (ADR 0024): its buttons answer once the app runs.
    await appStarted(page);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL('**/products');
  });
});
