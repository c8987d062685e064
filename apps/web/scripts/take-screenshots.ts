/**
 * Regenerates docs/screenshots: /login and /profile at 1440 and 360 px, against a fresh API.
 * Run from the repository root: npm run screenshots -w apps/web
 */
import path from 'node:path';
import { createVerifiedAccount, logIn } from '../e2e/accounts';
import { buildWeb, repoRoot, startApi } from '../e2e/api-server';
import { DESKTOP, launchChromium, MOBILE } from '../e2e/chromium';

const outDir = path.join(repoRoot, 'docs/screenshots');

buildWeb();
const api = await startApi();
const browser = await launchChromium();
try {
  const account = await createVerifiedAccount(api.baseUrl, 'screenshots');
  for (const [label, viewport] of [
    ['desktop', DESKTOP],
    ['mobile', MOBILE],
  ] as const) {
    const context = await browser.newContext({ baseURL: api.baseUrl, viewport });
    const page = await context.newPage();
    await page.goto('/login');
    await page.getByRole('heading', { level: 1, name: 'Log in' }).waitFor();
    await page.screenshot({ path: path.join(outDir, `login-${label}.png`), fullPage: true });
    await logIn(page, account.email, account.password, '/login?nextUrl=%2Fprofile');
    await page.waitForURL('**/profile');
    await page.getByRole('region', { name: 'Password' }).waitFor();
    await page.screenshot({ path: path.join(outDir, `profile-${label}.png`), fullPage: true });
    await context.close();
  }
  console.log(`Screenshots written to ${outDir}`);
} finally {
  await browser.close();
  await api.stop();
}
