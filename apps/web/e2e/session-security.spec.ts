import { describe, expect, it } from 'vitest';
import { createVerifiedAccount, logIn } from './accounts';
import { useBrowser } from './browser';
import { operatorToken } from './licences';

/**
 * The session as Chromium holds it (ASVS 3.3.4, 3.5.1, 3.4.3): an HttpOnly, SameSite=Lax
 * cookie whose token no script on the page can reach, which a link on another site cannot
 * use on an action URL, and pages that load without a Content-Security-Policy violation.
 */
describe('the session in the browser', () => {
  const browser = useBrowser();

  const json = async (url: string, body: unknown, headers: Record<string, string> = {}) =>
    (await (
      await fetch(url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      })
    ).json()) as { Success: boolean; Token?: string; Result: Record<string, unknown> };

  it('keeps the session token from script, and a cross-site link cannot deactivate a device', async () => {
    const base = browser.baseUrl;
    const account = await createVerifiedAccount(base, 'session');
    // A desktop app of the customer: signs in (it gets the token), and activates this machine.
    const app = await json(`${base}/api/accounts/LoginByEmail`, { email: account.email, password: account.password });
    const issued = await json(
      `${base}/api/admin/issue-keys`,
      { product: 'sid-reference', count: 1, reason: 'session security spec' },
      { authorization: `Bearer ${operatorToken()}` },
    );
    const key = (issued.Result.Keys as string[])[0];
    await json(`${base}/api/accounts/RegisterKey`, { key }, { authtoken: app.Token as string });
    const activated = await json(
      `${base}/api/apps/ActivateDevice`,
      { productName: 'SoundIDReference', machineId: 'e2e-session-machine', deviceName: 'E2E studio' },
      { authtoken: app.Token as string },
    );
    const deviceId = activated.Result.DeviceId as string;

    const page = await browser.newPage();
    const violations: string[] = [];
    page.on('console', (message) => {
      if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
    });
    // Every answer's body, taken in the order the answers came (read once the page has settled).
    const bodies: Promise<string>[] = [];
    page.on('response', (response) => {
      const isPage = response.request().resourceType() === 'document';
      if (isPage || response.url().includes('/api/')) bodies.push(response.text().catch(() => ''));
    });
    await logIn(page, account.email, account.password);
    await page.waitForURL('**/products');
    await page.getByRole('heading', { level: 1, name: 'Licenses & Devices' }).waitFor();
    await page.waitForLoadState('networkidle');
    const answers = await Promise.all(bodies);

    const cookie = (await page.context().cookies()).find((c) => c.name.endsWith('soundid_session'));
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/' });
    const token = cookie?.value as string;
    expect(token.length).toBeGreaterThan(40);

    // Nothing the page's script can read holds it: not document.cookie, not storage, not any answer.
    const readable = await page.evaluate(() =>
      JSON.stringify({ cookie: document.cookie, local: { ...localStorage }, session: { ...sessionStorage } }),
    );
    expect(readable).not.toContain(token);
    // The page (which the service writes: ADR 0024), the sign-in and the licence list at least.
    expect(answers.length).toBeGreaterThan(2);
    for (const answer of answers) expect(answer).not.toContain(token);
    // Not even when script asks who is signed in, as an injected script could.
    const asked = await page.evaluate(async () => {
      const res = await fetch('/api/accounts/LoginByToken', {
        method: 'POST',
        headers: { 'content-type': 'application/json', Software: 'injected' },
        body: '{}',
      });
      return res.text();
    });
    expect(JSON.parse(asked).Success).toBe(true);
    expect(asked).not.toContain(token);

    // A link on another site to the device's action URL: the browser sends the Lax cookie on a
    // top-level navigation, but not the Software header.
    const actionUrl = `${base}/api/actions/devices/${deviceId}/deactivate`;
    await page.goto(`data:text/html,<a id="bait" href="${actionUrl}">Win a prize</a>`);
    const [navigation] = await Promise.all([page.waitForResponse(actionUrl), page.click('#bait')]);
    expect(navigation.status()).toBe(403);
    expect((await navigation.json()).Fault).toMatchObject({ ExceptionName: 'SoftwareHeaderMissing' });
    const check = await json(
      `${base}/api/apps/CheckLicense`,
      { productName: 'SoundIDReference', machineId: 'e2e-session-machine' },
      { authtoken: app.Token as string },
    );
    expect(check.Result).toMatchObject({ Licensed: true, DeviceId: deviceId });

    expect(violations).toEqual([]);
  });
});
