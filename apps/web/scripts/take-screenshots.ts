/**
 * Regenerates docs/screenshots: /login, /profile, the demo customer's /products and a new
 * customer's buy page (/products/voice-ai, trial offer included) at 1440 and 360 px, against a
 * fresh API.
 * Run from the repository root: npm run screenshots -w apps/web
 */
import path from 'node:path';
import { createVerifiedAccount, logIn } from '../e2e/accounts';
import { buildWeb, demoAccount, repoRoot, startApi } from '../e2e/api-server';
import { DESKTOP, launchChromium, MOBILE } from '../e2e/chromium';

const outDir = path.join(repoRoot, 'docs/screenshots');

buildWeb();
const api = await startApi();
const browser = await launchChromium();
try {
  const account = await createVerifiedAccount(api.baseUrl, 'screenshots');
  const demo = await demoAccount(api);
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
    await page.goto('/products/voice-ai');
    await page.getByRole('button', { name: 'Start 7-day free trial' }).waitFor();
    // The perpetual card has its price from the storefront.
    await page.getByRole('region', { name: 'Perpetual mode' }).getByText('Unlimited processing').waitFor();
    await page.getByText('Loading price…').waitFor({ state: 'detached' });
    await page.screenshot({ path: path.join(outDir, `voice-ai-buy-${label}.png`), fullPage: true });
    await context.close();

    const demoContext = await browser.newContext({ baseURL: api.baseUrl, viewport });
    const demoPage = await demoContext.newPage();
    await logIn(demoPage, demo.email, demo.password, '/login?nextUrl=%2Fproducts');
    await demoPage.getByRole('heading', { level: 2, name: 'SoundID VoiceAI' }).waitFor();
    await demoPage.getByRole('button', { name: 'Explore and manage preset expansion packs' }).click();
    await demoPage.getByRole('button', { name: '2 of 3 devices activated' }).click();
    await demoPage.getByRole('region', { name: /^Devices of/ }).waitFor();
    // The panel's heading took focus (and scrolled); the picture starts at the top of the page.
    await demoPage.evaluate(() => {
      (document.activeElement as HTMLElement | null)?.blur();
      window.scrollTo(0, 0);
    });
    await demoPage.screenshot({ path: path.join(outDir, `products-${label}.png`), fullPage: true });
    await demoContext.close();
  }
  console.log(`Screenshots written to ${outDir}`);
} finally {
  await browser.close();
  await api.stop();
}
